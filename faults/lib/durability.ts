/**
 * The durability checks: what the stores hold for each marker the load sent, read directly from
 * PostgreSQL (submissions, check-ins) and MongoDB (votes), and the poll's results through the
 * API (Redis counters) against the votes in MongoDB.
 */
import { MongoClient, type Db } from 'mongodb';
import { createKnex, type Knex } from '@fieldhouse/db';
import type { Api } from './http.ts';
import { sleep } from '@fieldhouse/testkit';
import type { ScenarioReport } from './report.ts';
import { retryUnacknowledged, Stream, type Attempt, type SteadyLoad } from './load.ts';

/** How many times each marker is stored. */
export type Stored = Map<string, number>;

export class Stores {
  private readonly mongo: MongoClient;
  readonly polls: Db;
  readonly collection: Knex;
  readonly events: Knex;

  private constructor(mongo: MongoClient, polls: Db, collection: Knex, events: Knex) {
    this.mongo = mongo;
    this.polls = polls;
    this.collection = collection;
    this.events = events;
  }

  static async open(o: {
    mongoUrl: string;
    mongoDb: string;
    collectionDb: string;
    eventsDb: string;
  }): Promise<Stores> {
    // A store that hangs fails the check that reads it (after 30 s) instead of the whole run.
    const mongo = await MongoClient.connect(o.mongoUrl, {
      serverSelectionTimeoutMS: 10_000,
      socketTimeoutMS: 30_000,
    });
    return new Stores(
      mongo,
      mongo.db(o.mongoDb),
      createKnex(o.collectionDb, { poolMax: 2 }),
      createKnex(o.eventsDb, { poolMax: 2 }),
    );
  }

  /** Votes of poll `pollId` per `voter_name` (the load's marker). */
  async votes(pollId: string): Promise<Stored> {
    const out: Stored = new Map();
    const docs = this.polls.collection('votes').find({ poll_id: pollId }, { projection: { voter_name: 1 } });
    for await (const d of docs) {
      const name = String(d.voter_name);
      out.set(name, (out.get(name) ?? 0) + 1);
    }
    return out;
  }

  /** Submissions of project `projectId` per marker (the value of their `marker` field). */
  async submissions(projectId: number, fieldUuid: string): Promise<Stored> {
    const rows = await this.collection('submissions').where({ project_id: projectId }).select('data');
    const out: Stored = new Map();
    for (const r of rows as Array<{ data: Array<{ field_uuid: string; value: unknown }> }>) {
      const v = r.data.find((e) => e.field_uuid === fieldUuid)?.value;
      if (typeof v === 'string') out.set(v, (out.get(v) ?? 0) + 1);
    }
    return out;
  }

  /** Check-ins of event `eventId` per nonce (the load's marker), from the attendance log. */
  async checkins(eventId: string): Promise<Stored> {
    const rows = (await this.events('attendance_log')
      .where({ event_id: eventId, action: 'checkin' })
      .whereNotNull('nonce')
      .select('nonce')
      .count({ n: '*' })
      .groupBy('nonce')) as Array<{ nonce: string; n: number | string }>;
    return new Map(rows.map((r) => [r.nonce, Number(r.n)]));
  }

  /** Total votes and votes per option of poll `pollId` in MongoDB. */
  async pollCounts(pollId: string): Promise<{ total: number; options: Record<string, number> }> {
    let total = 0;
    const options: Record<string, number> = {};
    const docs = this.polls.collection('votes').find({ poll_id: pollId }, { projection: { option_ids: 1 } });
    for await (const d of docs) {
      total++;
      for (const o of d.option_ids as string[]) options[o] = (options[o] ?? 0) + 1;
    }
    return { total, options };
  }

  async close(): Promise<void> {
    await Promise.all([this.mongo.close(), this.collection.destroy(), this.events.destroy()]);
  }
}

/** An answer a client cannot act on: none at all (a timeout), or a 5xx other than 503 with `Retry-After`. */
export const isUnactionable = (a: Attempt): boolean =>
  a.status === 0 || (a.status >= 500 && !(a.status === 503 && a.retryAfter));

/**
 * Records one check: no attempt of `stream` got an answer a client cannot act on
 * ({@link isUnactionable}). `context` (answers by status over the fault, the slowest answer...)
 * is printed in the line, with up to four kinds of the bad answers.
 */
export function checkAnswers(report: ScenarioReport, stream: Stream, context: string): boolean {
  const bad = stream.attempts.filter(isUnactionable);
  const samples = [
    ...new Set(bad.map((a) => `${a.status}${a.code ? ` ${a.code}` : ''}${a.error ? ` (${a.error})` : ''}`)),
  ];
  return report.check(
    bad.length === 0,
    `${stream.spec.name}: ${bad.length} answers were a 5xx other than 503+Retry-After or none at all (${context})` +
      (samples.length ? `; e.g. ${samples.slice(0, 4).join(', ')}` : ''),
  );
}

