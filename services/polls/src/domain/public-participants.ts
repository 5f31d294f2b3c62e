import { defineCounter } from '@fieldhouse/http';

/**
 * The list of participants others than the owner see (docs/polls.md, "Participants shown to
 * voters"), kept per poll in this process: domain/participants.ts builds its rows.
 */

/** How many participants the shared list holds: the newest ones (a meeting poll has tens). */
export const PUBLIC_PARTICIPANTS_MAX = 1000;

/**
 * How far (ms) before the newest listed vote a refresh reads again. A vote's `created_at` is
 * taken just before its insert, so a vote can land after a newer one by the time its insert
 * takes (a vote's p99 is tens to hundreds of ms under load), or by the clock skew of two
 * replicas (NTP keeps it to milliseconds): both well below this. Each vote in this overlap is
 * read again by every refresh, so it is kept short.
 */
const REFRESH_OVERLAP_MS = 3_000;

/**
 * One of the newest votes: its id and time (to merge and order refreshes) and its row, or null
 * for a vote whose voter was not told it would be listed (kept for the bookkeeping, never shown).
 */
export interface ListedVote<Row> {
  _id: string;
  created_at: string;
  row: Row | null;
}

/**
 * Reads the poll's newest counted votes, newest first (`created_at`, then id, descending), at
 * most {@link PUBLIC_PARTICIPANTS_MAX}: the newest of all when `since` is null, else of those
 * counted at or after `since` (ISO time).
 */
export type LoadVotes<Row> = (since: string | null) => Promise<ListedVote<Row>[]>;

/** A stored vote as far as ordering goes. */
interface Timed {
  _id: string;
  created_at: string;
}

