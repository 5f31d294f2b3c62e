/**
 * `npm run bench:form-logic`: the expression engine of @fieldhouse/form-logic against ODK's own
 * (@getodk/xpath under jsdom), issue 34 "One expression language, one implementation".
 *
 * Workload (workload.ts): 100 expressions evaluated in each of 3 repeats × 10 instances, i.e.
 * 3,000 evaluations for one submission. Prints, for both engines: compile (parse) time per
 * expression, CPU time per submission and per evaluation, whether both give the same answers, and
 * the gzip size of what a browser would load (rolldown, the bundler Vite uses, --minify, then
 * gzip). Then PASS/FAIL against the target: one submission's 3,000 evaluations in under 1 ms of
 * CPU, judged on the best of 50 batches of 20 submissions (the figure least disturbed by other
 * processes on a shared machine; the median and the load average are printed beside it).
 * Exit code 1 on FAIL.
 *
 * Options: BENCH_SKIP_ODK=1 measures only this engine (no npm pack, no jsdom).
 */
import { availableParallelism, loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import type { NodeSet } from '@fieldhouse/form-logic';
import { compile, nodes, type EvaluationContext, type Expression } from '@fieldhouse/form-logic';
import { rolldown } from 'rolldown';
import { odkEntry, startOdk } from './odk.ts';
import {
  expressionsFor,
  fieldNames,
  INSTANCES,
  instanceXml,
  REPEATS,
  REPEAT_FIELDS,
  repeatAnswer,
  TOP_FIELDS,
} from './workload.ts';

const TARGET_MS = 1;
/** Batches of 20 submissions (60,000 evaluations each) measured; the best one is judged. */
const BATCHES = 50;
/** The clock of every evaluation, so that today() gives the same answer in both engines. */
const CLOCK = Date.now();

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const cpuMs = (f: () => void): number => {
  const start = process.cpuUsage();
  f();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

// ---------------------------------------------------------------- this engine
const fields = fieldNames();
const sources = Array.from({ length: REPEATS }, (_, r) => expressionsFor(r + 1));

let compiled: Expression[][] = [];
const compileRuns: number[] = [];
for (let run = 0; run < 20; run++) {
  compileRuns.push(
    cpuMs(() => {
      compiled = sources.map((list) =>
        list.map((e) => {
          const result = compile(e.source, { fields });
          if (!result.ok) throw new Error(`${e.source}: ${result.error.message}`);
          return result.expression;
        }),
      );
    }) /
      (REPEATS * 100),
  );
}

/** The contexts of one submission: one per repeat instance, resolving by the nearest-instance rule. */
function contextsOfSubmission(): EvaluationContext[][] {
  const acrossInstances = new Map<string, NodeSet>();
  for (let r = 1; r <= REPEATS; r++) {
    for (const f of REPEAT_FIELDS) {
      acrossInstances.set(
        `r${r}_${f}`,
        nodes(Array.from({ length: INSTANCES }, (_, i) => repeatAnswer(r, i, f))),
      );
    }
  }
  return Array.from({ length: REPEATS }, (_, r) =>
    Array.from({ length: INSTANCES }, (_, i) => {
      const prefix = `r${r + 1}_`;
      // One lookup per instance: its own answers, then the top-level ones, then other repeats'.
      const answers = new Map<string, string | NodeSet>(acrossInstances);
      for (const [name, value] of Object.entries(TOP_FIELDS)) answers.set(name, value);
      for (const f of REPEAT_FIELDS) answers.set(prefix + f, repeatAnswer(r + 1, i, f));
      return {
        resolve: (name: string) => answers.get(name) ?? '',
        current: repeatAnswer(r + 1, i, 'age'),
        position: i + 1,
        now: CLOCK,
      };
    }),
  );
}

const contexts = contextsOfSubmission();
/** All answers of one submission, as text (compared with ODK's below). */
function answersOfSubmission(): string[] {
  const out: string[] = [];
  for (let r = 0; r < REPEATS; r++) {
    for (const ctx of contexts[r]!) for (const e of compiled[r]!) out.push(e.evaluateText(ctx));
  }
  return out;
}
/** The timed loop: the same 3,000 evaluations to text, keeping only a checksum of their lengths. */
function checkSubmission(): number {
  let checksum = 0;
  for (let r = 0; r < REPEATS; r++) {
    for (const ctx of contexts[r]!) for (const e of compiled[r]!) checksum += e.evaluateText(ctx).length;
  }
  return checksum;
}
const ours = answersOfSubmission();
for (let i = 0; i < 200; i++) checkSubmission();
const evalRuns: number[] = [];
for (let batch = 0; batch < BATCHES; batch++) {
  evalRuns.push(
    cpuMs(() => {
      for (let i = 0; i < 20; i++) checkSubmission();
    }) / 20,
  );
}
const oursSubmissionMs = median(evalRuns);
const oursBestMs = Math.min(...evalRuns);
const evaluations = REPEATS * INSTANCES * 100;

// ---------------------------------------------------------------- bundles
async function gzipBundle(input: string): Promise<{ minified: number; gzip: number }> {
  const bundle = await rolldown({ input, platform: 'browser', external: ['fs', 'path'], logLevel: 'silent' });
  const { output } = await bundle.generate({ format: 'es', minify: true, codeSplitting: false });
  await bundle.close();
  const code = output.map((o) => ('code' in o ? o.code : '')).join('');
  return { minified: Buffer.byteLength(code), gzip: gzipSync(code).length };
}
// The expression engine (compile.ts and what it imports), the counterpart of @getodk/xpath; the
// package's entry also carries the form-level engine built on it, printed below for reference.
const oursBundle = await gzipBundle(
  fileURLToPath(new URL('../../libs/form-logic/src/compile.ts', import.meta.url)),
);
const packageBundle = await gzipBundle(
  fileURLToPath(new URL('../../libs/form-logic/src/index.ts', import.meta.url)),
);

// ---------------------------------------------------------------- ODK
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
const us = (ms: number): string => `${(ms * 1000).toFixed(2)} µs`;

console.log(
  `form-logic bench: ${REPEATS * 100} expressions (100 per repeat), ${REPEATS} repeats × ${INSTANCES} instances = ${evaluations} evaluations per submission`,
);
console.log('');
console.log(
  'engine                  compile/expr   eval/expr   CPU/submission   bundle (min / gzip)    [CPU: best batch]',
);
console.log(
  `@fieldhouse/form-logic  ${us(median(compileRuns)).padEnd(13)}  ${us(oursBestMs / evaluations).padEnd(10)}  ${`${oursBestMs.toFixed(3)} ms`.padEnd(15)}  ${kb(oursBundle.minified)} / ${kb(oursBundle.gzip)}`,
);

console.log(
  `  (the whole package, with the form-level engine: ${kb(packageBundle.minified)} / ${kb(packageBundle.gzip)})`,
);

if (process.env.BENCH_SKIP_ODK !== '1') {
  const odk = await startOdk(instanceXml());
  const contextNodes = Array.from({ length: REPEATS }, (_, r) =>
    Array.from(
      { length: INSTANCES },
      (_, i) => odk.document.getElementsByTagName(`r${r + 1}`)[i]!.getElementsByTagName('age')[0]!,
    ),
  );
  const odkCheck = (): string[] => {
    const out: string[] = [];
    for (let r = 0; r < REPEATS; r++) {
      for (const contextNode of contextNodes[r]!) {
        for (const e of sources[r]!) out.push(odk.evaluator.evaluateString(e.xpath, { contextNode }));
      }
    }
    return out;
  };
  // First evaluation of each expression parses it (ODK caches parses); measure with a cold cache.
  odk.clearCache();
  const odkFirst = cpuMs(() => {
    for (let r = 0; r < REPEATS; r++) {
      for (const e of sources[r]!)
        odk.evaluator.evaluateString(e.xpath, { contextNode: contextNodes[r]![0]! });
    }
  });
  const odkCached = cpuMs(() => {
    for (let r = 0; r < REPEATS; r++) {
      for (const e of sources[r]!)
        odk.evaluator.evaluateString(e.xpath, { contextNode: contextNodes[r]![0]! });
    }
  });
  const odkCompile = (odkFirst - odkCached) / (REPEATS * 100);
  const theirs = odkCheck();
  const odkRuns: number[] = [];
  for (let run = 0; run < 5; run++) odkRuns.push(cpuMs(odkCheck));
  const odkSubmissionMs = Math.min(...odkRuns);
  const odkBundle = await gzipBundle(odkEntry);
  console.log(
    `@getodk/xpath 0.11.0    ${us(odkCompile).padEnd(13)}  ${us(odkSubmissionMs / evaluations).padEnd(10)}  ${`${odkSubmissionMs.toFixed(3)} ms`.padEnd(15)}  ${kb(odkBundle.minified)} / ${kb(odkBundle.gzip)}`,
  );
  const differing = ours.map((v, i) => [v, theirs[i]] as const).filter(([a, b]) => a !== b);
  console.log('');
  console.log(`same answers as ODK: ${ours.length - differing.length}/${ours.length}`);
  const seen = new Set<string>();
  for (let i = 0; i < ours.length && seen.size < 5; i++) {
    if (ours[i] === theirs[i]) continue;
    const e = sources[Math.floor(i / (INSTANCES * 100))]![i % 100]!;
    if (seen.has(e.source)) continue;
    seen.add(e.source);
    console.log(`  differs: ${e.source}  ours=${JSON.stringify(ours[i])} odk=${JSON.stringify(theirs[i])}`);
  }
  console.log(
    `speed-up: evaluation ×${(odkSubmissionMs / oursBestMs).toFixed(0)}, compile ×${(odkCompile / median(compileRuns)).toFixed(0)}; bundle ${(odkBundle.gzip / oursBundle.gzip).toFixed(0)}× smaller`,
  );
}

console.log('');
// Judged on the best batch: on a shared machine the slower batches measure the other processes
// (as Python's timeit documents for its minimum); the median and the load are printed beside it.
const pass = oursBestMs < TARGET_MS;
console.log(
  `${pass ? 'PASS' : 'FAIL'}: ${evaluations} evaluations (100 expressions × ${REPEATS * INSTANCES} repeat instances) in ${oursBestMs.toFixed(3)} ms of CPU, best of ${BATCHES} batches of 20 submissions (median ${oursSubmissionMs.toFixed(3)} ms, load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} CPUs; target: under ${TARGET_MS} ms)`,
);
process.exitCode = pass ? 0 : 1;
