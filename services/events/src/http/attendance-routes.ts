import { joiErrors } from '@fieldhouse/problem';
import { NO_EVENT } from '../domain/problems.ts';
import { attendance, eventStats, setPresence } from '../domain/attendance.ts';
import {
  checkedInMessage,
  checkIn,
  checkInBatch,
  refusalOf,
  type BatchItem,
  type CheckinOutcome,
  type Scan,
} from '../domain/checkin.ts';
import {
  Attendance,
  batchSchema,
  BatchResults,
  CheckedIn,
  PresenceResult,
  presenceSchema,
  scanSchema,
  Stats,
} from './attendance-schemas.ts';
import { eventParams } from './event-schemas.ts';
import { inviteParams } from './invite-schemas.ts';
import { actorOf, NO_INVITE, NOT_VISIBLE, notModified, route, scanActorOf } from './declare.ts';

const tags = ['Attendance'];

/** Parses each item of an offline batch with the scan schema: a scan, or its errors (and nonce when readable). */
function batchItem(item: unknown): BatchItem {
  const { value, error } = scanSchema.validate(item ?? {}, { abortEarly: false, stripUnknown: true });
  if (!error) return { scan: value };
  return { nonce: (value as Partial<Scan> | undefined)?.nonce ?? null, errors: joiErrors(error) };
}

/**
 * The HTTP answer of a check-in outcome (docs/events.md, "Check-in"): 200 `{result:
 * "checked_in", message, invite, checked_in_at, scanne_par}`, or the problem of a refusal (its
 * status, and its body with `result`). Every body carries `result`, so batch results and single
 * answers read the same.
 */
function answerOf(o: CheckinOutcome): { status: number; body: Record<string, unknown> } {
  if (o.result === 'checked_in' || o.result === 'checked_out')
    return { status: 200, body: { ...o, message: checkedInMessage(o) } };
  const refusal = refusalOf(o);
  return { status: refusal.status, body: refusal.toBody() };
}

