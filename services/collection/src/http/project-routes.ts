import { paginated, pageOf, pathId } from '@fieldhouse/http';
import {
  createProject,
  deleteProject,
  getProject,
  getProjectStats,
  listProjects,
  publishProject,
  unpublishProject,
  updateProject,
} from '../domain/projects.ts';
import { envelope, pageQuery } from './common-schemas.ts';
import {
  projectBody,
  projectParams,
  projectPatch,
  projectSchema,
  publicationSettingsBody,
  statsSchema,
  workspaceProjectParams,
} from './project-schemas.ts';
import { route } from './declare.ts';
import { workspaceParams } from './workspace-schemas.ts';

const tags = ['Projects'];
const memberOnly = 'Unknown, or the caller is not a member';
const write = {
  403: 'The role does not allow it',
  404: memberOnly,
  422: 'Validation failed (errors by field)',
};
const publishProblems = {
  ...write,
  422: 'Invalid settings (errors by field), or no published form version (no_published_version)',
};

/** Projects, their statistics and publication (spec 4.1 "Projects", 2.1 publication settings, 8). */
export const projectRoutes = [
  route({
    method: 'get',
    path: '/api/v1/workspaces/{workspace_id}/projects',
    operationId: 'listProjects',
    summary: 'Projects',
    description: 'Pagination envelope, newest first; members only.',
    tags,
    params: workspaceParams,
    query: pageQuery,
    parseQuery: 'by-use-case',
    responses: { 200: { description: 'Pagination envelope (spec 2.1)', body: pageOf(projectSchema) } },
    problems: { 404: memberOnly, 422: 'Bad page or per_page' },
    handler: async ({ params, readQuery }, ctx, req) => {
      const { items, total } = await listProjects(ctx, req.caller, {
        workspaceId: pathId(params.workspace_id, 'workspaceId'),
        page: readQuery,
      });
      return { body: paginated(items, readQuery(), total) };
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/workspaces/{workspace_id}/projects',
    operationId: 'createProject',
    summary: 'Create a project',
    description: 'Unpublished; owner, admin, manager.',
    tags,
    params: workspaceParams,
    body: projectBody,
    parseBody: 'by-use-case',
    responses: { 201: { description: 'Created', body: envelope(projectSchema) } },
    problems: write,
    handler: async ({ params, readBody }, ctx, req) => ({
      status: 201,
      body: {
        data: await createProject(ctx, req.caller, {
          workspaceId: pathId(params.workspace_id, 'workspaceId'),
          input: readBody,
        }),
      },
    }),
  }),
  route({
    method: 'post',
    path: '/api/v1/workspaces/{workspace_id}/projects/{project_id}/publish',
    operationId: 'publishWorkspaceProject',
    summary: 'Publish with publication settings',
    description: 'The settings of spec 2.1, merged into the current ones; needs a published form version.',
    tags,
    params: workspaceProjectParams,
    body: publicationSettingsBody,
    parseBody: 'by-use-case',
    bodyRequired: false,
    responses: { 200: { description: 'The published project', body: envelope(projectSchema) } },
    problems: publishProblems,
    handler: async ({ params, readBody }, ctx, req) => ({
      body: {
        data: await publishProject(ctx, req.caller, {
          projectId: pathId(params.project_id, 'projectId'),
          workspaceId: params.workspace_id,
          settings: readBody,
        }),
      },
    }),
  }),
  route({
    method: 'get',
    path: '/api/v1/projects/{project_id}',
    operationId: 'getProject',
    summary: 'Project (also to non-members of a public form)',
    description:
      'With `current_version_id` (the form collectors get), settings and `consent_text`. Non-members of a public or authenticated form see it without notification addresses.',
    tags,
    params: projectParams,
    access: 'optional',
    responses: { 200: { description: 'The project', body: envelope(projectSchema) } },
    problems: { 404: memberOnly },
    handler: async ({ params }, ctx, req) => ({
      body: { data: await getProject(ctx, req.caller, pathId(params.project_id, 'projectId')) },
    }),
  }),
  route({
    method: 'put',
    path: '/api/v1/projects/{project_id}',
    operationId: 'updateProject',
    summary: 'Update',
    description: 'Owner, admin, manager.',
    tags,
    params: projectParams,
    body: projectPatch,
    parseBody: 'by-use-case',
    responses: { 200: { description: 'The updated project', body: envelope(projectSchema) } },
    problems: write,
    handler: async ({ params, readBody }, ctx, req) => ({
      body: {
        data: await updateProject(ctx, req.caller, {
          projectId: pathId(params.project_id, 'projectId'),
          patch: readBody,
        }),
      },
    }),
  }),
  route({
    method: 'delete',
    path: '/api/v1/projects/{project_id}',
    operationId: 'deleteProject',
    summary: 'Delete (owner, admin)',
    description: 'Deletes its versions and submissions too.',
    tags,
    params: projectParams,
    responses: { 204: { description: 'Deleted' } },
    problems: { 403: 'The role does not allow it', 404: memberOnly },
    handler: async ({ params }, ctx, req) => {
      await deleteProject(ctx, req.caller, pathId(params.project_id, 'projectId'));
      return { status: 204 };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/projects/{project_id}/stats',
    operationId: 'getProjectStats',
    summary: 'Totals per status, per day, per collector, last submission time',
    description: 'Owner, admin, manager, viewer.',
    tags,
    params: projectParams,
    responses: { 200: { description: 'The statistics', body: envelope(statsSchema) } },
    problems: { 403: 'The role does not allow it', 404: memberOnly },
    handler: async ({ params }, ctx, req) => ({
      body: { data: await getProjectStats(ctx, req.caller, pathId(params.project_id, 'projectId')) },
    }),
  }),
  route({
    method: 'post',
    path: '/api/v1/projects/{project_id}/publish',
    operationId: 'publishProject',
    summary: 'Publish (optional settings body; needs a published version)',
    tags,
    params: projectParams,
    body: publicationSettingsBody,
    parseBody: 'by-use-case',
    bodyRequired: false,
    responses: { 200: { description: 'The published project', body: envelope(projectSchema) } },
    problems: publishProblems,
    handler: async ({ params, readBody }, ctx, req) => ({
      body: {
        data: await publishProject(ctx, req.caller, {
          projectId: pathId(params.project_id, 'projectId'),
          settings: readBody,
        }),
      },
    }),
  }),
  route({
    method: 'post',
    path: '/api/v1/projects/{project_id}/unpublish',
    operationId: 'unpublishProject',
    summary: 'Unpublish',
    description: 'Stops collection; the settings are kept.',
    tags,
    params: projectParams,
    responses: { 200: { description: 'The unpublished project', body: envelope(projectSchema) } },
    problems: { 403: 'The role does not allow it', 404: memberOnly },
    handler: async ({ params }, ctx, req) => ({
      body: { data: await unpublishProject(ctx, req.caller, pathId(params.project_id, 'projectId')) },
    }),
  }),
];
