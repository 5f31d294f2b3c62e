import fc from 'fast-check';
import { DocumentConformance, violation } from './checks.ts';
import { operationsOf, type Operation } from './operations.ts';
import {
  requestArbitrary,
  type BodyHints,
  type Caller,
  type Fixtures,
  type FuzzRequest,
} from './requests.ts';
import { send } from './send.ts';

export { createFixtures } from './fixtures.ts';
export { operationsOf } from './operations.ts';

/** The components whose documents the gateway serves under `/docs/<name>.json`. */
const COMPONENTS = ['gateway', 'collection', 'polls', 'events'] as const;

/** The OpenAPI document of each component, as the gateway serves them under `/docs/<name>.json`. */
export async function loadDocuments(gatewayUrl: string): Promise<Record<string, unknown>> {
  const docs: Record<string, unknown> = {};
  for (const name of COMPONENTS) {
    const res = await fetch(new URL(`/docs/${name}.json`, gatewayUrl));
    if (!res.ok) throw new Error(`/docs/${name}.json answered ${res.status}`);
    docs[name] = await res.json();
  }
  return docs;
}

/** Every operation of every document (see {@link loadDocuments}). */
export const allOperations = (docs: Record<string, unknown>): Operation[] =>
  Object.entries(docs).flatMap(([name, doc]) => operationsOf(name, doc));

/** Operations that would sign the fuzzer's own users out: sent only anonymously or with a forged token. */
const SIGNS_OUT = (op: Operation) =>
  op.path === '/api/v1/logout' || (op.method === 'delete' && op.path.startsWith('/api/v1/tokens/'));

export interface FuzzOptions {
  gatewayUrl: string;
  operations: Operation[];
  /**
   * The documents: when given, every answer must also keep its operation's promises (status and
   * content type declared, JSON body passing the declared schema); a broken one fails the property.
   */
  docs?: Record<string, unknown>;
  fixtures: Fixtures;
  /** Known-good body values by property name (see fixtures.ts). */
  hints?: BodyHints;
  /** Spare ids by path parameter name, the only valid ones a DELETE gets (see fixtures.ts). */
  deletable?: Fixtures;
  /** Bearer tokens of the fixtures' owner and of a user who owns nothing. */
  tokens: { owner: string; stranger: string };
  runs: number;
  seed: number;
  /** Progress lines (a summary every `progressEvery` requests); default silent. */
  log?: (line: string) => void;
  progressEvery?: number;
  /** Called every `restoreEvery` (default 100) requests to put the fixtures back in shape. */
  restore?: () => Promise<void>;
  restoreEvery?: number;
  /** Log every request and answer of this operation (`POST /api/polls`), to see why it fails. */
  traceOperation?: string;
}

export interface FuzzReport {
  seed: number;
  runs: number;
  /** Requests sent, shrinking included. */
  requests: number;
  operations: number;
  /** Answers by HTTP status. */
  statuses: Record<number, number>;
  /** Answers by operation (`POST /api/polls`) and status: which ones the generator gets past validation. */
  byOperation: Record<string, Record<number, number>>;
  /** Answers checked against their operation's document (all but those to normalised paths). */
  checked: number;
  /** Set when the property failed: the smallest failing request fast-check found, and why. */
  failure?: { request: FuzzRequest; reason: string; message: string };
}

/**
 * Property-based fuzzing of the whole API through the gateway (fast-check, seeded): each run
 * picks a documented operation and sends it a generated request (valid and hostile paths,
 * queries and bodies; see requests.ts and hostile.ts) as one of four callers. Property: the
 * answer is never a 5xx (nor a hang), every 4xx is an RFC 9457 problem document, and every
 * answer keeps its operation's promises: status, content type and body as declared (checks.ts). Resolves with counts and, on failure, the shrunk counterexample; it never throws for a
 * violation, so the caller decides how to report.
 */
