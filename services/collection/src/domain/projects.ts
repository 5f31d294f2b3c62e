import type { BodyReader, PageRequest } from '@fieldhouse/http';
import {
  createProject as insertProject,
  deleteProject as removeProject,
  listProjects as selectProjects,
  projectJson,
  settingsOf,
  updateProject as saveProject,
  type ProjectRow,
} from '../data/projects.ts';
import { projectStats } from '../data/stats.ts';
import { requireAccess, userIdOf } from './access.ts';
import type { Actor, CollectionContext } from './context.ts';
import { mergeSettings, type PublicationSettings } from './publication.ts';
import { problems } from './problems.ts';

/** A project as the API shows it: publication state, `current_version_id`, settings, `consent_text`. */
export type ProjectView = ReturnType<typeof projectJson>;

/** `{name, description?}` of a project. */
export interface ProjectInput {
  name: string;
  description?: string | null;
}

/** A project as a non-member sees it (public form): no notification addresses. */
const publicProjectJson = (p: ProjectRow): ProjectView => {
  const json = projectJson(p);
  return { ...json, settings: { ...json.settings, notification_emails: [] } };
};

/** One page of a workspace's projects, newest first, and their number. @throws 404 to non-members. */
export async function listProjects(
  ctx: CollectionContext,
  actor: Actor,
  command: { workspaceId: number; page: BodyReader<PageRequest> },
): Promise<{ items: ProjectView[]; total: number }> {
  const { workspace } = await requireAccess(ctx, {
    actor,
    permission: 'workspace.view',
    workspaceId: command.workspaceId,
  });
  const { rows, total } = await selectProjects(
    ctx.db,
    workspace.id,
    command.page().page,
    command.page().per_page,
  );
  return { items: rows.map(projectJson), total };
}

/** Creates an unpublished project (owner, admin, manager). @throws 404, 403. */
export async function createProject(
  ctx: CollectionContext,
  actor: Actor,
  command: { workspaceId: number; input: BodyReader<ProjectInput> },
): Promise<ProjectView> {
  const { workspace } = await requireAccess(ctx, {
    actor,
    permission: 'project.manage',
    workspaceId: command.workspaceId,
  });
  return projectJson(await insertProject(ctx.db, workspace.id, command.input(), userIdOf(actor)));
}

/**
 * The project; members see it whole, non-members of a public (or authenticated) form see it
 * without its notification addresses. @throws 404, 401 anonymous on a non-public form.
 */
export async function getProject(ctx: CollectionContext, actor: Actor, projectId: number) {
  const { project, role } = await requireAccess(ctx, {
    actor,
    permission: 'project.open',
    projectId: projectId,
  });
  return role ? projectJson(project) : publicProjectJson(project);
}

/** Renames or redescribes a project (owner, admin, manager). @throws 404, 403. */
export async function updateProject(
  ctx: CollectionContext,
  actor: Actor,
  command: { projectId: number; patch: BodyReader<Partial<ProjectInput>> },
): Promise<ProjectView> {
  const { project } = await requireAccess(ctx, {
    actor,
    permission: 'project.manage',
    projectId: command.projectId,
  });
  return projectJson(await saveProject(ctx.db, project.id, command.patch()));
}

/** Deletes a project with its versions and submissions (owner, admin). @throws 404, 403. */
export async function deleteProject(ctx: CollectionContext, actor: Actor, projectId: number) {
  const { project } = await requireAccess(ctx, { actor, permission: 'project.delete', projectId: projectId });
  await removeProject(ctx.db, project.id);
}

/** A project's statistics (owner, admin, manager, viewer); see data/stats.ts. @throws 404, 403. */
export async function getProjectStats(ctx: CollectionContext, actor: Actor, projectId: number) {
  const { project } = await requireAccess(ctx, { actor, permission: 'stats.view', projectId: projectId });
  return projectStats(ctx.db, project.id);
}

/** Publish a project, optionally under a workspace (which must be the project's). */
export interface PublishProjectCommand {
  projectId: number;
  /** Given by `/workspaces/{workspace_id}/projects/{project_id}/publish`: 404 when not the project's. */
  workspaceId?: number;
  /** Settings to merge into the current ones (spec 2.1 publication settings). */
  settings: BodyReader<Partial<PublicationSettings>>;
}

/**
 * Publishes a project with the given settings merged into its current ones (owner, admin,
 * manager). Spec 2.1: the window must end after it starts, consent needs a text,
 * notifications an address.
 * @throws 422 on inconsistent settings, 422 `no_published_version` without a published form
 * version; 404, 403 access.
 */
export async function publishProject(
  ctx: CollectionContext,
  actor: Actor,
  command: PublishProjectCommand,
): Promise<ProjectView> {
  const { project } = await requireAccess(ctx, {
    actor,
    permission: 'project.manage',
    projectId: command.projectId,
  });
  if (command.workspaceId !== undefined && project.workspace_id !== command.workspaceId)
    throw problems.notFound({ resource: 'project' });
  const { settings, errors } = mergeSettings(settingsOf(project), command.settings());
  if (Object.keys(errors).length) throw problems.validationFailed({ errors });
  if (!project.current_version_id) throw problems.noPublishedVersion();
  const saved = await saveProject(ctx.db, project.id, {
    is_published: true,
    published_at: ctx.db.fn.now(),
    settings: JSON.stringify(settings),
  });
  return projectJson(saved);
}

/** Stops collection (settings are kept; owner, admin, manager). @throws 404, 403. */
export async function unpublishProject(ctx: CollectionContext, actor: Actor, projectId: number) {
  const { project } = await requireAccess(ctx, { actor, permission: 'project.manage', projectId: projectId });
  return projectJson(await saveProject(ctx.db, project.id, { is_published: false }));
}