/**
 * Checks one stream: every acknowledged marker stored exactly once, no marker stored twice
 * (acknowledged or not), and every retry (lib/load.ts, `retryUnacknowledged`) acknowledged.
 * Prints `acknowledged / durable / lost / duplicated`, plus the writes stored although their
 * first attempt was not acknowledged (in `beforeRetries`, what the stores held before the
 * retries were sent).
 */
export function checkStream(
  report: ScenarioReport,
  stream: Stream,
  stored: Stored,
  beforeRetries: Stored = stored,
): boolean {
  const acked = new Set(stream.acked());
  const firsts = stream.attempts.filter((a) => !a.retry);
  const retries = stream.attempts.filter((a) => a.retry);
  const sentMarkers = new Set(stream.attempts.map((a) => a.marker));
  let lost = 0;
  let durable = 0;
  for (const m of acked) {
    const n = stored.get(m) ?? 0;
    if (n === 0) lost++;
    else durable++;
  }
  let duplicated = 0;
  for (const [m, n] of stored) if (sentMarkers.has(m) && n > 1) duplicated++;
  const firstAcked = new Set(firsts.filter((a) => a.acked).map((a) => a.marker));
  let unackedStored = 0;
  for (const m of sentMarkers) if (!firstAcked.has(m) && (beforeRetries.get(m) ?? 0) > 0) unackedStored++;
  const retried = new Set(retries.map((a) => a.marker));
  if (retried.size) {
    const refused = retries.filter((a) => !acked.has(a.marker));
    const why = [...new Set(refused.map((a) => `${a.status}${a.code ? ` ${a.code}` : ''}`))].slice(0, 3);
    report.check(
      refused.length === 0,
      `${stream.spec.name.padEnd(11)} retries of unacknowledged writes with the same key: ${retried.size - refused.length} of ${retried.size} acknowledged` +
        (why.length ? ` (refused: ${why.join(', ')})` : ''),
    );
  }
  const lostSamples = [...acked].filter((m) => !stored.get(m)).slice(0, 3);
  return report.check(
    lost === 0 && duplicated === 0,
    `${stream.spec.name.padEnd(11)} sent ${firsts.length}, acknowledged ${acked.size}, durable ${durable}, ` +
      `lost ${lost}, duplicated ${duplicated}, not acknowledged but stored ${unackedStored} ` +
      `(answers ${Stream.statusSummary(firsts)}${retries.length ? `; retries ${Stream.statusSummary(retries)}` : ''})` +
      (lostSamples.length ? `; lost e.g. ${lostSamples.join(', ')}` : ''),
  );
}

/**
 * The poll's results through the API (Redis counters) against MongoDB's votes, retried for up
 * to `settleMs` (a rebuild or a reconciliation may be under way); records one check.
 */
export async function checkPollCounts(
  report: ScenarioReport,
  api: Api,
  stores: Stores,
  pollId: string,
  settleMs: number,
): Promise<boolean> {
  const deadline = performance.now() + settleMs;
  const t0 = performance.now();
  let last: string;
  for (;;) {
    const [res, mongo] = [await api.get(`/api/polls/${pollId}/results`), await stores.pollCounts(pollId)];
    if (res.status === 200) {
      const data = res.body.data as { total_votes: number; results: Record<string, number> };
      const diffs = Object.keys({ ...data.results, ...mongo.options }).filter(
        (o) => (data.results[o] ?? 0) !== (mongo.options[o] ?? 0),
      );
      last = `API total_votes ${data.total_votes}, MongoDB votes ${mongo.total}${diffs.length ? `, ${diffs.length} option counts differ` : ''}`;
      if (data.total_votes === mongo.total && diffs.length === 0)
        return report.check(
          true,
          `poll counts equal: ${last} (after ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
        );
    } else last = `results answered ${res.status} ${res.error ?? ''}`;
    if (performance.now() > deadline) break;
    await sleep(1_000);
  }
  return report.check(false, `poll counts differ after ${settleMs / 1000} s: ${last}`);
}

/**
 * The end of a scenario with the steady load (votes, submissions, check-ins, lib/streams.ts),
 * after `load.stop()`: reads what is stored, sends each unacknowledged write again once with its
 * retry key (as a client would), then checks every stream ({@link checkStream}) and the poll's
 * counters against MongoDB ({@link checkPollCounts}).
 */
export async function checkLoadDurable(
  report: ScenarioReport,
  api: Api,
  stores: Stores,
  load: SteadyLoad,
  where: { pollId: string; projectId: number; fieldUuid: string; eventId: string },
  settleMs: number,
): Promise<void> {
  const stored = () =>
    Promise.all([
      stores.votes(where.pollId),
      stores.submissions(where.projectId, where.fieldUuid),
      stores.checkins(where.eventId),
    ]);
  const before = await stored();
  for (const s of load.streams) report.info(`${s.spec.name}: ${await retryUnacknowledged(s, api)}`);
  const after = await stored();
  ['votes', 'submissions', 'checkins'].forEach((name, i) =>
    checkStream(report, load.stream(name), after[i]!, before[i]!),
  );
  await checkPollCounts(report, api, stores, where.pollId, settleMs);
}
