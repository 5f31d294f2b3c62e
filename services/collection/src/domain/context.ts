import type { Db, Tx } from '../data/tx.ts';
import type { Logger } from '@fieldhouse/logger';
import type { InTransaction } from '@fieldhouse/messaging';
import type { WebhookApiSettings } from '@fieldhouse/webhooks';
import type { BlobStore } from '../blob/blob-store.ts';
import type { findProjectWithRole } from '../data/projects.ts';
import type { SubmissionWriter } from '../data/submission-batch.ts';

/** What the use cases need (the service's dependencies), built once by createCollectionApp. */
export interface CollectionContext {
  db: Db;
  logger: Logger;
  blobs: BlobStore;
  /** Largest photo accepted, in bytes (413 above). */
  photoMaxBytes: number;
  /** Called after a commit that wrote to the outbox (the relay publishes sooner). */
  outboxWritten: () => void;
  /** Runs a use case and its outbox messages in one transaction (outbox table `outbox`). */
  inTransaction: InTransaction;
  /** Runs reads in one REPEATABLE READ, read-only transaction: what they read agrees (a page and its total). */
  inSnapshot: <T>(work: (tx: Tx) => Promise<T>) => Promise<T>;
  /** Which webhook URLs are accepted and how long a rotated secret keeps signing (`WEBHOOK_*` settings). */
  webhooks: WebhookApiSettings;
  /**
   * The console's public address, for the links in e-mails (`PUBLIC_URL`, no trailing slash;
   * the gateway serves the console).
   */
  publicUrl: string;
  /** Inserts a plain submission, group-committed (data/submission-batch.ts). */
  insertSubmission: SubmissionWriter;
  /** {@link findProjectWithRole}, batched with the lookups arriving meanwhile (data/projects.ts). */
  findProjectWithRole: (projectId: number, userId: number | null) => ReturnType<typeof findProjectWithRole>;
}

/**
 * Who runs a use case: the caller as the gateway's JWT describes it (`req.caller` satisfies it);
 * `userId` is null for an anonymous caller.
 */
export interface Actor {
  userId: number | null;
  /**
   * The app user calling (ODK Collect, Enketo; docs/collection.md, "ODK Collect and Enketo"),
   * with `userId` null: it may read its project's published form and submit to it, nothing else.
   */
  appUser?: { id: number; projectId: number } | null;
}
