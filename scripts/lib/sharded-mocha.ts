import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ensureConsoleBuilt } from '@fieldhouse/console/ensure-built';
import { provideBackingServices } from './backing.ts';
import { planShards, recordedDurations, specFiles, type Shard } from './shards.ts';

/** What one shard's mocha process ended with. */
interface ShardResult {
  shard: Shard;
  code: number;
  ms: number;
  /** Its stdout from mocha's summary (`N passing`) on: counts and failures; its last 60 lines when it has none. */
  epilogue: string[];
  /** Per-file durations (ms) its reporter measured. */
  durations: Record<string, number>;
}

const minutes = (ms: number) =>
  `${Math.floor(ms / 60_000)}m ${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}s`;

/**
 * `npm test` in `count` concurrent mocha processes (shards) sharing one set of backing services:
 * provides them (lib/backing.ts) while building the console once when browser tests are among
 * the files (so no two shards build it over each other), splits `.mocharc.json`'s spec files
 * into shards of about equal recorded time (lib/shards.ts), and runs each with `.mocharc.json`'s
 * settings, the spec reporter plus per-file durations (lib/shard-reporter.ts) and `args`
 * (`--grep tokens`...). Every line a shard prints is prefixed `[i/n]`; at the end it prints each
 * shard's counts, wall-clock time and failures, and the 20 slowest files, and writes the
 * measured durations to `.local/test-durations.json`. Exits 0 when every shard passed, else 1.
 * The tests isolate themselves (fresh databases, random RabbitMQ prefixes and Redis keys, port
 * 0), so shards need nothing else of their own.
 */
export async function runShardedMocha(root: string, args: string[], count: number): Promise<never> {
  const files = specFiles(root);
  const [backing] = await Promise.all([
    provideBackingServices(root, { s3: true }),
    files.some((f) => f.startsWith('e2e/browser/')) ? ensureConsoleBuilt() : undefined,
  ]);
  const shards = planShards(files, recordedDurations(root), count);
  const config = JSON.parse(readFileSync(join(root, '.mocharc.json'), 'utf8')) as Record<string, unknown>;
  const tmp = mkdtempSync(join(tmpdir(), 'fieldhouse-shards-'));
  const children = new Set<ReturnType<typeof spawn>>();
  // A test process may handle the signal itself and keep running: 10 s later it is killed.
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, () => {
      for (const c of children) {
        c.kill(signal);
        setTimeout(() => c.kill('SIGKILL'), 10_000).unref();
      }
    });
  const n = shards.length;
  console.log(
    `npm test: ${files.length} spec files in ${n} shards (expected ${shards.map((s) => minutes(s.expectedMs)).join(', ')})`,
  );
  const started = performance.now();
  const results = await Promise.all(
    shards.map(async (shard): Promise<ShardResult> => {
      const prefix = `[${shard.index}/${n}] `;
      const configFile = join(tmp, `mocharc-${shard.index}.json`);
      const durationsFile = join(tmp, `durations-${shard.index}.json`);
      writeFileSync(
        configFile,
        JSON.stringify({
          ...config,
          spec: shard.files,
          reporter: join(root, 'scripts/lib/shard-reporter.ts'),
        }),
      );
      const t0 = performance.now();
      const child = spawn(join(root, 'node_modules', '.bin', 'mocha'), ['--config', configFile, ...args], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          TEST_SHARD: `${shard.index}/${n}`,
          TEST_DURATIONS_FILE: durationsFile,
          NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --conditions=source`.trim(),
        },
      });
      children.add(child);
      const lines: string[] = [];
      const forward = (stream: NodeJS.ReadableStream, out: NodeJS.WriteStream, keep: boolean) =>
        new Promise<void>((resolve) => {
          const rl = createInterface({ input: stream, crlfDelay: Infinity });
          rl.on('line', (line) => {
            out.write(`${prefix}${line}\n`);
            if (keep) lines.push(line);
          });
          rl.on('close', resolve);
        });
      const [code] = await Promise.all([
        new Promise<number>((resolve) => child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)))),
        forward(child.stdout!, process.stdout, true),
        forward(child.stderr!, process.stderr, false),
      ]);
      children.delete(child);
      const summaryAt = lines.findLastIndex((l) => /^\s+\d+ passing \(/.test(l));
      return {
        shard,
        code,
        ms: performance.now() - t0,
        epilogue: summaryAt >= 0 ? lines.slice(summaryAt) : lines.slice(-60),
        durations: existsSync(durationsFile)
          ? (JSON.parse(readFileSync(durationsFile, 'utf8')) as Record<string, number>)
          : {},
      };
    }),
  );
  await backing.stop();
  rmSync(tmp, { recursive: true, force: true });

  const durations = Object.assign({}, ...results.map((r) => r.durations)) as Record<string, number>;
  mkdirSync(join(root, '.local'), { recursive: true });
  writeFileSync(
    join(root, '.local', 'test-durations.json'),
    `${JSON.stringify(sorted(durations), null, 2)}\n`,
  );
  console.log(
    `\n== npm test: the 20 slowest spec files (all ${Object.keys(durations).length} in .local/test-durations.json)`,
  );
  for (const [file, ms] of Object.entries(durations)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 20))
    console.log(`${(ms / 1000).toFixed(1).padStart(7)} s  ${file}`);
  console.log(`\n== npm test: ${n} shards, ${minutes(performance.now() - started)} wall-clock`);
  for (const r of results) {
    const counts = r.epilogue
      .filter((l) => /^\s+\d+ (passing|pending|failing)/.test(l))
      .map((l) => l.trim())
      .join(', ');
    console.log(
      `shard ${r.shard.index}/${n}: ${r.code === 0 ? 'passed' : `FAILED (exit ${r.code})`}, ${counts || 'no summary'}; ` +
        `${minutes(r.ms)} for ${r.shard.files.length} files (expected ${minutes(r.shard.expectedMs)})`,
    );
  }
  for (const r of results.filter((x) => x.code !== 0)) {
    console.log(`\n== failures of shard ${r.shard.index}/${n} (files: ${r.shard.files.join(' ')})`);
    console.log(r.epilogue.join('\n'));
  }
  process.exit(results.every((r) => r.code === 0) ? 0 : 1);
}

/** `durations` with its keys in alphabetical order (a stable file to diff). */
function sorted(durations: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)));
}
