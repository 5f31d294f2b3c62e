import { expect } from 'chai';
import { FairQueue } from '../src/fair-queue.ts';

/** A task that notes its start, then waits until `release` is called for it. */
function gate(log: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return {
    task: async () => {
      log.push(name);
      await done;
      return name;
    },
    release: () => release(),
  };
}

describe('FairQueue: tasks at most n at a time, taking turns between keys', () => {
  it('serves the keys in turn, not the oldest task overall', async () => {
    const log: string[] = [];
    const q = new FairQueue(1);
    const gates = new Map<string, ReturnType<typeof gate>>();
    const results: Array<Promise<string>> = [];
    const add = (key: string, name: string) => {
      const g = gate(log, name);
      gates.set(name, g);
      results.push(q.run(key, g.task));
    };
    // One key's burst of five, then another key's one task, then a third key's.
    for (let i = 1; i <= 5; i++) add('flood', `f${i}`);
    add('other', 'o1');
    add('third', 't1');
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).to.deep.equal(['f1']);
    expect(q.waiting).to.equal(6);
    const finish = async (name: string) => {
      gates.get(name)!.release();
      await new Promise((resolve) => setImmediate(resolve));
    };
    for (const name of ['f1', 'f2', 'o1', 't1', 'f3', 'f4', 'f5']) await finish(name);
    // f1 ran first; then the flood's line had moved behind the others that were waiting.
    expect(log).to.deep.equal(['f1', 'f2', 'o1', 't1', 'f3', 'f4', 'f5']);
    expect(await Promise.all(results)).to.deep.equal(['f1', 'f2', 'f3', 'f4', 'f5', 'o1', 't1']);
    expect(q.waiting).to.equal(0);
  });

  it('runs up to its concurrency at once, and a task that throws frees its place', async () => {
    const log: string[] = [];
    const q = new FairQueue(2);
    const a = gate(log, 'a');
    const b = gate(log, 'b');
    const failing = q.run('x', async () => {
      log.push('boom');
      throw new Error('boom');
    });
    const ra = q.run('x', a.task);
    const rb = q.run('y', b.task);
    expect(
      await failing.then(
        () => 'resolved',
        (e: Error) => e.message,
      ),
    ).to.equal('boom');
    // The failed task's place went to the next in turn: both others run at once.
    expect(log).to.deep.equal(['boom', 'a', 'b']);
    a.release();
    b.release();
    expect(await Promise.all([ra, rb])).to.deep.equal(['a', 'b']);
  });

  it('refuses a concurrency below one', () => {
    expect(() => new FairQueue(0)).to.throw(RangeError);
  });
});
