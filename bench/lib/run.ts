/**
 * The life of a bench process: clean-up steps registered as things are created, run once in
 * reverse order at the end, on failure or on SIGINT/SIGTERM (which also stops the load in
 * progress); failures of a step are reported and the others still run.
 */
import { cleanUp, onCleanup } from '../../scripts/lib/cleanup.ts';
import { stopLoad } from './load.ts';

export { onCleanup };

/**
 * Runs a bench's `main`, then cleans up and exits: 130 on a signal, 1 when `main` threw (its
 * message printed), else `process.exitCode` (0 unless the bench set it).
 */
export async function runBench(main: () => Promise<void>): Promise<never> {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping`);
      stopLoad();
      void cleanUp().finally(() => process.exit(130));
    });
  }
  let failed = false;
  try {
    await main();
  } catch (err) {
    console.error(`\nbench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    failed = true;
  } finally {
    await cleanUp();
  }
  process.exit(failed ? 1 : (process.exitCode ?? 0));
}
