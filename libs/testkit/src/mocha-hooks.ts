import { stopContainers } from './backing.ts';

/** Mocha root hooks: stop whatever containers testcontainers started for this run. */
export const mochaHooks = {
  async afterAll(): Promise<void> {
    await stopContainers();
  },
};
