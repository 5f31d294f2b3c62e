import { findSubmission, listHistory, type HistoryRow, type SubmissionRow } from '../data/submissions.ts';
import { listSubmissions as listPage, type ListFilters } from '../data/submission-list.ts';
import { userNames } from '../data/submission-versions.ts';
import { problems } from './problems.ts';
import { can, maySeeSubmission } from './roles.ts';
import type { ProjectAccess } from './access.ts';
import type { CollectionContext } from './context.ts';

export type { HistoryRow, ListFilters, SubmissionRow };

/** Command of {@link listSubmissions}. */
export interface ListSubmissions {
  access: ProjectAccess;
  /** The signed-in caller. */
  userId: number;
  filters: ListFilters;
  /** Page number from 1, and rows per page (1-100). */
  page: number;
  perPage: number;
}

/**
 * One page of a project's submissions, newest first, with the total (spec 4.1). Members with
 * `submission.view_all` see all; a collector sees only their own (asking for another
 * collector's gives an empty page).
 * @throws ProblemError 404 for a caller who is not a member (a public form gives no reading).
 */
export async function listSubmissions(
  ctx: Pick<CollectionContext, 'db'>,
  cmd: ListSubmissions,
): Promise<{ rows: SubmissionRow[]; total: number }> {
  const { project, role } = cmd.access;
  if (!role) throw problems.notFound({ resource: 'project' });
  const filters = { ...cmd.filters };
  if (!can(role, 'submission.view_all')) {
    if (filters.collector_id !== undefined && filters.collector_id !== cmd.userId)
      return { rows: [], total: 0 };
    filters.collector_id = cmd.userId;
  }
  return listPage(ctx.db, project.id, filters, cmd.page, cmd.perPage);
}

/** Command of {@link getSubmission}. */
export interface GetSubmission {
  access: ProjectAccess;
  /** The signed-in caller. */
  userId: number;
  submissionId: number;
}

/**
 * The names of the people a submission's detail names (its collector, the authors of its status
 * changes), by user id, from the users projection; ids unknown to the service are left out.
 */
export const namesOf = (
  ctx: Pick<CollectionContext, 'db'>,
  s: SubmissionRow,
  history: HistoryRow[],
): Promise<Map<number, string>> => userNames(ctx.db, [s.collector_id, ...history.map((h) => h.user_id)]);

/**
 * A submission with its status history (oldest first) and the names of the people they name
 * ({@link namesOf}).
 * @throws ProblemError 404 unknown, or not visible to the caller (its collector, or a role
 *   with `submission.view_all`).
 */
export async function getSubmission(
  ctx: Pick<CollectionContext, 'db'>,
  cmd: GetSubmission,
): Promise<{ submission: SubmissionRow; history: HistoryRow[]; names: Map<number, string> }> {
  const { project, role } = cmd.access;
  const s = await findSubmission(ctx.db, project.id, cmd.submissionId);
  if (!s || !maySeeSubmission(role, s, cmd.userId)) throw problems.notFound({ resource: 'submission' });
  const history = await listHistory(ctx.db, s.id);
  return { submission: s, history, names: await namesOf(ctx, s, history) };
}
