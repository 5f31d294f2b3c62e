import type { Fixtures } from './fixtures.ts';
import type { Stores } from './durability.ts';
import type { Api } from './http.ts';
import type { ScenarioReport } from './report.ts';
import type { FaultStack } from './stack.ts';

/** What a scenario works with: the running stack, the fixtures, the stores, the API. */
export interface ScenarioContext {
  stack: FaultStack;
  fx: Fixtures;
  stores: Stores;
  /** The API as the fixtures' user (`fx.api`) or anonymous. */
  api: Api;
  anonymous: Api;
}

/** One scenario: a fault, the load around it and the checks that decide. */
export interface Scenario {
  /** Its name on the command line (`npm run test:faults -- <name>`). */
  name: string;
  /** One line: the fault and what must hold. */
  title: string;
  run: (ctx: ScenarioContext, report: ScenarioReport) => Promise<void>;
}
