import { Joi } from '@fieldhouse/config';
import { parseId } from '@fieldhouse/http';
import { NO_EVENT } from '../domain/problems.ts';
import { grantStaff, listStaff, revokeStaff } from '../domain/staff.ts';
import { eventParams } from './event-schemas.ts';
import { actorOf, NOT_VISIBLE, notModified, route, STAFF_ONLY } from './declare.ts';
import { Staff, staffMemberParams, staffSchema } from './staff-schemas.ts';

const tags = ['Staff'];

/** The check-in role: the owner lets other users see the event and its invites and scan codes. */
export const staffRoutes = [
  /** GET /api/events/{event_id}/staff: `[{user_id, name, email, granted_at}]`. Owner only (403 for staff). */
  route({
    method: 'get',
    path: '/api/events/{event_id}/staff',
    operationId: 'listStaff',
    summary: 'Users with the check-in role (owner)',
    description: 'Oldest grant first; `name` and `email` as last known (null when the user is unknown).',
    tags,
    params: eventParams,
    notFound: NO_EVENT,
    responses: {
      ...notModified,
      200: { description: 'The staff', body: Joi.array().items(Staff) },
    },
    problems: { 403: STAFF_ONLY, 404: NOT_VISIBLE },
    handler: async ({ params }, ctx, req) => ({
      body: await listStaff(ctx, { actor: actorOf(req), eventId: params.event_id }),
    }),
  }),

  /**
   * POST /api/events/{event_id}/staff `{user_id}` or `{email}`: grants the check-in role; 201
   * with `{user_id, name, email, granted_at}` (idempotent). 422 when no known user matches (users
   * become known when the gateway announces them or when they first call this service), or when
   * it names the owner.
   */
  route({
    method: 'post',
    path: '/api/events/{event_id}/staff',
    operationId: 'grantStaff',
    summary: 'Grant the check-in role by user id or e-mail (owner)',
    description:
      'Idempotent. Users become known when the gateway announces them or when they first call this service.',
    tags,
    params: eventParams,
    notFound: NO_EVENT,
    body: staffSchema,
    parseBody: 'by-use-case',
    responses: { 201: { description: 'Granted', body: Staff } },
    problems: { 403: STAFF_ONLY, 404: NOT_VISIBLE, 422: 'Invalid body, unknown user, or the owner' },
    handler: async ({ params, readBody }, ctx, req) => ({
      status: 201,
      body: await grantStaff(ctx, { actor: actorOf(req), eventId: params.event_id, staff: readBody }),
    }),
  }),

  /** DELETE /api/events/{event_id}/staff/{user_id}: 204; 404 when that user is not staff. */
  route({
    method: 'delete',
    path: '/api/events/{event_id}/staff/{user_id}',
    operationId: 'revokeStaff',
    summary: 'Remove the check-in role (owner)',
    tags,
    params: staffMemberParams,
    notFound: NO_EVENT,
    responses: { 204: { description: 'Removed' } },
    problems: { 403: STAFF_ONLY, 404: `${NOT_VISIBLE}, or that user is not staff` },
    handler: async ({ params }, ctx, req) => {
      await revokeStaff(ctx, {
        actor: actorOf(req),
        eventId: params.event_id,
        staffUserId: parseId(params.user_id),
      });
      return { status: 204 };
    },
  }),
];
