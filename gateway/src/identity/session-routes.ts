import Joi from 'joi';
import { pageOf, pageQuerySchema, paginated, routeDeclarer, type AnyRouteSpec } from '@fieldhouse/http';
import { notFound } from '@fieldhouse/problem';
import { requireSignedIn } from './authenticate.ts';
import type { IdentityContext } from './identity-routes.ts';
import { IdentityPaths } from './paths.ts';
import { publicSessionId, type SessionListing } from './sessions-repo.ts';

const route = routeDeclarer<IdentityContext>();
const signedIn = () => [requireSignedIn];
const SESSION_OR_TOKEN = 'Signed in with a personal access token or the session cookie.';

/** A browser session as its user sees it. */
const sessionSchema = Joi.object({
  id: Joi.string().length(24).hex().required().description('Public id of the session (never its cookie)'),
  ip: Joi.string().allow(null).required().description('Client address when it was signed in'),
  user_agent: Joi.string().allow(null).required(),
  created_at: Joi.string().isoDate().required(),
  last_activity_at: Joi.string().isoDate().required().description('Updated at most once a minute'),
  expires_at: Joi.string().isoDate().required().description('Slides forward with activity'),
  current: Joi.boolean().required().description('The session this request came with'),
}).id('BrowserSession');

const toListed = (s: SessionListing, currentId: string | undefined) => ({
  id: s.id,
  ip: s.ip,
  user_agent: s.user_agent,
  created_at: s.created_at.toISOString(),
  last_activity_at: s.last_activity_at.toISOString(),
  expires_at: s.expires_at.toISOString(),
  current: s.id === currentId,
});

/**
 * The caller's signed-in browser sessions (docs/identity.md, "Browser sessions"): list them, end
 * one, end every other one ("sign out everywhere else"). Guest sessions (a CSRF cookie only) are
 * not listed. Personal access tokens are not sessions: they have their own routes.
 */
export const sessionRoutes: AnyRouteSpec<IdentityContext>[] = [
  /** GET /api/v1/sessions: the list envelope of `BrowserSession`, most recently active first. */
  route({
    method: 'get',
    path: IdentityPaths.sessions,
    operationId: 'listSessions',
    summary: "The caller's signed-in browser sessions, most recently active first",
    description: `${SESSION_OR_TOKEN} \`current\` marks the session of this request (none for a token).`,
    tags: ['sessions'],
    middleware: signedIn,
    query: Joi.object<{ page: number; per_page: number }>(pageQuerySchema),
    responses: {
      200: { description: 'A page of sessions (spec 2.1 envelope)', body: pageOf(sessionSchema) },
    },
    problems: { 401: 'Not signed in', 422: 'page or per_page out of range' },
    handler: async ({ query }, ctx, req) => {
      const all = await ctx.sessions.listForUser(req.identity.user!.id);
      const current = req.identity.sessionIdHash ? publicSessionId(req.identity.sessionIdHash) : undefined;
      const from = (query.page - 1) * query.per_page;
      const rows = all.slice(from, from + query.per_page).map((s) => toListed(s, current));
      return { body: paginated(rows, query, all.length) };
    },
  }),

  /**
   * DELETE /api/v1/sessions/others: 204; every session of the caller but the current one ends
   * (with a token: every session). Their next request is signed out.
   */
  route({
    method: 'delete',
    path: `${IdentityPaths.sessions}/others`,
    operationId: 'endOtherSessions',
    summary: 'Sign out everywhere else: end every other browser session of the caller',
    description: SESSION_OR_TOKEN,
    tags: ['sessions'],
    middleware: signedIn,
    responses: { 204: { description: 'The other sessions ended' } },
    problems: { 401: 'Not signed in', 403: 'Session without a valid X-XSRF-TOKEN header' },
    handler: async (_input, ctx, req) => {
      await ctx.sessions.destroyOthers(req.identity.user!.id, req.identity.sessionIdHash);
      return { status: 204 };
    },
  }),

  /** DELETE /api/v1/sessions/{session_id}: 204; that session of the caller ends. Unknown: 404. */
  route({
    method: 'delete',
    path: `${IdentityPaths.sessions}/{session_id}`,
    operationId: 'endSession',
    summary: 'End one browser session of the caller (the current one too: that is a sign-out)',
    description: SESSION_OR_TOKEN,
    tags: ['sessions'],
    middleware: signedIn,
    params: Joi.object<{ session_id: string }>({ session_id: Joi.string().length(24).hex().required() }),
    notFound: 'No such session.',
    responses: { 204: { description: 'Ended' } },
    problems: {
      401: 'Not signed in',
      403: 'Session without a valid X-XSRF-TOKEN header',
      404: 'No such session of the caller',
    },
    handler: async ({ params }, ctx, req) => {
      if (!(await ctx.sessions.destroyByPublicId(req.identity.user!.id, params.session_id)))
        throw notFound('No such session.');
      return { status: 204 };
    },
  }),
];
