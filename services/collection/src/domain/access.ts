import { findWorkspace, roleIn, type WorkspaceRow } from '../data/workspaces.ts';
import { settingsOf, type ProjectRow } from '../data/projects.ts';
import { findVersion, type VersionRow } from '../data/versions.ts';
import { findAnalysis, type AnalysisRow } from '../data/analyses.ts';
import { findAppUser } from '../data/app-users.ts';
import { findExport, type ExportJobRow } from '../data/exports.ts';
import type { Actor, CollectionContext } from './context.ts';
import { problems, type NOT_FOUND_DETAIL } from './problems.ts';
import { can, type Action, type Role } from './roles.ts';

/**
 * A project as the actor may reach it: its row and the actor's role in its workspace, or a
 * null role for a non-member let in by the project's `collect_access` (public forms).
 */
export interface ProjectAccess {
  project: ProjectRow;
  role: Role | null;
}

/**
 * What an actor may ask of a resource: an action of the permission table (domain/roles.ts,
 * `PERMISSIONS`: action → roles), or `project.open`, reaching a project as a collector does —
 * any member, and the non-members its `collect_access` lets in (spec 2.1: `public`, or
 * `authenticated` for a signed-in actor) to read its published form and submit; or
 * `export.read`, seeing an export job and downloading its file (docs/collection.md, "Exports"):
 * owners, admins and managers every job (`export.view_all`), its requester while their role may
 * still read every submission of the project (`submission.view_all`, what requesting it needed),
 * checked on every call (issue 31).
 */
type Permission = Action | 'project.open' | 'export.read';

/** A UUID a PostgreSQL `uuid` column accepts (any other export id finds nothing). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Which resource {@link requireAccess} checks: a workspace, a project or a form version, by id. */
export type AccessRequest<P extends Permission = Permission> = { actor: Actor; permission: P } & (
  | { workspaceId: number }
  | { projectId: number }
  | { versionId: number }
  | { analysisId: number }
  | { exportId: string }
);

/** What {@link requireAccess} loaded, by resource (the role is null only for `project.open`). */
export type Granted<R extends AccessRequest> = R extends { workspaceId: number }
  ? { workspace: WorkspaceRow; role: Role }
  : R extends { projectId: number }
    ? R['permission'] extends 'project.open'
      ? ProjectAccess
      : { project: ProjectRow; role: Role }
    : R extends { analysisId: number }
      ? { analysis: AnalysisRow; project: ProjectRow; role: Role }
      : R extends { exportId: string }
        ? { job: ExportJobRow; role: Role }
        : {
            version: VersionRow;
            project: ProjectRow;
            role: R['permission'] extends 'project.open' ? Role | null : Role;
          };

/**
 * The signed-in actor's id.
 * @throws ProblemError 401 `unauthenticated` for an anonymous actor.
 */
export function userIdOf(actor: Actor): number {
  if (actor.userId === null) throw problems.unauthenticated();
  return actor.userId;
}

/**
 * Whether a project's published form is open to this actor without membership (spec 2.1
 * publication settings: `collect_access` `public`, or `authenticated` for a signed-in actor).
 */
export function openToNonMembers(project: ProjectRow, actor: Actor): boolean {
  if (!project.is_published) return false;
  // An app user is its project's collector, whatever `collect_access` says (ODK Central's rule).
  if (actor.appUser) return actor.appUser.projectId === project.id;
  const access = settingsOf(project).collect_access;
  return access === 'public' || (access === 'authenticated' && actor.userId !== null);
}

/**
 * The one access check of the collection service, called once by each use case (in the manner
 * of immich's `requireAccess({ auth, permission, ids })`). It loads the resource with the
 * actor's role in its workspace and answers the same way for every resource:
 * - 401 `unauthenticated` for an anonymous actor (for `project.open`, only when the project is
 *   not open to them; for a form version, also when it does not exist);
 * - 404 `not_found` (`Workspace not found.`, `Project not found.`, `Form version not found.`,
 *   `Analysis not found.`, `Export not found.`) when it does not exist or the actor is not a
 *   member (nothing leaks: the actor may not know it exists); a form version read with
 *   `project.open` is also 404 to a non-member while it is a draft, and an export the actor may
 *   not read is 404 too (unknown and forbidden look the same);
 * - 403 `forbidden` naming the role and the action when the role lacks the permission.
 * @returns what it loaded (workspace, or project, or version and its project) and the role.
 */
export async function requireAccess<R extends AccessRequest>(
  ctx: CollectionContext,
  req: R,
): Promise<Granted<R>> {
  if ('workspaceId' in req)
    return (await workspaceAccess(ctx, req.actor, req.workspaceId, req.permission)) as Granted<R>;
  if ('projectId' in req)
    return (await projectAccess(ctx, req.actor, req.projectId, req.permission)) as Granted<R>;
  if ('analysisId' in req)
    return (await analysisAccess(ctx, req.actor, req.analysisId, req.permission)) as Granted<R>;
  if ('exportId' in req) return (await exportAccess(ctx, req.actor, req.exportId)) as Granted<R>;
  return (await versionAccess(ctx, req.actor, req.versionId, req.permission)) as Granted<R>;
}

