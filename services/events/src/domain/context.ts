import type { GroupCommit } from '@fieldhouse/group-commit';
import type { Logger } from '@fieldhouse/logger';
import type { InTransaction } from '@fieldhouse/messaging';
import type { WebhookApiSettings } from '@fieldhouse/webhooks';
import type { CheckedInRow } from '../data/attendance.ts';
import type { GateScanRow, HotGateScan } from '../data/gate-scans.ts';
import type { HotScan } from '../data/scan-batch.ts';
import type { Db } from '../data/tx.ts';
import type { OfflineInvitees } from './offline-invitees.ts';
import type { CodeSigner } from './signed-codes.ts';

/** The events service's dependencies, built once by `createEventsApp` (app.ts); use cases take it. */
export interface EventsContext {
  /** The pool: reads, and writes of one statement (the scanner's full path without nonce). */
  db: Db;
  logger: Logger;
  /**
   * Runs a use case and the outbox messages it adds in one transaction on the `outbox` table,
   * then kicks the outbox relay (`inTransactionWith(db, 'outbox', outboxWritten)`).
   */
  inTransaction: InTransaction;
  /** Base URL of the web console (`PUBLIC_URL`), for the setup URLs of scanner devices. */
  publicUrl: string;
  /** Which webhook URLs are accepted and how long a rotated secret keeps signing (`WEBHOOK_*` settings). */
  webhooks: WebhookApiSettings;
  /** Group commit of the scanner hot path (data/scan-batch.ts): one per app. */
  hotScans: GroupCommit<HotScan, CheckedInRow | undefined>;
  /** Group commit of gate scans without nonce by the owner or staff (data/gate-scans.ts): one per app. */
  gateScans: GroupCommit<HotGateScan, GateScanRow | undefined>;
  /** The invitees of scanners' offline pages, rendered once per version (domain/offline-invitees.ts): one per app. */
  offlineInvitees: OfflineInvitees;
  /** Signs and checks signed invitation codes (`EVENTS_CODE_SIGNING_SECRET`); null when they are off. */
  codeSigner: CodeSigner | null;
}

/**
 * The signed-in actor of a use case, as the gateway's JWT describes them, with the device the
 * request came from (its User-Agent, at most 255 characters), which scans record.
 */
export interface Actor {
  userId: number;
  name: string | null;
  email: string | null;
  userAgent: string | null;
}

/** A scanner device, as its request's credential and the devices table describe it. */
export interface ScannerDevice {
  id: string;
  name: string;
  /** The one event the device works on. */
  eventId: string;
  /** The gate it scans at (docs/events.md, "Gates"); null: the event's implicit entrance. */
  gateId: string | null;
}

/** A scanner device making a request (check-in scope only), with its User-Agent. */
interface DeviceActor {
  device: ScannerDevice;
  userAgent: string | null;
}

/** Who may scan: a signed-in user (owner or staff of the event) or a scanner device of the event. */
export type ScanActor = Actor | DeviceActor;