/** Presence, scans (single and offline batch) and statistics of an event. */
export const attendanceRoutes = [
  /**
   * PUT /api/events/{event_id}/invites/{invite_id}/presence `{presence, scanne_par, device?,
   * scanned_at?}` (spec 2.3, 3): 200 `{success: true, message}`; the message names the invitee
   * as present (or absent). Every call is kept in the history. Owner and staff. 404 unknown
   * invite; 409 problem `revoked` when marking a revoked invite present; 422 bad body.
   */
  route({
    method: 'put',
    path: '/api/events/{event_id}/invites/{invite_id}/presence',
    operationId: 'setPresence',
    summary: 'Mark present or absent (spec 3); every call is kept in the history',
    description:
      'Spec 3: "PUT presence with presence=true: present; response success=true and a message naming the ' +
      'invitee as present". The message says e.g. "Marie Curie is marked present." or ' +
      '"Marie Curie is now marked absent.". Owner and staff.',
    tags,
    params: inviteParams,
    notFound: NO_EVENT,
    body: presenceSchema,
    parseBody: 'by-use-case',
    responses: {
      200: { description: 'success true and a message naming the invitee', body: PresenceResult },
    },
    problems: {
      404: NO_INVITE,
      409: 'Revoked invite marked present (code revoked)',
      422: 'Invalid body',
    },
    handler: async ({ params, readBody }, ctx, req) => {
      const { message } = await setPresence(ctx, {
        actor: actorOf(req),
        eventId: params.event_id,
        inviteId: params.invite_id,
        presence: readBody,
      });
      return { body: { success: true, message } };
    },
  }),

  /**
   * POST /api/events/{event_id}/checkin `{code_unique, nonce?, scanned_at?, device?, scanne_par?}`:
   * 200 `{result: "checked_in", message, invite, checked_in_at, scanne_par}`; problems 409
   * `already_checked_in` (with `checked_in_at`, `scanne_par`), 404 `unknown_code`, 422
   * `wrong_event`, 409 `revoked`, 422 bad body. A repeated nonce answers the first answer again
   * with `Idempotent-Replayed: true` and changes nothing. Owner and staff.
   */
  route({
    method: 'post',
    path: '/api/events/{event_id}/checkin',
    operationId: 'checkIn',
    summary:
      'Scan a code: exactly one of concurrent scans of one code succeeds; a repeated nonce replays the first answer (header Idempotent-Replayed: true)',
    description:
      'Every answer carries `result`: `checked_in` or `checked_out` (200), or a problem: `already_checked_in` ' +
      '(409, with `invite`, `checked_in_at`, `scanne_par`; at a gate the `gate` and `entered_at` of the entry ' +
      'still open), `unknown_code` (404), `wrong_event` (422, the other event is not named), `revoked` (409, ' +
      'with `invite`), `seats_exceeded`, `no_reentry`, `not_inside`, `not_admitted` (409), ' +
      '`exits_not_scanned` (422). Optional `gate_id`, `direction` (entry, exit) and `people` (of a party; ' +
      'default: all who can): docs/events.md, "Gates" and "Parties". Owner, staff and scanner devices.',
    tags,
    params: eventParams,
    notFound: NO_EVENT,
    body: scanSchema,
    parseBody: 'by-use-case',
    responses: {
      200: {
        description: 'result checked_in',
        body: CheckedIn,
        headers: {
          'Idempotent-Replayed': {
            description: '`true` when this is the stored answer of an earlier scan with the same nonce',
            schema: { type: 'string', enum: ['true'] },
          },
        },
      },
    },
    problems: {
      404: 'result unknown_code, or an unknown event',
      409:
        'result already_checked_in (with checked_in_at, scanne_par, invite; at a gate also gate and entered_at), ' +
        'revoked (with invite), seats_exceeded (remaining), no_reentry (exited_at), not_inside (inside), ' +
        'not_admitted (the gate does not admit the invite type)',
      422: 'result wrong_event (code of another event), exits_not_scanned, an unknown gate_id, or an invalid body',
    },
    handler: async ({ params, readBody }, ctx, req) => {
      const { outcome, replayed } = await checkIn(ctx, {
        actor: scanActorOf(req),
        eventId: params.event_id,
        scan: readBody,
      });
      const answer = answerOf(outcome);
      return {
        status: answer.status,
        body: answer.body,
        headers: {
          ...(replayed ? { 'Idempotent-Replayed': 'true' } : {}),
          ...(answer.status === 200 ? {} : { 'Content-Type': 'application/problem+json' }),
        },
      };
    },
  }),

  /**
   * POST /api/events/{event_id}/checkin/batch `{scans: [scan...], device?}` (1 to 500 offline
   * scans, applied in order): 200 `{results: [{index, nonce, status, replayed, ...body}]}` where
   * `status` and the body are what the single endpoint would answer for that scan (`result`
   * names the outcome; an invalid item gets status 422 with `errors`). One bad scan never fails
   * the others. Owner and staff.
   */
  route({
    method: 'post',
    path: '/api/events/{event_id}/checkin/batch',
    operationId: 'checkInBatch',
    summary: 'Offline scans, applied in order, one result per scan; bad items never fail the others',
    description:
      '`results[i]`: `{index, nonce, replayed, status, result, ...}` where status and body are what ' +
      '`POST /checkin` answers for that scan; invalid items: status 422, result `invalid`, `errors`. ' +
      '`device` applies to the scans that name none. Owner and staff.',
    tags,
    params: eventParams,
    notFound: NO_EVENT,
    body: batchSchema,
    parseBody: 'by-use-case',
    responses: { 200: { description: 'One result per scan, in order', body: BatchResults } },
    problems: { 404: NOT_VISIBLE, 422: 'Invalid body (no scans, more than 500)' },
    handler: async ({ params, readBody }, ctx, req) => {
      const results = await checkInBatch(ctx, {
        actor: scanActorOf(req),
        eventId: params.event_id,
        batch: () => {
          const body = readBody();
          return { ...(body.device ? { device: body.device } : {}), items: body.scans.map(batchItem) };
        },
      });
      return {
        body: {
          results: results.map(({ index, nonce, ...r }) => {
            if ('invalid' in r)
              return { index, nonce, replayed: false, ...r.invalid.toBody(), result: 'invalid' };
            const answer = answerOf(r.outcome);
            return { index, nonce, replayed: r.replayed, ...answer.body, status: answer.status };
          }),
        },
      };
    },
  }),

  /**
   * GET /api/events/{event_id}/stats (spec 4.3): `{total, present, absent, taux}` over the active
   * (non-revoked) invites; `taux` = floor(100 * present / total), 0 without invites. Owner and staff.
   */
  route({
    method: 'get',
    path: '/api/events/{event_id}/stats',
    operationId: 'getEventStats',
    summary: 'Attendance statistics of active (non-revoked) invites (spec 4.3)',
    tags,
    params: eventParams,
    notFound: NO_EVENT,
    responses: {
      ...notModified,
      200: { description: 'taux = floor(100 * present / total), 0 without invites', body: Stats },
    },
    problems: { 404: NOT_VISIBLE },
    handler: async ({ params }, ctx, req) => ({
      body: await eventStats(ctx, { actor: scanActorOf(req), eventId: params.event_id }),
    }),
  }),

  /**
   * GET /api/events/{event_id}/attendance: `{stats, arrivals: [{from, count}], latest: [...]}`,
   * the live attendance (statistics, arrivals per 10 minutes, latest 20 check-ins with who
   * scanned). Owner and staff.
   */
  route({
    method: 'get',
    path: '/api/events/{event_id}/attendance',
    operationId: 'getAttendance',
    summary: 'Live attendance: statistics, arrivals per 10 minutes, latest check-ins (owner and staff)',
    description:
      'For the console’s attendance page (polled every 2 s). `arrivals` counts the present, active invites by ' +
      'the 10-minute window of their check-in time; `latest` lists the 20 latest changes to present with the ' +
      'scanner device or user.',
    tags,
    params: eventParams,
    notFound: NO_EVENT,
    responses: { ...notModified, 200: { description: 'The attendance', body: Attendance } },
    problems: { 404: NOT_VISIBLE },
    handler: async ({ params }, ctx, req) => ({
      body: await attendance(ctx, { actor: actorOf(req), eventId: params.event_id }),
    }),
  }),
];
