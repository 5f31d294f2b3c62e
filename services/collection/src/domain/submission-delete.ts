import { deleteSubmission, findSubmission } from '../data/submissions.ts';
import { problems } from './problems.ts';
import { can, maySeeSubmission } from './roles.ts';
import { requireAccess, userIdOf } from './access.ts';
import type { Actor, CollectionContext } from './context.ts';

/** Command of {@link removeSubmission}: the actor's access to the project, and which submission. */
export interface RemoveSubmission {
  actor: Actor;
  projectId: number;
  submissionId: number;
}

/**
 * `DELETE /projects/{project_id}/submissions/{submission_id}` (docs/collection.md, "Deleting a
 * submission"): deletes it with its status history, photos and sync records, for good; the
 * project's counts and quota follow, and `submission.deleted` webhooks carry it as it was. Roles
 * with `submission.delete` (owner, admin, manager) only; a collector cannot delete, not even
 * their own. Photo bytes are deleted after the commit; one that cannot be is logged and left.
 * @throws ProblemError 401 anonymous; 404 unknown or not visible to the actor; 403 `forbidden` visible but
 *   the role may not delete.
 */
export async function removeSubmission(ctx: CollectionContext, cmd: RemoveSubmission): Promise<void> {
  const { project, role } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'project.open',
    projectId: cmd.projectId,
  });
  const userId = userIdOf(cmd.actor);
  const s = await findSubmission(ctx.db, project.id, cmd.submissionId);
  if (!s || !maySeeSubmission(role, s, userId)) throw problems.notFound({ resource: 'submission' });
  if (!role || !can(role, 'submission.delete')) throw problems.forbidden({ reason: 'delete_submission' });
  const keys = await ctx.inTransaction((tx) => deleteSubmission(tx, project.id, s.id));
  if (!keys) throw problems.notFound({ resource: 'submission' });
  for (const key of keys)
    await ctx.blobs.delete(key).catch((err: unknown) => {
      ctx.logger.warn('could not delete the photo of a deleted submission', { key, err });
    });
}
