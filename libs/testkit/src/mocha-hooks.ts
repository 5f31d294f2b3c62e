import { takeContractViolations } from '@fieldhouse/http';
import { stopContainers } from './backing.ts';

// Every answer of a route declared with defineRoute is checked against its service's OpenAPI
// document during the tests (libs/http/src/contract/conformance.ts). Set before any app exists.
process.env.FIELDHOUSE_CONTRACT_CHECK ??= '1';

/**
 * Mocha root hooks: after each test, fail it if an answer broke its OpenAPI document (status
 * not declared, content type not declared, or body not matching the schema); after all, stop
 * whatever containers testcontainers started for this run. Mocha reads it (`.mocharc.json`
 * `require`), no module imports it.
 * @public
 */
export const mochaHooks = {
  afterEach(): void {
    const violations = takeContractViolations();
    if (violations.length)
      throw new Error(
        `${violations.length} answer(s) broke the OpenAPI contract:\n- ${violations.join('\n- ')}`,
      );
  },
  async afterAll(): Promise<void> {
    await stopContainers();
  },
};
