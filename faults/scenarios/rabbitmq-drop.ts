import type { Scenario } from '../lib/scenario.ts';

export const rabbitDrop: Scenario = {
  name: 'rabbitmq-drop',
  title: 'TODO',
  async run(_ctx, report) {
    report.check(false, 'not written yet');
  },
};
