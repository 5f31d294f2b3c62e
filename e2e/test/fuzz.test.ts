import { expect } from 'chai';
import {
  allOperations,
  createFixtures,
  formatReport,
  fuzzApi,
  loadDocuments,
  type FuzzReport,
} from '../fuzz/index.ts';
import type { Operation } from '../fuzz/operations.ts';
import type { BodyHints, Fixtures } from '../fuzz/requests.ts';
import { startStack, type TestStack } from './support/stack.ts';
import { registerUser } from './support/users.ts';

/**
 * The API fuzzer (e2e/fuzz/, docs/testing.md) in the test suite: a fixed seed and a bounded
 * number of runs (`FUZZ_RUNS`, `FUZZ_SEED` override them; `npm run fuzz` runs it longer).
 */
describe('API fuzzer: every documented operation through the gateway, never a 5xx', () => {
  let stack: TestStack;
  let operations: Operation[];
  let docs: Record<string, unknown>;
  let fixtures: Fixtures;
  let hints: BodyHints;
  let restore: () => Promise<void>;
  let deletable: Fixtures;
  let tokens: { owner: string; stranger: string };

  before(async function () {
    this.timeout(60_000);
    stack = await startStack({
      gatewayEnv: {
        RATE_LIMIT_IP: '100000000',
        RATE_LIMIT_USER: '100000000',
        RATE_LIMIT_LOGIN: '100000000',
        LOGIN_ACCOUNT_FAILURES: '100000000',
      },
    });
    const alice = await registerUser(stack.gatewayUrl, 'Alice Owner');
    const mallory = await registerUser(stack.gatewayUrl, 'Mallory Stranger');
    tokens = { owner: alice.token, stranger: mallory.token };
    docs = await loadDocuments(stack.gatewayUrl);
    operations = allOperations(docs);
    ({
      paths: fixtures,
      hints,
      deletable,
      restore,
    } = await createFixtures(stack.gatewayUrl, alice.token, alice.id, mallory, mallory));
  });
  after(async () => {
    await stack?.stop();
  });

  it('reads every operation of the four documents and has fixtures for their path parameters', () => {
    expect(operations.length).to.be.greaterThan(60);
    const params = new Set(operations.flatMap((o) => [...o.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!)));
    const missing = [...params].filter((p) => !fixtures[p]?.length && !deletable[p]?.length);
    expect(missing, 'path parameters without a fixture').to.deep.equal([]);
  });

  it('answers generated valid and hostile requests without a 5xx, every 4xx a problem document', async function () {
    this.timeout(Number(process.env.FUZZ_TIMEOUT_MS ?? 120_000));
    const report: FuzzReport = await fuzzApi({
      gatewayUrl: stack.gatewayUrl,
      operations,
      docs,
      fixtures,
      hints,
      deletable,
      restore,
      tokens,
      runs: Number(process.env.FUZZ_RUNS ?? 1500),
      seed: Number(process.env.FUZZ_SEED ?? 20_261_124),
      log: (line) => console.log(line),
      progressEvery: Number(process.env.FUZZ_PROGRESS ?? 0),
      ...(process.env.FUZZ_TRACE ? { traceOperation: process.env.FUZZ_TRACE } : {}),
    });
    console.log(formatReport(report, process.env.FUZZ_PER_OPERATION === '1'));
    expect(report.failure, formatReport(report)).to.equal(undefined);
    expect(report.requests).to.be.at.least(report.runs);
  });
});