/** Newest first: `created_at`, then id, both descending (the store's order). */
const newestFirstOf = (a: Timed, b: Timed) =>
  a.created_at === b.created_at ? (a._id < b._id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1;

/**
 * The `max` newest of `votes` (any order in), newest first, holding at most `2 × max` at a time:
 * what {@link LoadVotes} needs from an unsorted read of the store.
 */
export async function newestOf<V extends Timed>(votes: AsyncIterable<V>, max: number): Promise<V[]> {
  let kept: V[] = [];
  for await (const v of votes) {
    kept.push(v);
    if (kept.length >= 2 * max) kept = kept.sort(newestFirstOf).slice(0, max);
  }
  return kept.sort(newestFirstOf).slice(0, max);
}

/**
 * Where a full load may start (ISO time), from the counters' votes per UTC hour (`hours`: hour
 * `YYYY-MM-DDTHH:00:00Z` to count): the start of the latest hour such that it and the hours after
 * it hold at least `max` votes; null (every vote) when the poll has fewer. Votes before it cannot
 * be among the newest `max`.
 */
export function fullLoadSince(hours: Record<string, number>, max: number): string | null {
  let held = 0;
  for (const hour of Object.keys(hours).sort().reverse()) {
    held += hours[hour] ?? 0;
    if (held >= max) return `${hour.slice(0, 19)}.000Z`;
  }
  return null;
}

const reads = defineCounter(
  'polls_participants_reads_total',
  "Reads of a poll's shared participants list by source: cache, stale (the last list, while a refresh runs or pauses), joined (the first load in flight) or loaded.",
  ['source'],
);
const loads = defineCounter(
  'polls_participants_loads_total',
  "Loads of a poll's shared participants list from the store: full (every vote) or recent (a refresh).",
  ['kind'],
);

/** One poll's shared list, as last loaded. */
interface Loaded<Row> {
  /** The counted votes (counters' `total`) when the load began. */
  total: number;
  /** When the load began (epoch ms). */
  at: number;
  /** Newest first, at most {@link PUBLIC_PARTICIPANTS_MAX}. */
  votes: ListedVote<Row>[];
  /** The rows of those that have one, in the same order (what readers get; shared, read-only). */
  rows: Row[];
  /**
   * How many counted votes this list accounts for: those of the load that read the poll whole
   * (at least the counted total then), plus every vote each refresh found for the first time. A
   * refresh that leaves it below the counted total missed a vote.
   */
  seen: number;
  /** No refresh starts before this (epoch ms): the refresh duty ({@link PublicParticipantsCache}). */
  nextRefreshAt: number;
}

/**
 * How long (ms) the reader who starts a refresh waits for it before taking the last list: a
 * small poll's refresh takes milliseconds, so its reader sees their own vote; a large poll's on
 * FerretDB takes seconds, which no reader waits for.
 */
const REFRESH_WAIT_MS = 250;

/** Resolves with undefined after `ms`, without keeping the process alive. */
const after = (ms: number) => new Promise<undefined>((resolve) => setTimeout(resolve, ms, undefined).unref());

/**
 * The shared participants lists of this process, one per poll, so that what a list costs the
 * store grows neither with its readers nor with the poll's size.
 *
 * A reader gets, in this order:
 * 1. the list loaded for the same counted total, or loaded at most `maxStaleMs` before (the bound
 *    of the results' freshness, `RESULTS_MAX_STALE_MS`);
 * 2. while a refresh is in flight, or before the next may start (`refreshDuty`), the last
 *    list loaded;
 * 3. else a refresh starts, and the reader waits for it up to {@link REFRESH_WAIT_MS}, then takes
 *    the last list; the refresh goes on for the next readers. A failed refresh keeps the last list (the
 *    next reader after the pause retries).
 *
 * The first load of a poll has no list to fall back on: its readers wait for it, and a failure
 * reaches them. At most one load per poll is in flight in a process, and at most `maxPolls`
 * lists are kept (the oldest is dropped first).
 *
 * Only the first load reads every vote that can be among the newest (`load(null)`). A refresh
 * reads the votes counted since {@link REFRESH_OVERLAP_MS} before the newest listed one and
 * merges them in; when the list then accounts for fewer votes than the counters count
 * ({@link Loaded.seen}), a vote was missed and the list is read whole again.
 */
export class PublicParticipantsCache<Row> {
  private readonly loaded = new Map<string, Loaded<Row>>();
  private readonly inFlight = new Map<string, Promise<Loaded<Row>>>();
  private readonly maxStaleMs: number;
  private readonly refreshDuty: number;
  private readonly maxPolls: number;

  /**
   * `maxStaleMs`: `RESULTS_MAX_STALE_MS` (domain/context.ts). `refreshDuty`: a refresh starts at
   * least this many times the last load's duration after that load ended, so the store spends at
   * most 1 / (1 + refreshDuty) of its time loading one poll's list (FerretDB does not push a time
   * range down to PostgreSQL, so there a refresh reads the whole poll: seconds at 30,000 votes;
   * on MongoDB the index bounds it to milliseconds). `maxPolls`: lists kept (at most
   * `maxPolls × PUBLIC_PARTICIPANTS_MAX` rows in memory: about 60 MB at 300 bytes a row).
   */
  constructor(maxStaleMs = 250, refreshDuty = 4, maxPolls = 200) {
    this.maxStaleMs = maxStaleMs;
    this.refreshDuty = refreshDuty;
    this.maxPolls = maxPolls;
  }

  /**
   * The poll's shared list (rows newest first) for a reader who saw `total` counted votes at
   * `now` (epoch ms); `load` reads votes when needed.
   * @throws what `load` threw, on a poll's first load only.
   */
  async rows(pollId: string, total: number, load: LoadVotes<Row>, now = Date.now()): Promise<Row[]> {
    const last = this.loaded.get(pollId);
    if (last && (last.total === total || now - last.at <= this.maxStaleMs)) {
      reads.inc({ source: 'cache' });
      return last.rows;
    }
    const running = this.inFlight.get(pollId);
    if (last && (running || now < last.nextRefreshAt)) {
      reads.inc({ source: 'stale' });
      return last.rows;
    }
    if (running) {
      reads.inc({ source: 'joined' });
      return (await running).rows;
    }
    reads.inc({ source: 'loaded' });
    const loading = this.load(pollId, last, total, load, now);
    if (!last) return (await loading).rows;
    return ((await Promise.race([loading, after(REFRESH_WAIT_MS)])) ?? last).rows;
  }

  /**
   * Loads the list (the first load, or a refresh of `last`) and keeps it; resolves with it, or
   * with `last` when a refresh failed (it stays, and the next refresh waits the pause). A first
   * load's failure rejects.
   */
  private load(
    pollId: string,
    last: Loaded<Row> | undefined,
    total: number,
    load: LoadVotes<Row>,
    at: number,
  ): Promise<Loaded<Row>> {
    const started = Date.now();
    const pause = () => (Date.now() - started) * this.refreshDuty;
    const loading = this.refresh(last, total, load).then(
      ({ votes, seen }) => {
        const list: Loaded<Row> = {
          total,
          at,
          votes,
          rows: votes.flatMap((v) => (v.row === null ? [] : [v.row])),
          seen,
          nextRefreshAt: Date.now() + pause(),
        };
        this.inFlight.delete(pollId);
        this.loaded.delete(pollId);
        this.loaded.set(pollId, list);
        if (this.loaded.size > this.maxPolls) this.loaded.delete(this.loaded.keys().next().value!);
        return list;
      },
      (err: unknown) => {
        this.inFlight.delete(pollId);
        if (!last) throw err;
        last.nextRefreshAt = Date.now() + pause();
        return last;
      },
    );
    this.inFlight.set(pollId, loading);
    // A refresh nobody waits for any more must not end as an unhandled rejection.
    loading.catch(() => undefined);
    return loading;
  }

  /**
   * The list after `last`: the recent votes merged in, or the poll read whole (the first load,
   * or when the merge accounts for fewer votes than the counters count: one was missed).
   */
  private async refresh(
    last: Loaded<Row> | undefined,
    total: number,
    load: LoadVotes<Row>,
  ): Promise<{ votes: ListedVote<Row>[]; seen: number }> {
    const whole = async () => {
      loads.inc({ kind: 'full' });
      const votes = await load(null);
      return { votes, seen: Math.max(total, votes.length) };
    };
    const newest = last?.votes[0];
    if (!newest) return whole();
    loads.inc({ kind: 'recent' });
    const since = new Date(Date.parse(newest.created_at) - REFRESH_OVERLAP_MS).toISOString();
    const recent = await load(since);
    const known = new Set(last.votes.map((v) => v._id));
    const found = recent.filter((v) => !known.has(v._id));
    const seen = last.seen + found.length;
    if (seen < total) return whole();
    const merged = [...found, ...last.votes].sort(newestFirstOf).slice(0, PUBLIC_PARTICIPANTS_MAX);
    return { votes: merged, seen };
  }
}
