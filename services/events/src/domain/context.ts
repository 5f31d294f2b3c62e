import type { Knex } from 'knex';
import type { GroupCommit } from '@fieldhouse/group-commit';
import type { Logger } from '@fieldhouse/logger';
import type { InTransaction } from '@fieldhouse/messaging';
import type { CheckedIn } from '../data/attendance.ts';
import type { HotScan } from '../data/scan-batch.ts';

/** The events service's dependencies, built once by `createEventsApp` (app.ts); use cases take it. */
export interface EventsContext {
  db: Knex;
  logger: Logger;
  /**
   * Runs a use case and the outbox messages it adds in one transaction on the `outbox` table,
   * then kicks the outbox relay (`inTransactionWith(db, 'outbox', outboxWritten)`).
   */
  inTransaction: InTransaction;
  /** Group commit of the scanner hot path (data/scan-batch.ts): one per app. */
  hotScans: GroupCommit<HotScan, CheckedIn | undefined>;
}

/**
 * The signed-in caller of a use case, as the gateway's JWT describes them, with the device the
 * request came from (its User-Agent, at most 255 characters), which scans record.
 */
export interface Actor {
  userId: number;
  name: string | null;
  email: string | null;
  userAgent: string | null;
}
