import { listFields } from '../data/versions.ts';
import { requireAccess } from './access.ts';
import type { Actor, CollectionContext } from './context.ts';
import { renderXForm, type RenderedXForm } from './xform.ts';

/**
 * The ODK XForm of a version (`GET /api/v1/versions/{id}/xform`, issue 35; docs/collection.md,
 * "XForms"), for whoever may read the version (`project.open`: members, drafts included, and the
 * non-members the project's `collect_access` admits to its published versions), titled with the
 * project's name.
 * @throws ProblemError 404 `Form version not found.` (unknown, or not visible to the caller), 401
 *   anonymous on a form not open to the public.
 */
export async function getVersionXForm(
  ctx: CollectionContext,
  actor: Actor,
  versionId: number,
): Promise<RenderedXForm> {
  const { version, project } = await requireAccess(ctx, { actor, permission: 'project.open', versionId });
  return renderXForm({ title: project.name, version, fields: await listFields(ctx.db, version.id) });
}
