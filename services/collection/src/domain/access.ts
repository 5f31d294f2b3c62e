import { isProblem } from '@fieldhouse/problem';
import type { NOT_FOUND_DETAIL } from './problems.ts';
import { problems } from './problems.ts';
import { can, type Action, type Role } from './roles.ts';
import { findWorkspace, roleIn, type WorkspaceRow } from '../data/workspaces.ts';
import { settingsOf, type ProjectRow } from '../data/projects.ts';
import { findVersion, type VersionRow } from '../data/versions.ts';
import type { Actor, CollectionContext } from './context.ts';

/**
 * A project as the actor may reach it: its row and the actor's role in its workspace, or a
 * null role for a non-member let in by the project's `collect_access` (public forms).
 */
export interface ProjectAccess {
  project: ProjectRow;
  role: Role | null;
}

/**
 * The signed-in caller's id.
 * @throws ProblemError 401 for anonymous callers.
 */
export function userIdOf(caller: Actor): number {
  const id = caller.userId;
  if (id === null) throw problems.unauthenticated();
  return id;
}

/** 403 naming what the role may not do. */
const denied = (role: Role, action: Action) => problems.forbidden({ reason: 'role', role, action });

/** Runs `work`, turning its 404 into a 404 with `detail` (the thing asked for is what is "not found"). */
export async function renamingNotFound<T>(
  resource: keyof typeof NOT_FOUND_DETAIL,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw isProblem(err, problems.notFound) ? problems.notFound({ resource }) : err;
  }
}

/**
 * Loads a workspace for a member allowed to perform `action` (roles: domain/roles.ts).
 * @throws 401 anonymous, 404 unknown or not a member (nothing leaks), 403 role lacks the action.
 */
export async function workspaceFor(
  ctx: CollectionContext,
  caller: Actor,
  workspaceId: number,
  action: Action,
): Promise<{ workspace: WorkspaceRow; role: Role }> {
  const userId = userIdOf(caller);
  const role = await roleIn(ctx.db, workspaceId, userId);
  const workspace = role ? await findWorkspace(ctx.db, workspaceId) : undefined;
  if (!role || !workspace) throw problems.notFound({ resource: 'workspace' });
  if (!can(role, action)) throw denied(role, action);
  return { workspace, role };
}

/**
 * Whether a project's published form is open to this caller without membership (spec 2.1
 * publication settings: `collect_access` `public`, or `authenticated` for a signed-in caller).
 */
export function openToNonMembers(project: ProjectRow, caller: Actor): boolean {
  if (!project.is_published) return false;
  const access = settingsOf(project).collect_access;
  return access === 'public' || (access === 'authenticated' && caller.userId !== null);
}

/**
 * Loads a project for a member allowed to perform `action`.
 * @throws 401 anonymous, 404 unknown or not a member, 403 role lacks the action.
 */
export async function projectFor(
  ctx: CollectionContext,
  caller: Actor,
  projectId: number,
  action: Action,
): Promise<{ project: ProjectRow; role: Role }> {
  const userId = userIdOf(caller);
  const found = await ctx.findProjectWithRole(projectId, userId);
  const role = found?.role as Role | null | undefined;
  if (!found || !role) throw problems.notFound({ resource: 'project' });
  if (!can(role, action)) throw denied(role, action);
  return { project: found.project, role };
}

/**
 * The caller's role for a project, or null for a non-member allowed in by a public or
 * authenticated `collect_access` (read the published form, submit).
 * @throws 404 when neither member nor allowed in; 401 when anonymous and not public.
 */
export async function projectForCollector(
  ctx: CollectionContext,
  caller: Actor,
  projectId: number,
): Promise<{ project: ProjectRow; role: Role | null }> {
  const userId = caller.userId;
  const found = await ctx.findProjectWithRole(projectId, userId);
  if (!found) throw problems.notFound({ resource: 'project' });
  const { project } = found;
  const role = found.role as Role | null;
  if (role) return { project, role };
  if (openToNonMembers(project, caller)) return { project, role: null };
  if (userId === null) throw problems.unauthenticated();
  throw problems.notFound({ resource: 'project' });
}

/**
 * Loads a form version for a member allowed to perform `action` on its project; read access
 * (`workspace.view`) to a published version is also open to non-members when its project's
 * form is open to them.
 * @throws 401 anonymous (unless open), 404 `Form version not found.`, 403 role lacks the action.
 */
export async function versionFor(
  ctx: CollectionContext,
  caller: Actor,
  versionId: number,
  action: Action,
): Promise<{ version: VersionRow; project: ProjectRow; role: Role | null }> {
  const version = await findVersion(ctx.db, versionId);
  if (!version) {
    userIdOf(caller);
    throw problems.notFound({ resource: 'version' });
  }
  if (action === 'workspace.view') {
    const { project, role } = await renamingNotFound('version', () =>
      projectForCollector(ctx, caller, version.project_id),
    );
    if (role === null && version.status !== 'published') throw problems.notFound({ resource: 'version' });
    return { version, project, role };
  }
  const { project, role } = await renamingNotFound('version', () =>
    projectFor(ctx, caller, version.project_id, action),
  );
  return { version, project, role };
}
