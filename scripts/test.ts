import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { provideBackingServices } from './lib/backing.ts';

/**
 * `npm test`: provides the backing services (see lib/backing.ts: variables already set win),
 * then runs every test with mocha (`.mocharc.json`), passing on any extra arguments
 * (`npm test -- --grep tokens`). Exits with mocha's status.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { started } = await provideBackingServices(root);
const stopAll = () => started.forEach((c) => c.kill('SIGTERM'));
const mocha = spawn(join(root, 'node_modules', '.bin', 'mocha'), process.argv.slice(2), {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --conditions=source`.trim() },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => mocha.kill(signal));
mocha.on('exit', (code, signal) => {
  stopAll();
  process.exit(code ?? (signal ? 1 : 0));
});
