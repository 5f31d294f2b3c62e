/**
 * The events of `npm run bench:webhooks`: invites inserted with SQL, one multi-row INSERT per
 * batch in a transaction of its own, so that the `invites_webhooks` trigger (migration
 * 004-webhooks) writes one `webhook.invite.created` message per invite into the outbox in the
 * same transaction, the real path of every write. The rows of a batch go round-robin over the
 * events (row g to event g mod n), so each subscription gets an equal, interleaved share.
 *
 * Each invite's `nom` is `b<batch>.<row>`; the receiver reads it back from the delivered body,
 * which ties each delivery to the commit time of its batch ({@link InviteProducer.committedAt}:
 * when the INSERT's answer reached the bench, just after the commit).
 */
import type { Knex } from '@fieldhouse/db';
import { sleep } from '../lib/child.ts';
import { nowMs } from './common.ts';

/** What one phase of inserts did. */
export interface ProducedPhase {
  /** Batch numbers of the phase: [first, last). */
  batches: [number, number];
  events: number;
  /** When the first INSERT was sent ({@link nowMs}). */
  startedAt: number;
  /** From the first INSERT sent to the last commit, ms. */
  elapsedMs: number;
  /** The most a batch was sent after its due time (paced phase), ms. */
  maxLagMs: number;
}

export class InviteProducer {
  private readonly db: Knex;
  private readonly eventIds: string;
  private readonly events: number;
  /** Commit time of each batch ({@link nowMs}), by batch number. */
  readonly committedAt: number[] = [];
  /** Rows of each batch, by batch number. */
  readonly rows: number[] = [];

  constructor(db: Knex, eventIds: string[]) {
    this.db = db;
    this.eventIds = `{${eventIds.join(',')}}`;
    this.events = eventIds.length;
  }

  /** Inserts one batch of `rows` invites in one statement (one transaction); resolves with its number. */
  private async insert(rows: number): Promise<number> {
    const batch = this.committedAt.length;
    this.committedAt.push(NaN);
    this.rows.push(rows);
    await this.db.raw(
      `INSERT INTO invites (id, event_id, nom, email, type_invite, code_unique)
       SELECT gen_random_uuid(), (?::uuid[])[1 + g % ?], ? || g, ? || g || '@bench.test', 'standard', ? || g
       FROM generate_series(0, ? - 1) g`,
      [this.eventIds, this.events, `b${batch}.`, `guest${batch}.`, `WB${batch}X`, rows],
    );
    this.committedAt[batch] = nowMs();
    return batch;
  }

  /**
   * Inserts `total` invites at `ratePerS`: a batch of `batchRows` every `batchRows / ratePerS`
   * seconds, on a fixed schedule (a late batch does not push the next ones back).
   */
  async paced(total: number, ratePerS: number, batchRows: number): Promise<ProducedPhase> {
    const first = this.committedAt.length;
    const intervalMs = (1000 * batchRows) / ratePerS;
    const start = nowMs();
    let maxLagMs = 0;
    for (let done = 0, k = 0; done < total; k++) {
      const wait = start + k * intervalMs - nowMs();
      if (wait > 0) await sleep(wait);
      else maxLagMs = Math.max(maxLagMs, -wait);
      const rows = Math.min(batchRows, total - done);
      await this.insert(rows);
      done += rows;
    }
    return this.phase(first, total, start, maxLagMs);
  }

  /** Inserts `total` invites in batches of `batchRows`, one after the other, as fast as PostgreSQL takes them. */
  async flatOut(total: number, batchRows: number): Promise<ProducedPhase> {
    const first = this.committedAt.length;
    const start = nowMs();
    for (let done = 0; done < total; done += batchRows) await this.insert(Math.min(batchRows, total - done));
    return this.phase(first, total, start, 0);
  }

  private phase(first: number, events: number, start: number, maxLagMs: number): ProducedPhase {
    const last = this.committedAt.length;
    return {
      batches: [first, last],
      events,
      startedAt: start,
      elapsedMs: this.committedAt[last - 1]! - start,
      maxLagMs,
    };
  }
}

/** The batch number in a delivered invite's `nom` (`b<batch>.<row>`), or undefined. */
export const batchOf = (nom: string): number | undefined => {
  const m = /^b(\d+)\./.exec(nom);
  return m ? Number(m[1]) : undefined;
};
