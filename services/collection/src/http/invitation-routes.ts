import Joi from 'joi';
import { paginated, pageOf, pathId, pathIdParam } from '@fieldhouse/http';
import {
  inviteMember,
  listInvitations,
  resendInvitation,
  revokeInvitation,
  type InvitationInput,
} from '../domain/invitations.ts';
import { dateTime, envelope, pageQuery } from './common-schemas.ts';
import { route } from './declare.ts';
import { memberSchema, roleSchema, workspaceParams } from './workspace-schemas.ts';

const tags = ['Workspaces'];

/** `{workspace_id}/invitations/{invitation_id}`. */
const invitationParams = Joi.object<{ workspace_id: number; invitation_id: number }>({
  workspace_id: pathIdParam(),
  invitation_id: pathIdParam(),
});

/** Body of `POST /workspaces/{workspace_id}/invitations`: `{email, role}`. */
const invitationBody = Joi.object<InvitationInput>({
  email: Joi.string().trim().email({ tlds: false }).max(254).required(),
  role: roleSchema.required(),
});

/** An invitation to a workspace by e-mail (docs/collection.md, "Inviting by e-mail"). */
const invitationSchema = Joi.object({
  id: Joi.number().integer().required(),
  email: Joi.string().required(),
  role: roleSchema.required(),
  status: Joi.string()
    .valid('pending', 'expired', 'accepted')
    .required()
    .description(
      '`pending`: waiting for the address to register or sign in; `expired`: past `expires_at` (resend renews it); `accepted`: a membership (`member`, present only then).',
    ),
  invited_by: Joi.number().integer().required(),
  invited_by_name: Joi.string().allow(null).required(),
  created_at: dateTime().required(),
  sent_at: dateTime().required().description('When the invitation e-mail was last queued'),
  expires_at: dateTime().allow(null).required().description('14 days after `sent_at`; null once accepted'),
  accepted_at: dateTime().allow(null).required(),
  member: memberSchema.description('The membership, once `accepted` (absent before)'),
}).id('Invitation');

/**
 * Invitations to a workspace by e-mail, whether or not the address has an account yet
 * (issue 32): invite, list the open ones, resend, revoke. `POST /members` keeps its contract
 * (an unknown e-mail stays 422 `unknown_user`).
 */
export const invitationRoutes = [
  route({
    method: 'post',
    path: '/api/v1/workspaces/{workspace_id}/invitations',
    operationId: 'inviteWorkspaceMember',
    summary: 'Invite by e-mail: a member at once, or a pending invitation (owner, admin)',
    description:
      'When a user with this e-mail is known, they become a member at once with `role` (201, `status` `accepted`, `member` set). Otherwise a `pending` invitation is kept for 14 days and an invitation e-mail sent (201); it becomes a membership when a user with this address registers or signs in. Inviting an address with an open invitation renews it (new role, expiry) and sends the e-mail again (200). Only owners give the owner role (403).',
    tags,
    params: workspaceParams,
    body: invitationBody,
    parseBody: 'by-use-case',
    responses: {
      200: { description: 'The open invitation renewed and sent again', body: envelope(invitationSchema) },
      201: { description: 'Invited (pending) or added (accepted)', body: envelope(invitationSchema) },
    },
    problems: {
      403: 'The role does not allow it',
      404: 'Unknown, or the caller is not a member',
      422: 'Validation failed, or already_member',
    },
    handler: async ({ params, readBody }, ctx, req) => {
      const { invitation, created } = await inviteMember(ctx, req.caller, {
        workspaceId: pathId(params.workspace_id, 'workspaceId'),
        input: readBody,
      });
      return { status: created ? 201 : 200, body: { data: invitation } };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/workspaces/{workspace_id}/invitations',
    operationId: 'listWorkspaceInvitations',
    summary: 'Open invitations, pending and expired (owner, admin)',
    description: 'Pagination envelope, last sent first. Accepted and revoked invitations are not listed.',
    tags,
    params: workspaceParams,
    query: pageQuery,
    parseQuery: 'by-use-case',
    responses: { 200: { description: 'Pagination envelope (spec 2.1)', body: pageOf(invitationSchema) } },
    problems: {
      403: 'The role does not allow it',
      404: 'Unknown, or the caller is not a member',
      422: 'Bad page or per_page',
    },
    handler: async ({ params, readQuery }, ctx, req) => {
      const all = await listInvitations(ctx, req.caller, pathId(params.workspace_id, 'workspaceId'));
      const { page, per_page } = readQuery();
      return {
        body: paginated(all.slice((page - 1) * per_page, page * per_page), readQuery(), all.length),
      };
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/workspaces/{workspace_id}/invitations/{invitation_id}/resend',
    operationId: 'resendWorkspaceInvitation',
    summary: 'Send an open invitation again, valid 14 more days (owner, admin)',
    tags,
    params: invitationParams,
    responses: { 200: { description: 'The renewed invitation', body: envelope(invitationSchema) } },
    problems: {
      403: 'The role does not allow it',
      404: 'Unknown workspace, or no open invitation with this id (accepted or revoked)',
    },
    handler: async ({ params }, ctx, req) => ({
      body: {
        data: await resendInvitation(ctx, req.caller, {
          workspaceId: pathId(params.workspace_id, 'workspaceId'),
          invitationId: pathId(params.invitation_id, 'invitationId'),
        }),
      },
    }),
  }),
  route({
    method: 'delete',
    path: '/api/v1/workspaces/{workspace_id}/invitations/{invitation_id}',
    operationId: 'revokeWorkspaceInvitation',
    summary: 'Revoke an open invitation (owner, admin)',
    tags,
    params: invitationParams,
    responses: { 204: { description: 'Revoked' } },
    problems: {
      403: 'The role does not allow it',
      404: 'Unknown workspace, or no open invitation with this id (accepted or revoked)',
    },
    handler: async ({ params }, ctx, req) => {
      await revokeInvitation(ctx, req.caller, {
        workspaceId: pathId(params.workspace_id, 'workspaceId'),
        invitationId: pathId(params.invitation_id, 'invitationId'),
      });
      return { status: 204 };
    },
  }),
];
