import { findSubmission, listHistory, type HistoryRow, type SubmissionRow } from '../data/submissions.ts';
import { listSubmissions as listPage, type ListFilters } from '../data/submission-list.ts';
import { userNames } from '../data/submission-versions.ts';
import { problems } from './problems.ts';
import { can, maySeeSubmission } from './roles.ts';
import { requireAccess, userIdOf } from './access.ts';
import type { Actor, CollectionContext } from './context.ts';
import { parseListFilters } from './list-filters.ts';

export type { HistoryRow, SubmissionRow };

/** The query of a submission list: the page, rows per page (1-100) and the list filters, unchecked. */
export type ListQuery = { page: number; per_page: number } & Record<string, unknown>;

/** Command of {@link listSubmissions}. */
export interface ListSubmissions {
  actor: Actor;
  projectId: number;
  /**
   * Reads the page and the filters (the route parses its query there): called once the actor
   * may see the project, so 401/404 come before any 422 about the query.
   */
  readQuery: () => ListQuery;
}

/**
 * One page of a project's submissions, newest first, with the total (spec 4.1). Members with
 * `submission.view_all` see all; a collector sees only their own (asking for another
 * collector's gives an empty page).
 * @returns the rows of the page, the total, and the page asked for.
 * @throws ProblemError 401 anonymous; 404 for an actor who is not a member (a public form gives
 *   no reading); 422 naming each bad page parameter or filter (`date_to` before `date_from`).
 */
export async function listSubmissions(
  ctx: CollectionContext,
  cmd: ListSubmissions,
): Promise<{ rows: SubmissionRow[]; total: number; page: number; per_page: number }> {
  const userId = userIdOf(cmd.actor);
  const { project, role } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'project.open',
    projectId: cmd.projectId,
  });
  const { page, per_page, ...rawFilters } = cmd.readQuery();
  const filters: ListFilters = parseListFilters(rawFilters, { convert: true });
  if (!role) throw problems.notFound({ resource: 'project' });
  if (!can(role, 'submission.view_all')) {
    if (filters.collector_id !== undefined && filters.collector_id !== userId)
      return { rows: [], total: 0, page, per_page };
    filters.collector_id = userId;
  }
  return {
    ...(await ctx.inSnapshot((tx) => listPage(tx, project.id, filters, page, per_page))),
    page,
    per_page,
  };
}

/** Command of {@link getSubmission}. */
export interface GetSubmission {
  actor: Actor;
  projectId: number;
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
 * @throws ProblemError 401 anonymous; 404 unknown, or not visible to the actor (its collector,
 *   or a role with `submission.view_all`).
 */
export async function getSubmission(
  ctx: CollectionContext,
  cmd: GetSubmission,
): Promise<{ submission: SubmissionRow; history: HistoryRow[]; names: Map<number, string> }> {
  const userId = userIdOf(cmd.actor);
  const { project, role } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'project.open',
    projectId: cmd.projectId,
  });
  const s = await findSubmission(ctx.db, project.id, cmd.submissionId);
  if (!s || !maySeeSubmission(role, s, userId)) throw problems.notFound({ resource: 'submission' });
  const history = await listHistory(ctx.db, s.id);
  return { submission: s, history, names: await namesOf(ctx, s, history) };
}
