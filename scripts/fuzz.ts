import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runMocha } from './lib/mocha.ts';

/**
 * `npm run fuzz [-- --runs N --seed S]`: the API fuzzer (e2e/test/fuzz.test.ts) for longer
 * than `npm test` runs it: 5000 runs by default and a new seed each time (printed, with the
 * counts and any counterexample, so a failure replays with `--seed`). `FUZZ_RUNS` and
 * `FUZZ_SEED` work too. Provides the backing services as `npm test` does.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: { runs: { type: 'string' }, seed: { type: 'string' } },
});
const runs = values.runs ?? process.env.FUZZ_RUNS ?? '5000';
const seed = values.seed ?? process.env.FUZZ_SEED ?? String(Date.now() % 2 ** 31);
console.log(`npm run fuzz: ${runs} runs, seed ${seed}`);
await runMocha(root, ['--grep', 'API fuzzer'], {
  FUZZ_RUNS: runs,
  FUZZ_SEED: seed,
  FUZZ_PROGRESS: process.env.FUZZ_PROGRESS ?? '500',
  FUZZ_TIMEOUT_MS: '0',
  FUZZ_PER_OPERATION: '1',
});
