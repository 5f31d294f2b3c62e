import { openApiDocument } from '@fieldhouse/http';
import { accountRoutes } from '../identity/account-routes.ts';
import { deviceSetupRoute } from '../identity/device-setup-route.ts';
import { identityRoutes } from '../identity/identity-routes.ts';
import { sessionRoutes } from '../identity/session-routes.ts';
import { consoleSettingsRoute } from '../console/console-settings-route.ts';
import { jwksRoute } from '../proxy/jwks-route.ts';

/**
 * The OpenAPI 3.1 document of the routes the gateway serves itself (identity, CSRF cookie,
 * JWKS, the console's settings), generated from their declarations; served at `/docs/gateway.json`.
 */
export const gatewayDocument = openApiDocument({
  title: 'Fieldhouse gateway: identity',
  description:
    'Users, personal access tokens and browser sessions. Every other `/api` route is proxied: `/api/v1/*` to ' +
    'the collection service, `/api/polls*` to polls, `/api/events*` to events (see their documents). Errors are ' +
    'RFC 9457 problem documents with Laravel-compatible `message` and `errors`.',
  routes: [
    ...identityRoutes,
    ...accountRoutes,
    ...sessionRoutes,
    deviceSetupRoute,
    jwksRoute,
    consoleSettingsRoute,
  ],
  commonProblems: {
    401: 'A token or session that is not valid (malformed, expired, revoked)',
    429: 'Too many requests (`rate_limited`; `Retry-After` in seconds)',
  },
  security: [{ bearer: [] }, { session: [] }],
  securitySchemes: {
    bearer: {
      type: 'http',
      scheme: 'bearer',
      description:
        'Personal access token `<id>|<secret>`, or a scanner device credential `fhd_<id>|<secret>`.',
    },
    session: {
      type: 'apiKey',
      in: 'cookie',
      name: 'fieldhouse_session',
      description: 'Session cookie; unsafe methods also need the XSRF-TOKEN cookie value in X-XSRF-TOKEN.',
    },
  },
});
