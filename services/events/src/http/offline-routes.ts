import { myEventAccess } from '../domain/access.ts';
import { offlineChanges, offlineSnapshot, signedCodeOf, signingKeys } from '../domain/offline-list.ts';
import { NO_EVENT } from '../domain/problems.ts';
import { eventParams } from './event-schemas.ts';
import { inviteParams } from './invite-schemas.ts';
import {
  changesQuery,
  EventAccessList,
  OfflineChanges,
  OfflineSnapshotPage,
  SignedCode,
  SigningKeys,
  snapshotQuery,
} from './offline-schemas.ts';
import { actorOf, NO_INVITE, NOT_VISIBLE, route, scanActorOf } from './declare.ts';
import { sendJsonWith } from './json-text.ts';

const tags = ['Offline scanners'];

/** Routes matched before `/api/events/{event_id}`: the caller's roles. */
export const accessRoutes = [
  /** GET /api/events/access: `{events: [{event_id, role, permissions}]}` of the events the caller owns or staffs. */
  route({
    method: 'get',
    path: '/api/events/access',
    operationId: 'listEventAccess',
    summary: 'The caller’s role and permissions in each event they own or staff',
    description:
      'For the console, which shows each role only what it may do (docs/events.md, "Who may do what"). ' +
      'Events the caller neither owns nor staffs are not listed.',
    tags: ['Events'],
    responses: { 200: { description: 'Roles by event', body: EventAccessList } },
    problems: { 403: 'A scanner device (scope checkin)' },
    handler: async (_input, ctx, req) => ({ body: { events: await myEventAccess(ctx, actorOf(req)) } }),
  }),
];

/** The offline copy of scanners (devices, staff and owner), and signed codes. */
export const offlineRoutes = [
  /**
   * GET /api/events/{event_id}/checkin/snapshot?page&limit: a page of the invitees (by id) for a
   * scanner's offline copy; the last page gives the changes cursor. Owner, staff, the event's devices.
   */
  route({
    method: 'get',
    path: '/api/events/{event_id}/checkin/snapshot',
    operationId: 'getCheckinSnapshot',
    summary: 'Download the invitees for offline scanning, a page at a time',
    description:
      'Each invitee: id, nom, type_invite, code_hash (SHA-256 of the code, first 16 bytes, base64url), status ' +
      '(valid, checked_in, revoked), checked_in_at, scanne_par. Follow `next_page` until it is null; the last ' +
      'page gives `cursor`, from which `GET .../checkin/changes` gives what changed since the first page.',
    tags,
    params: eventParams,
    notFound: NO_EVENT,
    query: snapshotQuery,
    responses: { 200: { description: 'A page of invitees', body: OfflineSnapshotPage } },
    problems: { 404: NOT_VISIBLE, 422: 'Invalid page token or limit' },
    handler: async ({ params, query }, ctx, req, res) => {
      const { invitees, version, ...page } = await offlineSnapshot(ctx, {
        actor: scanActorOf(req),
        eventId: params.event_id,
        ...(query.page ? { page: query.page } : {}),
        ...(query.limit ? { limit: query.limit } : {}),
      });
      sendJsonWith(res, { key: 'invitees', json: invitees, version }, page);
    },
  }),

  /**
   * GET /api/events/{event_id}/checkin/changes?cursor&limit: invitees changed since the cursor
   * (new, checked in anywhere, revoked...), ids deleted, the next cursor. Owner, staff, devices.
   */
  route({
    method: 'get',
    path: '/api/events/{event_id}/checkin/changes',
    operationId: 'getCheckinChanges',
    summary: 'Invitees changed since a cursor, for offline scanners (poll every few seconds)',
    description:
      'Changes come in their present state; one may come twice (applying it again changes nothing). With ' +
      '`more: true` ask again at once with the new cursor.',
    tags,
    params: eventParams,
    notFound: NO_EVENT,
    query: changesQuery,
    responses: { 200: { description: 'Changes and the next cursor', body: OfflineChanges } },
    problems: { 404: NOT_VISIBLE, 422: 'Invalid cursor or limit' },
    handler: async ({ params, query }, ctx, req, res) => {
      const { changes, version, ...rest } = await offlineChanges(ctx, {
        actor: scanActorOf(req),
        eventId: params.event_id,
        cursor: query.cursor,
        ...(query.limit ? { limit: query.limit } : {}),
      });
      sendJsonWith(res, { key: 'changes', json: changes, version }, rest);
    },
  }),

  /** GET /api/events/{event_id}/checkin/keys: `{algorithm, public_key, revoked}` for signed codes. */
  route({
    method: 'get',
    path: '/api/events/{event_id}/checkin/keys',
    operationId: 'getCheckinKeys',
    summary: 'The event’s public key and revocation list, to check signed codes without the list',
    tags,
    params: eventParams,
    notFound: NO_EVENT,
    responses: { 200: { description: 'Public key and revoked invite ids', body: SigningKeys } },
    problems: { 404: `${NOT_VISIBLE}, or signed codes are off` },
    handler: async ({ params }, ctx, req) => ({
      body: await signingKeys(ctx, { actor: scanActorOf(req), eventId: params.event_id }),
    }),
  }),

  /** GET /api/events/{event_id}/invites/{invite_id}/signed-code: the invite's signed code. Owner and staff. */
  route({
    method: 'get',
    path: '/api/events/{event_id}/invites/{invite_id}/signed-code',
    operationId: 'getSignedCode',
    summary: 'The signed form of an invite’s code (Ed25519), for badges checked without the list',
    tags,
    params: inviteParams,
    notFound: NO_EVENT,
    responses: { 200: { description: 'The signed code', body: SignedCode } },
    problems: { 404: `${NO_INVITE}, or signed codes are off` },
    handler: async ({ params }, ctx, req) => ({
      body: await signedCodeOf(ctx, {
        actor: actorOf(req),
        eventId: params.event_id,
        inviteId: params.invite_id,
      }),
    }),
  }),
];
