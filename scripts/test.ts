import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runMocha } from './lib/mocha.ts';
import { runShardedMocha } from './lib/sharded-mocha.ts';

/**
 * `npm test`: provides the backing services (see lib/backing.ts: variables already set win),
 * then runs every test with mocha (`.mocharc.json`), passing on any extra arguments
 * (`npm test -- --grep tokens`). Every spec file runs, split into `TEST_SHARDS` (default 3)
 * concurrent mocha processes of about equal time (lib/sharded-mocha.ts); exits non-zero when
 * any test failed. With `TEST_SHARDS=1`, or arguments that choose the files or the
 * configuration (spec files, globs, `--config`, `--no-config`, `--spec`, `--parallel`), one mocha
 * process runs with exactly those arguments and this exits with its status.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const shards = Number.parseInt(process.env.TEST_SHARDS ?? '3', 10);
const choosesFiles = args.some(
  (a) =>
    ['--config', '--no-config', '--spec', '--parallel', '-p'].includes(a.split('=')[0]!) ||
    (!a.startsWith('-') && (a.endsWith('.ts') || a.includes('*'))),
);
if (shards > 1 && !choosesFiles) await runShardedMocha(root, args, shards);
else await runMocha(root, args);
