/**
 * Runs tasks at most `concurrency` at a time, taking turns between keys (round robin): each
 * key has its own line, and when a place frees up it goes to the next line in turn, not to the
 * oldest task overall. So a key with a thousand tasks waiting delays another key's next task by
 * at most one task of each key ahead of it in the turn, never by its whole backlog
 * (docs/webhooks.md, "Isolation": one owner's burst of events must not hold up another's).
 */
export class FairQueue {
  private readonly concurrency: number;
  /** The waiting tasks' starts, per key; the map's order is the turn (a served key moves to the end). */
  private readonly lines = new Map<string, Array<() => void>>();
  private running = 0;

  /** @param concurrency most tasks running at once, ≥ 1 */
  constructor(concurrency: number) {
    if (!(concurrency >= 1)) throw new RangeError('a fair queue runs at least one task at a time');
    this.concurrency = concurrency;
  }

  /** Tasks waiting for a place (all keys). */
  get waiting(): number {
    let n = 0;
    for (const line of this.lines.values()) n += line.length;
    return n;
  }

  /**
   * Runs `task` once its key's turn comes and a place is free; resolves or rejects as it does.
   * A task that throws frees its place like one that resolves.
   */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const started = new Promise<void>((start) => {
      const line = this.lines.get(key);
      if (line) line.push(start);
      else this.lines.set(key, [start]);
    });
    this.pump();
    return started.then(task).finally(() => {
      this.running--;
      this.pump();
    });
  }

  /** Starts the next task of each line in turn while places are free. */
  private pump(): void {
    while (this.running < this.concurrency) {
      const first = this.lines.entries().next();
      if (first.done) return;
      const [key, line] = first.value;
      const start = line.shift()!;
      // The served line goes to the end of the turn (or away when it is empty).
      this.lines.delete(key);
      if (line.length) this.lines.set(key, line);
      this.running++;
      start();
    }
  }
}
