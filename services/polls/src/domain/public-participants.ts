import { defineCounter } from '@fieldhouse/http';

/**
 * The list of participants others than the owner see (docs/polls.md, "Participants shown to
 * voters"), kept per poll in this process: domain/participants.ts builds its rows.
 */

/** How many participants the shared list holds: the newest ones (a meeting poll has tens). */
export const PUBLIC_PARTICIPANTS_MAX = 1000;

const reads = defineCounter(
  'polls_participants_reads_total',
  "Reads of a poll's shared participants list by source: cache, joined (a load in flight) or loaded.",
  ['source'],
);

/** One poll's shared list, as last loaded. */
interface Loaded<Row> {
  /** The counted votes (counters' `total`) when the load began. */
  total: number;
  /** When the load began (epoch ms). */
  at: number;
  rows: Row[];
}

/**
 * The shared participants lists of this process, one per poll, so that what a list costs the
 * store does not grow with its readers (FerretDB sorts a poll's votes in memory: seconds at
 * 20,000 votes). A reader gets the list loaded for the same counted total; else the last list
 * loaded if its load began at most `maxStaleMs` before (the bound of the results' freshness,
 * `RESULTS_MAX_STALE_MS`); else joins the load in flight; else loads. At most one load per poll is
 * in flight in a process, and at most `maxPolls` lists are kept (the oldest is dropped first).
 */
export class PublicParticipantsCache<Row> {
  private readonly loaded = new Map<string, Loaded<Row>>();
  private readonly inFlight = new Map<string, Promise<Row[]>>();

  private readonly maxStaleMs: number;
  private readonly maxPolls: number;

  /** `maxStaleMs`: `RESULTS_MAX_STALE_MS` (domain/context.ts); `maxPolls`: lists kept. */
  constructor(maxStaleMs = 250, maxPolls = 1000) {
    this.maxStaleMs = maxStaleMs;
    this.maxPolls = maxPolls;
  }

  /**
   * The poll's shared list for a reader who saw `total` counted votes at `now` (epoch ms);
   * `load` reads the newest rows (newest first) when needed. A failed load is not kept.
   */
  rows(pollId: string, total: number, load: () => Promise<Row[]>, now = Date.now()): Promise<Row[]> {
    const last = this.loaded.get(pollId);
    if (last && (last.total === total || now - last.at <= this.maxStaleMs)) {
      reads.inc({ source: 'cache' });
      return Promise.resolve(last.rows);
    }
    const running = this.inFlight.get(pollId);
    if (running) {
      reads.inc({ source: 'joined' });
      return running;
    }
    reads.inc({ source: 'loaded' });
    const loading = load().then(
      (rows) => {
        this.inFlight.delete(pollId);
        this.loaded.delete(pollId);
        this.loaded.set(pollId, { total, at: now, rows });
        if (this.loaded.size > this.maxPolls) this.loaded.delete(this.loaded.keys().next().value!);
        return rows;
      },
      (err: unknown) => {
        this.inFlight.delete(pollId);
        throw err;
      },
    );
    this.inFlight.set(pollId, loading);
    return loading;
  }
}
