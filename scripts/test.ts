import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runMocha } from './lib/mocha.ts';

/**
 * `npm test`: provides the backing services (see lib/backing.ts: variables already set win),
 * then runs every test with mocha (`.mocharc.json`), passing on any extra arguments
 * (`npm test -- --grep tokens`). Exits with mocha's status.
 */
await runMocha(join(dirname(fileURLToPath(import.meta.url)), '..'), process.argv.slice(2));
