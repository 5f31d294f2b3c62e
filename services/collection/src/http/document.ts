import { openApiDocument } from '@fieldhouse/http';
import { collectionRouteSpecs } from './router.ts';

/**
 * The collection service's OpenAPI 3.1 document, generated from its route declarations;
 * served at /openapi.json (and by the gateway at /docs/collection.json).
 */
export const collectionDocument = openApiDocument({
  title: 'Fieldhouse Area A: data collection',
  description:
    'Workspaces, projects, form versions and fields, submissions, exports, offline sync, publication and ' +
    'analyses (spec 2.1, 4.1). Routes need `Authorization: Bearer <token>` (or the session cookie) through the ' +
    'gateway, except the collection routes of a project open to anonymous collectors. Errors are RFC 9457 ' +
    'problem documents. Decisions: docs/collection.md.',
  routes: collectionRouteSpecs,
  commonProblems: {
    401: 'Not signed in',
    413: 'Request body too large',
  },
});
