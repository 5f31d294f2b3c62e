import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import Mocha from 'mocha';

/**
 * Mocha's `spec` reporter that also measures each spec file: the wall-clock time (ms) from the
 * start of its first top-level suite to the end of its last, hooks included (a stack started in
 * `before` counts). At the end it writes `{ "<file relative to cwd>": ms }` as JSON to the file
 * named by `TEST_DURATIONS_FILE` (nothing when unset). `npm test`'s shards run with it
 * (lib/shards.ts) to balance the next runs and print the slowest files.
 */
class ShardReporter extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options: Mocha.MochaOptions) {
    super(runner, options);
    const durations: Record<string, number> = {};
    const started = new Map<Mocha.Suite, number>();
    const topLevel = (suite: Mocha.Suite) => !!suite.file && !!suite.parent?.root;
    runner.on('suite', (suite) => {
      if (topLevel(suite)) started.set(suite, performance.now());
    });
    runner.on('suite end', (suite) => {
      const at = started.get(suite);
      if (at === undefined || !suite.file) return;
      const file = relative(process.cwd(), suite.file);
      durations[file] = Math.round((durations[file] ?? 0) + performance.now() - at);
    });
    runner.once('end', () => {
      const out = process.env.TEST_DURATIONS_FILE;
      if (out) writeFileSync(out, `${JSON.stringify(durations, null, 2)}\n`);
    });
  }
}

// Mocha loads reporters with require(): this is what require() of this ES module returns.
export { ShardReporter as 'module.exports' };