/** 403 naming what the role may not do. */
const denied = (role: Role, action: Action) => problems.forbidden({ reason: 'role', role, action });

/** Whether a member's role has the permission (`project.open`: any member). */
const allows = (role: Role, permission: Permission) =>
  permission === 'project.open' || (permission !== 'export.read' && can(role, permission));

/** 404 with what was asked for. */
const missing = (resource: keyof typeof NOT_FOUND_DETAIL) => problems.notFound({ resource });

async function workspaceAccess(
  ctx: CollectionContext,
  actor: Actor,
  workspaceId: number,
  permission: Permission,
): Promise<{ workspace: WorkspaceRow; role: Role }> {
  const userId = userIdOf(actor);
  const role = await roleIn(ctx.db, workspaceId, userId);
  const workspace = role ? await findWorkspace(ctx.db, workspaceId) : undefined;
  if (!role || !workspace) throw missing('workspace');
  if (!allows(role, permission)) throw denied(role, permission as Action);
  return { workspace, role };
}

async function projectAccess(
  ctx: CollectionContext,
  actor: Actor,
  projectId: number,
  permission: Permission,
  resource: keyof typeof NOT_FOUND_DETAIL = 'project',
): Promise<ProjectAccess> {
  if (actor.appUser) return appUserAccess(ctx, actor.appUser, projectId, permission, resource);
  if (permission !== 'project.open') userIdOf(actor);
  const found = await ctx.findProjectWithRole(projectId, actor.userId);
  if (!found) throw missing(resource);
  const { project } = found;
  const role = found.role as Role | null;
  if (role) {
    if (!allows(role, permission)) throw denied(role, permission as Action);
    return { project, role };
  }
  if (permission === 'project.open' && openToNonMembers(project, actor)) return { project, role: null };
  if (actor.userId === null) throw problems.unauthenticated();
  throw missing(resource);
}

/**
 * An app user reaches its own project only, with `project.open` only (its published form and
 * submitting to it), and only while it is not revoked: checked here on every request, whatever
 * the gateway cached.
 * @throws ProblemError 401 `app_user_revoked`, 404 another project, 403 any other permission.
 */
async function appUserAccess(
  ctx: CollectionContext,
  appUser: { id: number; projectId: number },
  projectId: number,
  permission: Permission,
  resource: keyof typeof NOT_FOUND_DETAIL,
): Promise<ProjectAccess> {
  if (appUser.projectId !== projectId) throw missing(resource);
  const row = await findAppUser(ctx.db, projectId, appUser.id);
  if (!row || row.revoked_at) throw problems.appUserRevoked();
  if (permission !== 'project.open') throw problems.forbidden({ reason: 'app_user' });
  const found = await ctx.findProjectWithRole(projectId, null);
  if (!found) throw missing(resource);
  return { project: found.project, role: null };
}

async function versionAccess(
  ctx: CollectionContext,
  actor: Actor,
  versionId: number,
  permission: Permission,
): Promise<{ version: VersionRow; project: ProjectRow; role: Role | null }> {
  const version = await findVersion(ctx.db, versionId);
  if (!version) {
    userIdOf(actor);
    throw missing('version');
  }
  const { project, role } = await projectAccess(ctx, actor, version.project_id, permission, 'version');
  if (role === null && version.status !== 'published') throw missing('version');
  return { version, project, role };
}

async function analysisAccess(
  ctx: CollectionContext,
  actor: Actor,
  analysisId: number,
  permission: Permission,
): Promise<{ analysis: AnalysisRow; project: ProjectRow; role: Role | null }> {
  const analysis = await findAnalysis(ctx.db, analysisId);
  if (!analysis) throw missing('analysis');
  const { project, role } = await projectAccess(ctx, actor, analysis.project_id, permission, 'analysis');
  return { analysis, project, role };
}

/**
 * Whether `role` (the actor's role in the job's workspace **now**, undefined when not a member)
 * may see and download the job: `export.read` (see {@link Permission}).
 */
const mayReadExport = (job: Pick<ExportJobRow, 'requested_by'>, userId: number, role: Role | undefined) =>
  !!role &&
  (can(role, 'export.view_all') || (job.requested_by === userId && can(role, 'submission.view_all')));

async function exportAccess(
  ctx: CollectionContext,
  actor: Actor,
  exportId: string,
): Promise<{ job: ExportJobRow; role: Role }> {
  const userId = userIdOf(actor);
  const job = UUID.test(exportId) ? await findExport(ctx.db, exportId) : undefined;
  if (!job) throw missing('export');
  const role = await roleIn(ctx.db, job.workspace_id, userId);
  if (!role || !mayReadExport(job, userId, role)) throw missing('export');
  return { job, role };
}
