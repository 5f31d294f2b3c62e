import { existsSync, globSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One mocha process of a sharded `npm test`: its number (1-based) and its spec files. */
export interface Shard {
  index: number;
  files: string[];
  /** The sum of the files' expected durations (ms), from {@link DURATIONS_FILE}. */
  expectedMs: number;
}

/**
 * The measured duration of each spec file (ms, wall-clock in a sharded run, hooks included),
 * relative to the repository root: the weights shards are balanced by. `npm test` writes a
 * fresh measurement to `.local/test-durations.json` after every sharded run; copy it here
 * when files were added or became much slower or faster.
 */
const DURATIONS_FILE = join('scripts', 'test-durations.json');

/** Every spec file `.mocharc.json` names (its `spec` globs, in their order, each sorted), relative to `root`. */
export function specFiles(root: string): string[] {
  const config = JSON.parse(readFileSync(join(root, '.mocharc.json'), 'utf8')) as { spec: string[] };
  const seen = new Set<string>();
  for (const pattern of config.spec)
    for (const file of globSync(pattern, { cwd: root }).sort())
      if (!file.includes('node_modules')) seen.add(file);
  return [...seen];
}

/** The recorded durations (ms) by file, from {@link DURATIONS_FILE} ({} when it is missing). */
export function recordedDurations(root: string): Record<string, number> {
  const path = join(root, DURATIONS_FILE);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, number>) : {};
}

/**
 * Splits `files` into `count` shards of about equal expected time: longest first, each to the
 * shard with the least expected time so far (LPT). A file without a recorded duration weighs the
 * median of the recorded ones (5 s when none). Each shard keeps the files' original order, and
 * no shard is empty unless there are fewer files than shards (those are dropped).
 */
export function planShards(files: string[], durations: Record<string, number>, count: number): Shard[] {
  const known = Object.values(durations).sort((a, b) => a - b);
  const fallback = known.length ? known[Math.floor(known.length / 2)]! : 5_000;
  const weight = (f: string) => durations[f] ?? fallback;
  const shards: Shard[] = Array.from({ length: count }, (_, i) => ({
    index: i + 1,
    files: [],
    expectedMs: 0,
  }));
  for (const file of [...files].sort((a, b) => weight(b) - weight(a))) {
    const lightest = shards.reduce((a, b) => (b.expectedMs < a.expectedMs ? b : a));
    lightest.files.push(file);
    lightest.expectedMs += weight(file);
  }
  const order = new Map(files.map((f, i) => [f, i]));
  for (const s of shards) s.files.sort((a, b) => order.get(a)! - order.get(b)!);
  return shards.filter((s) => s.files.length > 0);
}
