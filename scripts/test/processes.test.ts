import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { eventually, sleep } from '@fieldhouse/testkit';
import { startNode, Supervisor, type Managed, type RestartPolicy } from '../lib/processes.ts';

/** Whether a process with this pid still exists. */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('scripts: process supervisor of the local stack (real child processes)', function () {
  // Liveness limits of seconds (below): a test may take a few of them on a loaded machine.
  this.timeout(60_000);
  let dir: string;
  const supervisors: Supervisor[] = [];
  const script = (name: string, body: string) => {
    const file = join(dir, name);
    writeFileSync(file, body);
    return file;
  };

  /** A supervisor of `file`, recording every child it starts and every line it logs. */
  const supervise = (file: string, policy: RestartPolicy) => {
    const children: Managed[] = [];
    const lines: string[] = [];
    const s = new Supervisor(
      'child',
      () => {
        const m = startNode('child', file, {}, dir);
        children.push(m);
        return m;
      },
      { ...policy, log: (line) => lines.push(line) },
    );
    supervisors.push(s);
    return { s, children, lines };
  };

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'fieldhouse-supervisor-'));
  });
  after(async () => {
    await Promise.all(supervisors.map((s) => s.stop(1_000)));
    rmSync(dir, { recursive: true, force: true });
  });

  it('restarts a crashing child with a doubling delay up to the cap, logging each restart', async () => {
    const crash = script('crash.mjs', 'process.exit(3);\n');
    const { s, children, lines } = supervise(crash, {
      initialDelayMs: 20,
      maxDelayMs: 80,
      stableAfterMs: 60_000,
    });
    await eventually(async () => s.restarts.length >= 5);
    await s.stop();
    expect(s.restarts.slice(0, 5).map((r) => r.delayMs)).to.deep.equal([20, 40, 80, 80, 80]);
    expect(s.restarts.every((r) => r.status.code === 3 && r.status.signal === null)).to.equal(true);
    expect(new Set(children.map((c) => c.child.pid)).size).to.equal(children.length);
    expect(children.length).to.be.at.least(5);
    expect(lines[0]).to.match(/^child exited with code 3 after [\d.]+ s; restart #1 in 20 ms$/);
    expect(lines[2]).to.contain('restart #3 in 80 ms');
  });

  it('restarts a child killed by a signal, and resets the delay after it stayed up', async () => {
    const server = script('server.mjs', 'setInterval(() => undefined, 1000);\n');
    const { s, children, lines } = supervise(server, {
      initialDelayMs: 20,
      maxDelayMs: 1_000,
      stableAfterMs: 60_000,
    });
    await eventually(async () => children[0]!.child.pid !== undefined);
    children[0]!.child.kill('SIGKILL');
    await eventually(async () => children.length === 2);
    expect(s.restarts[0]).to.deep.include({ attempt: 1, delayMs: 20 });
    expect(s.restarts[0]!.status).to.deep.equal({ code: null, signal: 'SIGKILL' });
    expect(lines[0]).to.contain('child exited with signal SIGKILL');
    expect(alive(children[1]!.child.pid!)).to.equal(true);
    children[1]!.child.kill('SIGKILL');
    await eventually(async () => children.length === 3);
    expect(s.restarts[1]!.delayMs).to.equal(40);
    await s.stop();

    // A child that ran longer than stableAfterMs before it died restarts after the initial delay.
    const slow = script('slow-crash.mjs', 'setTimeout(() => process.exit(1), 300);\n');
    const stable = supervise(slow, { initialDelayMs: 20, maxDelayMs: 1_000, stableAfterMs: 200 });
    await eventually(async () => stable.s.restarts.length >= 3);
    await stable.s.stop();
    expect(stable.s.restarts.slice(0, 3).map((r) => r.delayMs)).to.deep.equal([20, 20, 20]);
  });

  it('stop() stops for good: the child is gone and nothing is started again', async () => {
    const server = script('server2.mjs', 'setInterval(() => undefined, 1000);\n');
    const { s, children } = supervise(server, { initialDelayMs: 20, maxDelayMs: 40 });
    await eventually(async () => children[0]!.child.pid !== undefined);
    const pid = children[0]!.child.pid!;
    await s.stop();
    expect(s.isStopped).to.equal(true);
    expect(children[0]!.child.signalCode).to.equal('SIGTERM');
    expect(alive(pid)).to.equal(false);
    await sleep(200); // several times the longest restart delay
    expect(children).to.have.length(1);
    expect(s.restarts).to.have.length(0);
  });

  it('stop() during the wait before a restart cancels the restart', async () => {
    const crash = script('crash2.mjs', 'process.exit(1);\n');
    const { s, children } = supervise(crash, { initialDelayMs: 100, maxDelayMs: 100 });
    await eventually(async () => s.restarts.length === 1);
    await s.stop();
    await sleep(300); // three times the pending delay
    expect(children).to.have.length(1);
    expect(s.restarts).to.have.length(1);
  });

  it('kills and restarts a child that runs but stops answering its liveness probe, logging why', async () => {
    // Serves /healthz on a free port (written to a file); SIGUSR2 hangs its event loop for good.
    const portFile = join(dir, 'hang-port');
    const hang = script(
      'hang.mjs',
      `import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';
const server = createServer((req, res) => res.end('ok'));
server.listen(0, '127.0.0.1', () => writeFileSync(${JSON.stringify(portFile)}, String(server.address().port)));
process.on('SIGUSR2', () => { for (;;) {} });
`,
    );
    const { readFileSync, existsSync, rmSync: rm } = await import('node:fs');
    const healthUrl = () =>
      existsSync(portFile) ? `http://127.0.0.1:${readFileSync(portFile, 'utf8')}/healthz` : undefined;
    const { s, children, lines } = supervise(hang, {
      initialDelayMs: 20,
      maxDelayMs: 40,
      // Limits a loaded machine's slowest healthy answer stays far below (a hung child never
      // answers, whatever the limit).
      liveness: {
        what: 'GET /healthz',
        intervalMs: 100,
        timeoutMs: 1_000,
        unresponsiveAfterMs: 2_000,
        probe: async () => {
          const url = healthUrl();
          if (!url) throw new Error('no port yet');
          const res = await fetch(url, { signal: AbortSignal.timeout(1_000) });
          await res.text();
        },
      },
    });
    await eventually(async () => healthUrl() !== undefined && children.length === 1);
    await sleep(2_500); // healthy past unresponsiveAfterMs: not touched
    expect(s.restarts).to.have.length(0);
    rm(portFile);
    children[0]!.child.kill('SIGUSR2');
    await eventually(async () => children.length === 2 && healthUrl() !== undefined, 30_000);
    expect(s.restarts).to.have.length(1);
    expect(s.restarts[0]!.status).to.deep.equal({ code: null, signal: 'SIGKILL' });
    expect(s.restarts[0]!.killedBecause).to.match(/^GET \/healthz failed for [\d.]+ s \(last: /);
    expect(lines.some((l) => /child is running but unresponsive: GET \/healthz failed/.test(l))).to.equal(
      true,
    );
    expect(lines.some((l) => /child was killed as unresponsive \(signal SIGKILL\)/.test(l))).to.equal(true);
    expect(alive(children[1]!.child.pid!)).to.equal(true);
    await sleep(2_500); // the new child answers: it is left alone
    expect(s.restarts).to.have.length(1);
    await s.stop();
  });

  it('gives a child startupMs to pass its first probe, then kills one that never does', async () => {
    const silent = script('silent.mjs', 'setInterval(() => undefined, 1000);\n');
    let probes = 0;
    const { s, children, lines } = supervise(silent, {
      initialDelayMs: 20,
      maxDelayMs: 40,
      liveness: {
        what: 'GET /healthz',
        intervalMs: 50,
        timeoutMs: 50,
        unresponsiveAfterMs: 100,
        // Well past the 5 probes and the 300 ms below, however late a loaded machine's timers are.
        startupMs: 3_000,
        probe: async () => {
          probes++;
          throw new Error('connection refused');
        },
      },
    });
    await eventually(async () => probes >= 5);
    // Failing for longer than unresponsiveAfterMs, but no probe ever passed: still starting.
    await sleep(300);
    expect(s.restarts).to.have.length(0);
    await eventually(async () => s.restarts.length === 1, 20_000);
    expect(s.restarts[0]!.killedBecause).to.match(/^GET \/healthz never passed since the start for [\d.]+ s/);
    expect(lines.some((l) => l.includes('child is running but unresponsive'))).to.equal(true);
    await eventually(async () => children.length === 2);
    await s.stop();
  });
});
