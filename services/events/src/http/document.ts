import { openApiDocument, type OpenApiDocument } from '@fieldhouse/http';
import { eventsRouteSpecs } from './router.ts';

/** The events service's OpenAPI 3.1 document, generated from its route declarations; served at /openapi.json. */
export const eventsDocument: OpenApiDocument = openApiDocument({
  title: 'Fieldhouse Area C: event invitations',
  description:
    'Events, invites, presence, check-in and statistics (spec 2.3, 3, 4.3). Every route needs ' +
    '`Authorization: Bearer <token>` (from `POST /api/login`; spec 5.6: "every endpoint other than login ' +
    'requires the header Authorization: Bearer <ACCESS_TOKEN>"). Only the owner of an event and its staff ' +
    'see it: anyone else gets 404. Errors are RFC 9457 problem documents. Decisions: docs/events.md.',
  routes: eventsRouteSpecs,
  commonProblems: {
    401: 'Not signed in (spec 5.6)',
    413: 'Request body too large',
  },
});