export async function fuzzApi(opts: FuzzOptions): Promise<FuzzReport> {
  const base = new URL(opts.gatewayUrl);
  const tokens: Record<Caller, string | undefined> = {
    owner: opts.tokens.owner,
    stranger: opts.tokens.stranger,
    anonymous: undefined,
    forged: undefined, // its Authorization header comes with the request (hostile.ts)
  };
  const statuses: Record<number, number> = {};
  const byOperation: Record<string, Record<number, number>> = {};
  let checked = 0;
  const conformance = opts.docs ? new DocumentConformance(opts.docs) : undefined;
  const byName = new Map(opts.operations.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op]));
  let requests = 0;
  const arbitraries = opts.operations.map((op) =>
    SIGNS_OUT(op)
      ? requestArbitrary(op, opts.fixtures, opts.hints, opts.deletable).map((r) => ({
          ...r,
          caller: r.caller === 'owner' || r.caller === 'stranger' ? ('anonymous' as const) : r.caller,
        }))
      : requestArbitrary(op, opts.fixtures, opts.hints, opts.deletable),
  );
  const property = fc.asyncProperty(fc.oneof(...arbitraries), async (req) => {
    if (opts.restore && requests > 0 && requests % (opts.restoreEvery ?? 100) === 0) await opts.restore();
    const res = await send(base, req, tokens);
    requests++;
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    const mine = (byOperation[req.operation] ??= {});
    mine[res.status] = (mine[res.status] ?? 0) + 1;
    if (opts.log && opts.progressEvery && requests % opts.progressEvery === 0)
      opts.log(`  ${requests} requests, statuses ${JSON.stringify(statuses)}`);
    if (opts.log && opts.traceOperation === req.operation)
      opts.log(
        `  trace ${JSON.stringify(req).slice(0, 600)}\n    -> ${res.status} ${res.body.slice(0, 400)}`,
      );
    const wrong = violation(res, req.method);
    if (wrong) throw new Error(wrong);
    const op = byName.get(req.operation);
    // (a path with dot or empty segments is another operation once normalised: `/api/polls/..`
    // and `/api/polls/` list polls)
    const normalised = /\/(\.|%2e){0,2}(\/|$|\?)/i.test(req.url);
    if (conformance && op && !normalised && req.method === op.method.toUpperCase()) {
      checked++;
      const differs = conformance.check(
        op.component,
        op.method,
        op.path,
        res.status,
        res.contentType,
        res.body,
      );
      if (differs) throw new Error(`${differs} (${req.url.slice(0, 160)})`);
    }
  });
  const details = await fc.check(property, { seed: opts.seed, numRuns: opts.runs });
  const report: FuzzReport = {
    seed: opts.seed,
    runs: details.numRuns,
    requests,
    operations: opts.operations.length,
    statuses,
    byOperation,
    checked,
  };
  if (details.failed && details.counterexample) {
    const [request] = details.counterexample;
    const error = details.errorInstance;
    report.failure = {
      request: {
        ...request,
        ...(request.body ? { body: { ...request.body, raw: request.body.raw.slice(0, 2000) } } : {}),
      },
      reason: error instanceof Error ? error.message : String(error),
      message: fc.defaultReportMessage(details) ?? 'failed',
    };
  }
  return report;
}

/** One line per figure, for the test log and `npm run fuzz` (`perOperation`: one more line per operation). */
export function formatReport(r: FuzzReport, perOperation = false): string {
  const lines = [
    `API fuzzer: seed ${r.seed}, ${r.runs} runs over ${r.operations} operations, ${r.requests} requests`,
    `  statuses: ${JSON.stringify(r.statuses)}`,
  ];
  if (perOperation)
    for (const [op, counts] of Object.entries(r.byOperation).sort())
      lines.push(`    ${op.padEnd(64)} ${JSON.stringify(counts)}`);
  lines.push(`  answers checked against their OpenAPI operation: ${r.checked}`);
  if (r.failure)
    lines.push(
      `  COUNTEREXAMPLE (${r.failure.reason}):`,
      `  ${JSON.stringify(r.failure.request)}`,
      `  replay with: npm run fuzz -- --seed ${r.seed} --runs ${r.runs}`,
    );
  else lines.push('  no 5xx, every 4xx a problem document, every checked answer as its document declares');
  return lines.join('\n');
}
