import { problemResponse as problem, schemaRef as ref, sharedOpenApiSchemas } from '@fieldhouse/http';
import { INVITE_TYPES } from './domain/invite-types.ts';

/* OpenAPI 3.1 description of every area C route (spec 2.3, 3, 4.3, 5.6, 7; docs/events.md). */

const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const eventId = { name: 'event_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
const inviteId = {
  name: 'invite_id',
  in: 'path',
  required: true,
  schema: { type: 'string', format: 'uuid' },
};
const e401 = problem('Not signed in (spec 5.6)');
const e404 = problem('Unknown event or invite, or the caller is neither owner nor staff');
const e403 = problem('The caller is staff of the event, not its owner');
const e422 = problem('Validation error: `errors` maps each field to its messages');
const localDateTime = {
  type: 'string',
  description: 'Date-time without zone, ISO 8601 (YYYY-MM-DDTHH:MM[:SS[.ffffff]]), kept as given',
  examples: ['2026-06-01T18:30:00'],
};
const scan = {
  type: 'object',
  required: ['code_unique'],
  properties: {
    code_unique: { type: 'string', description: 'Scanned code; case, spaces and dashes ignored' },
    nonce: {
      type: 'string',
      maxLength: 128,
      description: 'Client scan id: the same nonce counts once per event',
    },
    scanned_at: {
      type: 'string',
      format: 'date-time',
      description: 'When scanned (offline scans); at most 5 min ahead',
    },
    device: { type: 'string', maxLength: 255, description: 'Scanning device; default: the User-Agent' },
    scanne_par: { type: 'string', maxLength: 255, description: 'Who scanned; default: the caller name' },
  },
};

/** The document served at /openapi.json (the gateway shows it under /docs). */
export const openApi = {
  openapi: '3.1.0',
  info: {
    title: 'Fieldhouse Area C: event invitations',
    version: '1.0.0',
    description:
      'Events, invites, presence, check-in and statistics. Every route needs `Authorization: Bearer <token>` ' +
      '(from `POST /api/login`). Only the owner of an event and its staff see it: anyone else gets 404. ' +
      'Errors are RFC 9457 problem documents. Decisions: docs/events.md.',
  },
  servers: [{ url: '/' }],
  security: [{ bearer: [] }],
  paths: {
    '/api/events': {
      get: {
        summary: 'Events the caller owns or is staff of, ordered by start date (spec 4.3)',
        parameters: [
          {
            name: 'when',
            in: 'query',
            schema: { type: 'string', enum: ['upcoming', 'past', 'all'], default: 'all' },
            description: 'upcoming: end (else start) >= now UTC; past: ended before now',
          },
        ],
        responses: {
          '200': { description: 'JSON array', ...json({ type: 'array', items: ref('EventSummary') }) },
          '401': e401,
          '422': e422,
        },
      },
      post: {
        summary: 'Create an event; the caller owns it',
        requestBody: { required: true, ...json(ref('EventInput')) },
        responses: { '201': { description: 'Created', ...json(ref('Event')) }, '401': e401, '422': e422 },
      },
    },
    '/api/events/{event_id}': {
      parameters: [eventId],
      get: {
        summary: 'Event detail (spec 4.3)',
        responses: { '200': { description: 'Event', ...json(ref('Event')) }, '401': e401, '404': e404 },
      },
      put: {
        summary: 'Update the fields given (owner)',
        requestBody: { required: true, ...json(ref('EventPatch')) },
        responses: {
          '200': { description: 'Event', ...json(ref('Event')) },
          '401': e401,
          '403': e403,
          '404': e404,
          '422': e422,
        },
      },
      patch: {
        summary: 'Same as PUT',
        requestBody: { required: true, ...json(ref('EventPatch')) },
        responses: {
          '200': { description: 'Event', ...json(ref('Event')) },
          '401': e401,
          '403': e403,
          '404': e404,
          '422': e422,
        },
      },
      delete: {
        summary: 'Delete the event, its invites and history (owner)',
        responses: { '204': { description: 'Deleted' }, '401': e401, '403': e403, '404': e404 },
      },
    },
    '/api/events/{event_id}/staff': {
      parameters: [eventId],
      get: {
        summary: 'Users with the check-in role (owner)',
        responses: {
          '200': { description: 'Staff', ...json({ type: 'array', items: ref('Staff') }) },
          '403': e403,
          '404': e404,
        },
      },
      post: {
        summary: 'Grant the check-in role by user id or e-mail (owner)',
        requestBody: {
          required: true,
          ...json({
            oneOf: [
              { type: 'object', required: ['user_id'], properties: { user_id: { type: 'integer' } } },
              {
                type: 'object',
                required: ['email'],
                properties: { email: { type: 'string', format: 'email' } },
              },
            ],
          }),
        },
        responses: {
          '201': { description: 'Granted', ...json(ref('Staff')) },
          '403': e403,
          '404': e404,
          '422': problem('Unknown user, or the owner'),
        },
      },
    },
    '/api/events/{event_id}/staff/{user_id}': {
      parameters: [eventId, { name: 'user_id', in: 'path', required: true, schema: { type: 'integer' } }],
      delete: {
        summary: 'Remove the check-in role (owner)',
        responses: { '204': { description: 'Removed' }, '403': e403, '404': e404 },
      },
    },
    '/api/events/{event_id}/invites': {
      parameters: [eventId],
      get: {
        summary: 'Invites, paginated (spec 2.1 envelope), ordered by nom',
        parameters: [
          { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
          {
            name: 'per_page',
            in: 'query',
            schema: { type: 'integer', minimum: 1, maximum: 100, default: 15 },
          },
          {
            name: 'search',
            in: 'query',
            schema: { type: 'string' },
            description: 'Part of nom or email (case-insensitive), or a whole code',
          },
          { name: 'type_invite', in: 'query', schema: { type: 'string', enum: INVITE_TYPES } },
          { name: 'presence', in: 'query', schema: { type: 'boolean' } },
          { name: 'revoked', in: 'query', schema: { type: 'boolean' } },
        ],
        responses: {
          '200': {
            description: 'Page',
            ...json({
              type: 'object',
              properties: { data: { type: 'array', items: ref('Invite') }, pagination: ref('Pagination') },
            }),
          },
          '404': e404,
          '422': e422,
        },
      },
      post: {
        summary: 'Invite someone (owner, spec 4.3); the invitation e-mail with the QR code is queued',
        requestBody: { required: true, ...json(ref('InviteInput')) },
        responses: {
          '201': {
            description: 'Exactly {id, nom, code_unique}',
            ...json({
              type: 'object',
              required: ['id', 'nom', 'code_unique'],
              properties: {
                id: { type: 'string', format: 'uuid' },
                nom: { type: 'string' },
                code_unique: {
                  type: 'string',
                  description: '22 symbols of 23456789ABCDEFGHJKMNPQRSTWXYZ (~107 bits)',
                },
              },
            }),
          },
          '403': e403,
          '404': e404,
          '422': problem(
            'Invalid field, unknown type_invite, or e-mail already invited to this event (code email_taken)',
          ),
        },
      },
    },
    '/api/events/{event_id}/invites/import': {
      parameters: [eventId],
      post: {
        summary:
          'Bulk import from CSV (owner): columns nom, email, type_invite (optional); `,` or `;`; one result per row',
        requestBody: {
          required: true,
          content: {
            'text/csv': { schema: { type: 'string' } },
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: { file: { type: 'string', contentMediaType: 'text/csv' } },
              },
            },
          },
        },
        responses: {
          '200': { description: 'Per-row results', ...json(ref('ImportResult')) },
          '400': problem('No CSV in the request'),
          '403': e403,
          '404': e404,
          '413': problem('CSV over 5 MB'),
          '422': problem('Unusable file: no header with nom and email, broken quoting, over 5000 rows'),
        },
      },
    },
    '/api/events/{event_id}/invites/{invite_id}': {
      parameters: [eventId, inviteId],
      get: {
        summary: 'Invite',
        responses: { '200': { description: 'Invite', ...json(ref('Invite')) }, '404': e404 },
      },
      put: {
        summary: 'Update nom, email, type_invite or revoked (owner)',
        requestBody: { required: true, ...json(ref('InvitePatch')) },
        responses: {
          '200': { description: 'Invite', ...json(ref('Invite')) },
          '403': e403,
          '404': e404,
          '422': e422,
        },
      },
      patch: {
        summary: 'Same as PUT',
        requestBody: { required: true, ...json(ref('InvitePatch')) },
        responses: {
          '200': { description: 'Invite', ...json(ref('Invite')) },
          '403': e403,
          '404': e404,
          '422': e422,
        },
      },
      delete: {
        summary: 'Delete the invite and its history (owner); its code becomes unknown',
        responses: { '204': { description: 'Deleted' }, '403': e403, '404': e404 },
      },
    },
    '/api/events/{event_id}/invites/{invite_id}/history': {
      parameters: [eventId, inviteId],
      get: {
        summary: 'Every presence change and check-in of the invite, oldest first',
        responses: {
          '200': { description: 'History', ...json({ type: 'array', items: ref('HistoryEntry') }) },
          '404': e404,
        },
      },
    },
    '/api/events/{event_id}/invites/{invite_id}/qr.png': {
      parameters: [eventId, inviteId],
      get: {
        summary: 'QR code of code_unique, PNG 300 px',
        responses: { '200': { description: 'PNG', content: { 'image/png': {} } }, '404': e404 },
      },
    },
    '/api/events/{event_id}/invites/{invite_id}/qr.svg': {
      parameters: [eventId, inviteId],
      get: {
        summary: 'QR code of code_unique, SVG',
        responses: { '200': { description: 'SVG', content: { 'image/svg+xml': {} } }, '404': e404 },
      },
    },
    '/api/events/{event_id}/invites/{invite_id}/presence': {
      parameters: [eventId, inviteId],
      put: {
        summary: 'Mark present or absent (spec 3); every call is kept in the history',
        requestBody: {
          required: true,
          ...json({
            type: 'object',
            required: ['presence'],
            properties: {
              presence: { type: 'boolean' },
              scanne_par: { type: 'string' },
              device: { type: 'string' },
              scanned_at: { type: 'string', format: 'date-time' },
            },
          }),
        },
        responses: {
          '200': {
            description:
              'success true; message e.g. "Marie Curie is marked present." / "Marie Curie is now marked absent."',
            ...json({
              type: 'object',
              required: ['success', 'message'],
              properties: { success: { type: 'boolean' }, message: { type: 'string' } },
            }),
          },
          '404': e404,
          '409': problem('Revoked invite marked present (code revoked)'),
          '422': e422,
        },
      },
    },
    '/api/events/{event_id}/checkin': {
      parameters: [eventId],
      post: {
        summary:
          'Scan a code: exactly one of concurrent scans of one code succeeds; a repeated nonce replays the first answer (header Idempotent-Replayed: true)',
        requestBody: { required: true, ...json(scan) },
        responses: {
          '200': { description: 'result checked_in', ...json(ref('CheckedIn')) },
          '404': problem('result unknown_code'),
          '409': problem(
            'result already_checked_in (with checked_in_at, scanne_par, invite) or revoked (with invite)',
          ),
          '422': problem('result wrong_event (code of another event), or an invalid body'),
        },
      },
    },
    '/api/events/{event_id}/checkin/batch': {
      parameters: [eventId],
      post: {
        summary: 'Offline scans, applied in order, one result per scan; bad items never fail the others',
        requestBody: {
          required: true,
          ...json({
            type: 'object',
            required: ['scans'],
            properties: {
              device: { type: 'string' },
              scans: { type: 'array', minItems: 1, maxItems: 500, items: scan },
            },
          }),
        },
        responses: {
          '200': {
            description:
              'results[i]: {index, nonce, replayed, status, result, ...} where status/body are what POST /checkin answers; invalid items: status 422, result invalid, errors',
            ...json({
              type: 'object',
              properties: { results: { type: 'array', items: { type: 'object' } } },
            }),
          },
          '404': e404,
          '422': e422,
        },
      },
    },
    '/api/events/{event_id}/stats': {
      parameters: [eventId],
      get: {
        summary: 'Attendance statistics of active (non-revoked) invites (spec 4.3)',
        responses: {
          '200': {
            description: 'taux = floor(100 * present / total), 0 without invites',
            ...json(ref('Stats')),
          },
          '404': e404,
        },
      },
    },
    '/api/events/_whoami': {
      get: {
        summary: 'The caller as the gateway describes it',
        responses: {
          '200': { description: 'Caller' },
          '401': { description: 'Not sent through the gateway' },
        },
      },
    },
  },
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    schemas: {
      ...sharedOpenApiSchemas,
      EventSummary: {
        type: 'object',
        properties: {
          id: { type: 'string', format: 'uuid' },
          name: { type: 'string' },
          start_date: localDateTime,
          location: { type: 'string' },
        },
      },
      Event: {
        type: 'object',
        properties: {
          id: { type: 'string', format: 'uuid' },
          name: { type: 'string' },
          description: { type: 'string' },
          start_date: localDateTime,
          end_date: { ...localDateTime, type: ['string', 'null'] },
          location: { type: 'string' },
        },
      },
      EventInput: {
        type: 'object',
        required: ['name', 'start_date', 'location'],
        properties: {
          name: { type: 'string', maxLength: 255 },
          description: { type: 'string' },
          start_date: localDateTime,
          end_date: { ...localDateTime, type: ['string', 'null'] },
          location: { type: 'string', maxLength: 500 },
        },
      },
      EventPatch: {
        type: 'object',
        minProperties: 1,
        properties: {
          name: { type: 'string' },
          description: { type: 'string' },
          start_date: localDateTime,
          end_date: { ...localDateTime, type: ['string', 'null'] },
          location: { type: 'string' },
        },
      },
      Staff: {
        type: 'object',
        properties: {
          user_id: { type: 'integer' },
          name: { type: 'string' },
          email: { type: 'string' },
          granted_at: { type: 'string', format: 'date-time' },
        },
      },
      InviteInput: {
        type: 'object',
        required: ['nom', 'email'],
        properties: {
          nom: { type: 'string', maxLength: 255 },
          email: { type: 'string', format: 'email' },
          type_invite: { type: 'string', enum: INVITE_TYPES, default: 'standard' },
        },
      },
      InvitePatch: {
        type: 'object',
        minProperties: 1,
        properties: {
          nom: { type: 'string' },
          email: { type: 'string', format: 'email' },
          type_invite: { type: 'string', enum: INVITE_TYPES },
          revoked: { type: 'boolean' },
        },
      },
      Invite: {
        type: 'object',
        properties: {
          id: { type: 'string', format: 'uuid' },
          event_id: { type: 'string', format: 'uuid' },
          nom: { type: 'string' },
          email: { type: 'string' },
          type_invite: { type: 'string', enum: INVITE_TYPES },
          code_unique: { type: 'string' },
          presence: { type: 'boolean' },
          checked_in_at: { type: ['string', 'null'], format: 'date-time' },
          scanne_par: { type: ['string', 'null'] },
          revoked: { type: 'boolean' },
          revoked_at: { type: ['string', 'null'], format: 'date-time' },
          created_at: { type: 'string', format: 'date-time' },
          updated_at: { type: 'string', format: 'date-time' },
        },
      },
      HistoryEntry: {
        type: 'object',
        properties: {
          action: { type: 'string', enum: ['presence', 'checkin'] },
          presence: { type: 'boolean' },
          previous: { type: 'boolean' },
          scanne_par: { type: ['string', 'null'] },
          user_id: { type: 'integer' },
          user_name: { type: ['string', 'null'] },
          device: { type: ['string', 'null'] },
          nonce: { type: ['string', 'null'] },
          scanned_at: { type: 'string', format: 'date-time' },
          recorded_at: { type: 'string', format: 'date-time' },
        },
      },
      ImportResult: {
        type: 'object',
        properties: {
          created: { type: 'integer' },
          failed: { type: 'integer' },
          results: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                row: { type: 'integer', description: 'CSV line (header = 1)' },
                status: { type: 'string', enum: ['created', 'failed'] },
                id: { type: 'string' },
                nom: { type: 'string' },
                code_unique: { type: 'string' },
                errors: { type: 'object' },
              },
            },
          },
        },
      },
      CheckedIn: {
        type: 'object',
        properties: {
          result: { const: 'checked_in' },
          message: { type: 'string' },
          invite: {
            type: 'object',
            properties: { id: { type: 'string' }, nom: { type: 'string' }, type_invite: { type: 'string' } },
          },
          checked_in_at: { type: 'string', format: 'date-time' },
          scanne_par: { type: ['string', 'null'] },
        },
      },
      Stats: {
        type: 'object',
        properties: {
          total: { type: 'integer' },
          present: { type: 'integer' },
          absent: { type: 'integer' },
          taux: { type: 'integer', minimum: 0, maximum: 100 },
        },
      },
    },
  },
};
