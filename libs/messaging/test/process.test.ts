import { spawn } from 'node:child_process';
import { expect } from 'chai';

/** A child process that registers three shutdown steps (the second fails) and waits. */
const script = `
import { createLogger } from '@fieldhouse/logger';
import { stopOnSignals } from '@fieldhouse/messaging';
const logger = createLogger({ service: 'test', level: 'silent' });
stopOnSignals(logger, [
  () => console.log('consumer closed'),
  async () => { throw new Error('broker already gone'); },
  async () => { await new Promise((r) => setTimeout(r, 20)); console.log('pool closed'); },
]);
console.log('ready');
setInterval(() => undefined, 1000);
`;

describe('messaging: stopOnSignals (worker processes)', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`on ${signal} runs every step once, in order, past a failing one, then exits 0`, async () => {
      const child = spawn(process.execPath, ['--conditions=source', '--input-type=module', '-e', script], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      let sent = 0;
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (sent === 0 && out.includes('ready')) {
          sent++;
          child.kill(signal);
        } else if (sent === 1 && out.includes('consumer closed')) {
          // while the last step still runs: a second signal must not run the steps again
          sent++;
          child.kill(signal);
        }
      });
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).to.equal(0);
      expect(sent).to.equal(2);
      expect(out.trim().split('\n')).to.deep.equal(['ready', 'consumer closed', 'pool closed']);
    });
  }
});
