import type { Scenario } from '../lib/scenario.ts';

export const sseStreams: Scenario = {
  name: 'sse-streams',
  title: 'TODO',
  async run(_ctx, report) {
    report.check(false, 'not written yet');
  },
};
