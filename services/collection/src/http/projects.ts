import { Router, type Request } from 'express';
import Joi from 'joi';
import { idParam, paginated, parsePageQuery } from '@fieldhouse/http';
import { notFound, validate, validationFailed } from '@fieldhouse/problem';
import { mergeSettings, settingsSchema, type PublicationSettings } from '../domain/publication.ts';
import {
  createProject,
  deleteProject,
  listProjects,
  projectJson,
  settingsOf,
  updateProject,
  type ProjectRow,
} from '../data/projects.ts';
import { projectStats } from '../data/stats.ts';
import { projectFor, projectForCollector, workspaceFor } from './access.ts';
import type { CollectionContext } from './context.ts';

const projectBody = Joi.object({
  name: Joi.string().trim().min(1).max(200).required(),
  description: Joi.string().trim().max(5000).allow('', null),
});
const projectPatch = projectBody.fork(['name'], (s) => s.optional());

/** A project as a non-member sees it (public form): no notification addresses. */
const publicProjectJson = (p: ProjectRow) => {
  const json = projectJson(p);
  return { ...json, settings: { ...json.settings, notification_emails: [] } };
};

/**
 * Publishes a project with the settings in the body (all optional, merged into the current
 * ones). Needs a published form version (422 otherwise); invalid settings 422.
 */
async function publish(ctx: CollectionContext, req: Request, project: ProjectRow): Promise<ProjectRow> {
  const patch = validate(settingsSchema, req.body ?? {}) as Partial<PublicationSettings>;
  const { settings, errors } = mergeSettings(settingsOf(project), patch);
  if (Object.keys(errors).length) throw validationFailed(errors);
  if (!project.current_version_id)
    throw validationFailed(
      { project: ['This project has no published form version; publish a version first.'] },
      { code: 'no_published_version' },
    );
  return updateProject(ctx.db, project.id, {
    is_published: true,
    published_at: ctx.db.fn.now(),
    settings: JSON.stringify(settings),
  });
}

/** Projects, their statistics and publication (spec 4.1 "Projects", 2.1 publication settings, 8). */
export function projectRoutes(ctx: CollectionContext): Router {
  const r = Router();

  /** GET /workspaces/{id}/projects: pagination envelope, newest first; members only. */
  r.get('/api/v1/workspaces/:workspaceId/projects', async (req, res) => {
    const { workspace } = await workspaceFor(ctx, req, idParam(req, 'workspaceId'), 'workspace.view');
    const page = parsePageQuery(req.query);
    const { rows, total } = await listProjects(ctx.db, workspace.id, page.page, page.per_page);
    res.json(paginated(rows.map(projectJson), page, total));
  });

  /** POST /workspaces/{id}/projects `{name, description?}`: 201, unpublished; owner, admin, manager. */
  r.post('/api/v1/workspaces/:workspaceId/projects', async (req, res) => {
    const { workspace } = await workspaceFor(ctx, req, idParam(req, 'workspaceId'), 'project.manage');
    const body = validate(projectBody, req.body);
    const p = await createProject(ctx.db, workspace.id, body, req.caller.userId!);
    res.status(201).json({ data: projectJson(p) });
  });

  /**
   * GET /projects/{id}: the project with `current_version_id` (the form collectors get),
   * settings and `consent_text`. Members; non-members too when its form is public.
   */
  r.get('/api/v1/projects/:projectId', async (req, res) => {
    const { project, role } = await projectForCollector(ctx, req, idParam(req, 'projectId'));
    res.json({ data: role ? projectJson(project) : publicProjectJson(project) });
  });

  /** PUT /projects/{id} `{name?, description?}`: owner, admin, manager. */
  r.put('/api/v1/projects/:projectId', async (req, res) => {
    const { project } = await projectFor(ctx, req, idParam(req, 'projectId'), 'project.manage');
    const body = validate(projectPatch, req.body);
    res.json({ data: projectJson(await updateProject(ctx.db, project.id, body)) });
  });

  /** DELETE /projects/{id}: owner, admin; deletes versions and submissions; 204. */
  r.delete('/api/v1/projects/:projectId', async (req, res) => {
    const { project } = await projectFor(ctx, req, idParam(req, 'projectId'), 'project.delete');
    await deleteProject(ctx.db, project.id);
    res.status(204).end();
  });

  /**
   * GET /projects/{id}/stats: `{total, by_status, by_day: [{date, count}], by_collector:
   * [{collector_id, name, count}], last_submission_at}`; owner, admin, manager, viewer.
   */
  r.get('/api/v1/projects/:projectId/stats', async (req, res) => {
    const { project } = await projectFor(ctx, req, idParam(req, 'projectId'), 'stats.view');
    res.json({ data: await projectStats(ctx.db, project.id) });
  });

  /** POST /projects/{id}/publish (optional settings body): 200 with the project. */
  r.post('/api/v1/projects/:projectId/publish', async (req, res) => {
    const { project } = await projectFor(ctx, req, idParam(req, 'projectId'), 'project.manage');
    res.json({ data: projectJson(await publish(ctx, req, project)) });
  });

  /** POST /workspaces/{ws}/projects/{id}/publish with the publication settings of spec 2.1. */
  r.post('/api/v1/workspaces/:workspaceId/projects/:projectId/publish', async (req, res) => {
    const { project } = await projectFor(ctx, req, idParam(req, 'projectId'), 'project.manage');
    if (project.workspace_id !== idParam(req, 'workspaceId')) throw notFound('Project not found.');
    res.json({ data: projectJson(await publish(ctx, req, project)) });
  });

  /** POST /projects/{id}/unpublish: stops collection (settings are kept); 200 with the project. */
  r.post('/api/v1/projects/:projectId/unpublish', async (req, res) => {
    const { project } = await projectFor(ctx, req, idParam(req, 'projectId'), 'project.manage');
    res.json({ data: projectJson(await updateProject(ctx.db, project.id, { is_published: false })) });
  });

  return r;
}
