import { Joi } from '@fieldhouse/config';
import { paginated } from '@fieldhouse/http';
import { NO_EVENT } from '../domain/problems.ts';
import {
  createInvite,
  deleteInvite,
  getInvite,
  inviteHistory,
  inviteQr,
  listInvites,
  resendInvitation,
  updateInvite,
} from '../domain/invites.ts';
import { eventParams } from './event-schemas.ts';
import {
  createInviteSchema,
  HistoryEntry,
  Invite,
  InviteCreated,
  InvitePage,
  inviteParams,
  listInvitesSchema,
  updateInviteSchema,
} from './invite-schemas.ts';
import { actorOf, NO_INVITE, NOT_VISIBLE, notModified, route, scanActorOf, STAFF_ONLY } from './declare.ts';

const tags = ['Invites'];

/** The same update under PUT and PATCH. */
const updateRoute = (method: 'put' | 'patch', operationId: string, summary: string) =>
  route({
    method,
    path: '/api/events/{event_id}/invites/{invite_id}',
    operationId,
    summary,
    description:
      '`revoked: true` revokes the invite (its check-ins then answer `revoked`); `false` restores it.',
    tags,
    params: inviteParams,
    notFound: NO_EVENT,
    body: updateInviteSchema,
    parseBody: 'by-use-case',
    responses: { 200: { description: 'The invite as updated', body: Invite } },
    problems: {
      403: STAFF_ONLY,
      404: NO_INVITE,
      422: 'Invalid field, or e-mail already invited (code email_taken)',
    },
    handler: async ({ params, readBody }, ctx, req) => ({
      body: await updateInvite(ctx, {
        actor: actorOf(req),
        eventId: params.event_id,
        inviteId: params.invite_id,
        patch: readBody,
      }),
    }),
  });

/** One QR image route. */
const qrRoute = (format: 'png' | 'svg') => {
  const type = format === 'png' ? 'image/png' : 'image/svg+xml';
  return route({
    method: 'get',
    path: `/api/events/{event_id}/invites/{invite_id}/qr.${format}`,
    operationId: format === 'png' ? 'getInviteQrPng' : 'getInviteQrSvg',
    summary: format === 'png' ? 'QR code of code_unique, PNG 300 px' : 'QR code of code_unique, SVG',
    description: 'Cached privately for 5 minutes. Owner and staff.',
    tags,
    params: inviteParams,
    notFound: NO_EVENT,
    responses: {
      ...notModified,
      200: {
        description: format === 'png' ? 'PNG image' : 'SVG document',
        content: { [type]: null },
        headers: { 'Cache-Control': { description: '`private, max-age=300`', schema: { type: 'string' } } },
      },
    },
    problems: { 404: NO_INVITE },
    handler: async ({ params }, ctx, req, res) => {
      const image = await inviteQr(ctx, {
        actor: actorOf(req),
        eventId: params.event_id,
        inviteId: params.invite_id,
        format,
      });
      res.type(type).set('Cache-Control', 'private, max-age=300').send(image);
    },
  });
};

