import type { Scenario } from '../lib/scenario.ts';

export const exportKill: Scenario = {
  name: 'export-kill',
  title: 'TODO',
  async run(_ctx, report) {
    report.check(false, 'not written yet');
  },
};
