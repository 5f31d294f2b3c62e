import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { provideBackingServices } from './backing.ts';

/**
 * Provides the backing services (lib/backing.ts: variables already set win), then runs mocha
 * (`.mocharc.json`) with `args` and `env` added to this process's environment, forwarding
 * SIGINT/SIGTERM; stops what it started and exits with mocha's status. `npm test` and
 * `npm run fuzz` run through it.
 */
export async function runMocha(
  root: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<never> {
  const backing = await provideBackingServices(root, { s3: true });
  const mocha = spawn(join(root, 'node_modules', '.bin', 'mocha'), args, {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      ...env,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --conditions=source`.trim(),
    },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => mocha.kill(signal));
  return new Promise<never>(() =>
    mocha.on('exit', (code, signal) => {
      void backing.stop().finally(() => process.exit(code ?? (signal ? 1 : 0)));
    }),
  );
}
