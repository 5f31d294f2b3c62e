import type { Scenario } from '../lib/scenario.ts';

export const redisLoss: Scenario = {
  name: 'redis-loss',
  title: 'TODO',
  async run(_ctx, report) {
    report.check(false, 'not written yet');
  },
};
