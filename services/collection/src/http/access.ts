import type { Request } from 'express';
import { forbidden, notFound, unauthenticated } from '@fieldhouse/problem';
import { can, type Action, type Role } from '../domain/roles.ts';
import { findWorkspace, roleIn, type WorkspaceRow } from '../data/workspaces.ts';
import { settingsOf, type ProjectRow } from '../data/projects.ts';
import { findVersion, type VersionRow } from '../data/versions.ts';
import type { CollectionContext } from './context.ts';

/**
 * The signed-in caller's id.
 * @throws ProblemError 401 for anonymous callers.
 */
export function userIdOf(req: Request): number {
  const id = req.caller.userId;
  if (id === null) throw unauthenticated();
  return id;
}

/** 403 naming what the role may not do. */
const denied = (role: Role, action: Action) =>
  forbidden(`Your role in this workspace (${role}) does not allow this action (${action}).`);

/**
 * Loads a workspace for a member allowed to perform `action`.
 * @throws 401 anonymous, 404 unknown or not a member (nothing leaks), 403 role lacks the action.
 */
export async function workspaceFor(
  ctx: CollectionContext,
  req: Request,
  workspaceId: number,
  action: Action,
): Promise<{ workspace: WorkspaceRow; role: Role }> {
  const userId = userIdOf(req);
  const role = await roleIn(ctx.db, workspaceId, userId);
  const workspace = role ? await findWorkspace(ctx.db, workspaceId) : undefined;
  if (!role || !workspace) throw notFound('Workspace not found.');
  if (!can(role, action)) throw denied(role, action);
  return { workspace, role };
}

/** Whether a project's published form is open to this caller without membership (public forms). */
export function openToNonMembers(project: ProjectRow, req: Request): boolean {
  if (!project.is_published) return false;
  const access = settingsOf(project).collect_access;
  return access === 'public' || (access === 'authenticated' && req.caller.userId !== null);
}

/**
 * Loads a project for a member allowed to perform `action`.
 * @throws 401 anonymous, 404 unknown or not a member, 403 role lacks the action.
 */
export async function projectFor(
  ctx: CollectionContext,
  req: Request,
  projectId: number,
  action: Action,
): Promise<{ project: ProjectRow; role: Role }> {
  const userId = userIdOf(req);
  const found = await ctx.findProjectWithRole(projectId, userId);
  const role = found?.role as Role | null | undefined;
  if (!found || !role) throw notFound('Project not found.');
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
  req: Request,
  projectId: number,
): Promise<{ project: ProjectRow; role: Role | null }> {
  const userId = req.caller.userId;
  const found = await ctx.findProjectWithRole(projectId, userId);
  if (!found) throw notFound('Project not found.');
  const { project } = found;
  const role = found.role as Role | null;
  if (role) return { project, role };
  if (openToNonMembers(project, req)) return { project, role: null };
  if (userId === null) throw unauthenticated();
  throw notFound('Project not found.');
}

/**
 * Loads a form version for a member allowed to perform `action` on its project; read access
 * (`workspace.view`) to a published version is also open to non-members when its project's
 * form is open to them.
 */
export async function versionFor(
  ctx: CollectionContext,
  req: Request,
  versionId: number,
  action: Action,
): Promise<{ version: VersionRow; project: ProjectRow; role: Role | null }> {
  const version = await findVersion(ctx.db, versionId);
  if (!version) {
    userIdOf(req);
    throw notFound('Form version not found.');
  }
  if (action === 'workspace.view') {
    const { project, role } = await projectForCollector(ctx, req, version.project_id).catch(
      (err: unknown) => {
        throw err instanceof Error && 'status' in err && err.status === 404
          ? notFound('Form version not found.')
          : err;
      },
    );
    if (role === null && version.status !== 'published') throw notFound('Form version not found.');
    return { version, project, role };
  }
  const { project, role } = await projectFor(ctx, req, version.project_id, action).catch((err: unknown) => {
    throw err instanceof Error && 'status' in err && err.status === 404
      ? notFound('Form version not found.')
      : err;
  });
  return { version, project, role };
}
