import type { Db } from '../data/tx.ts';
import type { Logger } from '@fieldhouse/logger';
import type { InTransaction } from '@fieldhouse/messaging';
import type { BlobStore } from '../blob/blob-store.ts';
import type { ProjectRow, ProjectWithRole } from '../data/projects.ts';
import type { SubmissionWriter } from '../data/submission-batch.ts';
import type { HistoryRow, SubmissionRow } from '../data/submissions.ts';
import type { Role } from './roles.ts';

export type { HistoryRow, ProjectRow, SubmissionRow };

/**
 * What the submission use cases need from the service context (the collection context has all
 * of it): the database, the photo store and its limit, the outbox-bound transaction, the
 * group-committed insert and the batched project lookup.
 */
export interface SubmissionDeps {
  db: Db;
  logger: Logger;
  blobs: BlobStore;
  /** Largest photo accepted, in bytes (413 above). */
  photoMaxBytes: number;
  /** Runs a use case and its outbox messages in one transaction (`inTransactionWith(db, 'outbox', kick)`). */
  inTransaction: InTransaction;
  /** Inserts a plain submission, group-committed (data/submission-batch.ts). */
  insertSubmission: SubmissionWriter;
  /** The console's public address (`PUBLIC_URL`, no trailing slash): links in e-mails. */
  publicUrl: string;
  /** The project with the caller's role in its workspace (null: not a member), batched. */
  findProjectWithRole: (projectId: number, userId: number | null) => Promise<ProjectWithRole | undefined>;
}

/** Who calls: the signed-in user's id, or null for an anonymous caller of a public form. */
export interface Caller {
  userId: number | null;
}

/**
 * A project as the caller may reach it: its row and the caller's role in its workspace, or a
 * null role for a non-member let in by the project's `collect_access` (public forms).
 */
export interface ProjectAccess {
  project: ProjectRow;
  role: Role | null;
}