/** Invites of an event: create (spec 4.3), list, detail, update, delete, history, QR codes. */
export const inviteRoutes = [
  /**
   * POST /api/events/{event_id}/invites `{nom, email, type_invite?}` (spec 4.3): 201 with exactly
   * `{id, nom, code_unique}`; the invitation e-mail with the QR code is queued. Owner only.
   * 422 on an invalid field, an unknown `type_invite`, or an e-mail already invited (`email_taken`).
   */
  route({
    method: 'post',
    path: '/api/events/{event_id}/invites',
    operationId: 'createInvite',
    summary: 'Invite someone (owner, spec 4.3); the invitation e-mail with the QR code is queued',
    tags,
    params: eventParams,
    notFound: NO_EVENT,
    body: createInviteSchema,
    parseBody: 'by-use-case',
    responses: { 201: { description: 'Exactly {id, nom, code_unique}', body: InviteCreated } },
    problems: {
      403: STAFF_ONLY,
      404: NOT_VISIBLE,
      422: 'Invalid field, unknown type_invite, or e-mail already invited to this event (code email_taken)',
    },
    handler: async ({ params, readBody }, ctx, req) => {
      const invite = await createInvite(ctx, {
        actor: actorOf(req),
        eventId: params.event_id,
        invite: readBody,
      });
      return { status: 201, body: { id: invite.id, nom: invite.nom, code_unique: invite.code_unique } };
    },
  }),

  /**
   * GET /api/events/{event_id}/invites?page&per_page&search&type_invite&presence&revoked: the
   * pagination envelope of spec 2.1 of invites ordered by `nom`. Owner and staff.
   */
  route({
    method: 'get',
    path: '/api/events/{event_id}/invites',
    operationId: 'listInvites',
    summary: 'Invites, paginated (spec 2.1 envelope), ordered by nom',
    description:
      '`search` matches part of the name or e-mail (case-insensitive) or a whole code. Owner and staff.',
    tags,
    params: eventParams,
    notFound: NO_EVENT,
    query: listInvitesSchema,
    parseQuery: 'by-use-case',
    responses: {
      ...notModified,
      200: { description: 'One page of invites', body: InvitePage },
    },
    problems: { 404: NOT_VISIBLE, 422: 'Invalid query parameter' },
    handler: async ({ params, readQuery }, ctx, req) => {
      const { data, total } = await listInvites(ctx, {
        actor: scanActorOf(req),
        eventId: params.event_id,
        query: readQuery,
      });
      const { page, per_page } = readQuery();
      return { body: paginated(data, { page, per_page }, total) };
    },
  }),

  /** GET /api/events/{event_id}/invites/{invite_id}: the invite. Owner and staff; 404 otherwise. */
  route({
    method: 'get',
    path: '/api/events/{event_id}/invites/{invite_id}',
    operationId: 'getInvite',
    summary: 'Invite (owner and staff)',
    tags,
    params: inviteParams,
    notFound: NO_EVENT,
    responses: {
      ...notModified,
      200: { description: 'The invite', body: Invite },
    },
    problems: { 404: NO_INVITE },
    handler: async ({ params }, ctx, req) => ({
      body: await getInvite(ctx, {
        actor: actorOf(req),
        eventId: params.event_id,
        inviteId: params.invite_id,
      }),
    }),
  }),

  updateRoute('put', 'updateInvite', 'Update nom, email, type_invite or revoked (owner)'),
  updateRoute('patch', 'patchInvite', 'Update nom, email, type_invite or revoked (owner); same as PUT'),

  /**
   * POST /api/events/{event_id}/invites/{invite_id}/resend: 202 `{queued: true, email}`; the
   * invitation e-mail (with the QR code) goes again through the outbox. Owner only; 409 `revoked`.
   */
  route({
    method: 'post',
    path: '/api/events/{event_id}/invites/{invite_id}/resend',
    operationId: 'resendInvitation',
    summary: 'Send the invitation e-mail again (owner)',
    description: 'Queued through the outbox like the first one, with the QR code. A revoked invite is a 409.',
    tags,
    params: inviteParams,
    notFound: NO_EVENT,
    responses: {
      202: {
        description: 'Queued',
        body: Joi.object({ queued: Joi.boolean().valid(true).required(), email: Joi.string().required() }).id(
          'InvitationQueued',
        ),
      },
    },
    problems: { 403: STAFF_ONLY, 404: NO_INVITE, 409: 'The invite is revoked (code revoked)' },
    handler: async ({ params }, ctx, req) => {
      const { email } = await resendInvitation(ctx, {
        actor: actorOf(req),
        eventId: params.event_id,
        inviteId: params.invite_id,
      });
      return { status: 202, body: { queued: true, email } };
    },
  }),

  /** DELETE /api/events/{event_id}/invites/{invite_id}: 204; its code becomes unknown. Owner only. */
  route({
    method: 'delete',
    path: '/api/events/{event_id}/invites/{invite_id}',
    operationId: 'deleteInvite',
    summary: 'Delete the invite and its history (owner); its code becomes unknown',
    tags,
    params: inviteParams,
    notFound: NO_EVENT,
    responses: { 204: { description: 'Deleted' } },
    problems: { 403: STAFF_ONLY, 404: NO_INVITE },
    handler: async ({ params }, ctx, req) => {
      await deleteInvite(ctx, {
        actor: actorOf(req),
        eventId: params.event_id,
        inviteId: params.invite_id,
      });
      return { status: 204 };
    },
  }),

  /** GET .../invites/{invite_id}/history: every presence change, oldest first. Owner and staff. */
  route({
    method: 'get',
    path: '/api/events/{event_id}/invites/{invite_id}/history',
    operationId: 'getInviteHistory',
    summary: 'Every presence change and check-in of the invite, oldest first',
    tags,
    params: inviteParams,
    notFound: NO_EVENT,
    responses: {
      ...notModified,
      200: { description: 'The history', body: Joi.array().items(HistoryEntry) },
    },
    problems: { 404: NO_INVITE },
    handler: async ({ params }, ctx, req) => ({
      body: await inviteHistory(ctx, {
        actor: actorOf(req),
        eventId: params.event_id,
        inviteId: params.invite_id,
      }),
    }),
  }),

  qrRoute('png'),
  qrRoute('svg'),
];
