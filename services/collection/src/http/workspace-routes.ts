import { paginated, pageOf, pathId } from '@fieldhouse/http';
import {
  createWorkspace,
  deleteWorkspace,
  getWorkspace,
  listWorkspaceMembers,
  listWorkspaces,
  removeWorkspaceMember,
  setWorkspaceMember,
  updateWorkspace,
} from '../domain/workspaces.ts';
import { envelope, pageQuery } from './common-schemas.ts';
import { route } from './declare.ts';
import {
  memberBody,
  memberParams,
  memberSchema,
  workspaceBody,
  workspaceParams,
  workspacePatch,
  workspaceSchema,
} from './workspace-schemas.ts';

const tags = ['Workspaces'];

/** Workspaces and their members (spec 4.1 "Workspaces"; roles in docs/collection.md). */
export const workspaceRoutes = [
  route({
    method: 'get',
    path: '/api/v1/workspaces',
    operationId: 'listWorkspaces',
    summary: "The caller's workspaces",
    description: "Pagination envelope, newest first; each workspace carries the caller's `role`.",
    tags,
    query: pageQuery,
    parseQuery: 'by-use-case',
    responses: { 200: { description: 'Pagination envelope (spec 2.1)', body: pageOf(workspaceSchema) } },
    problems: { 422: 'Bad page or per_page' },
    handler: async ({ readQuery }, ctx, req) => {
      const { items, total } = await listWorkspaces(ctx, req.caller, readQuery);
      return { body: paginated(items, readQuery(), total) };
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/workspaces',
    operationId: 'createWorkspace',
    summary: 'Create a workspace (caller becomes owner)',
    tags,
    body: workspaceBody,
    parseBody: 'by-use-case',
    responses: { 201: { description: 'Created, with its members', body: envelope(workspaceSchema) } },
    problems: { 422: 'Validation failed (errors by field)' },
    handler: async ({ readBody }, ctx, req) => ({
      status: 201,
      body: { data: await createWorkspace(ctx, req.caller, readBody) },
    }),
  }),
  route({
    method: 'get',
    path: '/api/v1/workspaces/{workspace_id}',
    operationId: 'getWorkspace',
    summary: 'Workspace with the caller role and members',
    tags,
    params: workspaceParams,
    responses: { 200: { description: 'The workspace', body: envelope(workspaceSchema) } },
    problems: { 404: 'Unknown, or the caller is not a member' },
    handler: async ({ params }, ctx, req) => ({
      body: { data: await getWorkspace(ctx, req.caller, pathId(params.workspace_id, 'workspaceId')) },
    }),
  }),
  route({
    method: 'put',
    path: '/api/v1/workspaces/{workspace_id}',
    operationId: 'updateWorkspace',
    summary: 'Update (owner, admin)',
    tags,
    params: workspaceParams,
    body: workspacePatch,
    parseBody: 'by-use-case',
    responses: { 200: { description: 'The updated workspace', body: envelope(workspaceSchema) } },
    problems: {
      403: 'The role does not allow it',
      404: 'Unknown, or the caller is not a member',
      422: 'Validation failed (errors by field)',
    },
    handler: async ({ params, readBody }, ctx, req) => ({
      body: {
        data: await updateWorkspace(ctx, req.caller, {
          workspaceId: pathId(params.workspace_id, 'workspaceId'),
          patch: readBody,
        }),
      },
    }),
  }),
  route({
    method: 'delete',
    path: '/api/v1/workspaces/{workspace_id}',
    operationId: 'deleteWorkspace',
    summary: 'Delete (owner)',
    description: 'Deletes its projects and submissions too.',
    tags,
    params: workspaceParams,
    responses: { 204: { description: 'Deleted' } },
    problems: { 403: 'The role does not allow it', 404: 'Unknown, or the caller is not a member' },
    handler: async ({ params }, ctx, req) => {
      await deleteWorkspace(ctx, req.caller, pathId(params.workspace_id, 'workspaceId'));
      return { status: 204 };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/workspaces/{workspace_id}/members',
    operationId: 'listWorkspaceMembers',
    summary: 'Members',
    description: 'Pagination envelope, by join date.',
    tags,
    params: workspaceParams,
    query: pageQuery,
    parseQuery: 'by-use-case',
    responses: { 200: { description: 'Pagination envelope (spec 2.1)', body: pageOf(memberSchema) } },
    problems: { 404: 'Unknown, or the caller is not a member', 422: 'Bad page or per_page' },
    handler: async ({ params, readQuery }, ctx, req) => {
      const { items, total } = await listWorkspaceMembers(ctx, req.caller, {
        workspaceId: pathId(params.workspace_id, 'workspaceId'),
        page: readQuery,
      });
      return { body: paginated(items, readQuery(), total) };
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/workspaces/{workspace_id}/members',
    operationId: 'setWorkspaceMember',
    summary: 'Add a member (201) or change a role (200); unknown user or last owner 422',
    description:
      'Adds a registered user (by `user_id` or `email`) or changes an existing member’s role. Only owners grant or change the owner role (403); demoting the last owner is 422 `last_owner`; an unknown user 422 `unknown_user`.',
    tags,
    params: workspaceParams,
    body: memberBody,
    parseBody: 'by-use-case',
    responses: {
      200: { description: 'Role changed', body: envelope(memberSchema) },
      201: { description: 'Added', body: envelope(memberSchema) },
    },
    problems: {
      403: 'The role does not allow it',
      404: 'Unknown, or the caller is not a member',
      422: 'Validation failed, unknown_user or last_owner',
    },
    handler: async ({ params, readBody }, ctx, req) => {
      const { member, created } = await setWorkspaceMember(ctx, req.caller, {
        workspaceId: pathId(params.workspace_id, 'workspaceId'),
        member: readBody,
      });
      return { status: created ? 201 : 200, body: { data: member } };
    },
  }),
  route({
    method: 'delete',
    path: '/api/v1/workspaces/{workspace_id}/members/{user_id}',
    operationId: 'removeWorkspaceMember',
    summary: 'Remove a member (last owner 422)',
    description: 'Any member may leave; removing another member needs the members.manage permission.',
    tags,
    params: memberParams,
    responses: { 204: { description: 'Removed' } },
    problems: {
      403: 'The role does not allow it',
      404: 'Unknown workspace, the caller is not a member, or the user is not one',
      422: 'The last owner cannot be removed (last_owner)',
    },
    handler: async ({ params }, ctx, req) => {
      await removeWorkspaceMember(ctx, req.caller, {
        workspaceId: pathId(params.workspace_id, 'workspaceId'),
        userId: pathId(params.user_id, 'userId'),
      });
      return { status: 204 };
    },
  }),
];
