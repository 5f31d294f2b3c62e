import type { Request, RequestHandler, Response } from 'express';
import Joi from 'joi';
import {
  pageOf,
  pageQuerySchema,
  paginated,
  pathIdSchema,
  routeDeclarer,
  type AnyRouteSpec,
} from '@fieldhouse/http';
import {
  forbidden,
  notFound,
  tooManyRequests,
  unauthenticated,
  unprocessable,
  validationFailed,
} from '@fieldhouse/problem';
import type { AccountLimiters } from './account-limits.ts';
import type { AccountService } from './account-service.ts';
import { requireSignedIn } from './authenticate.ts';
import { clearSessionCookies, setSessionCookies, type SessionCookieSettings } from './cookies.ts';
import {
  accountSchema,
  createdTokenAnswer,
  loginAnswer,
  loginBody,
  registerBody,
  tokenBody,
  tokenSchema,
  type LoginCommand,
} from './identity-schemas.ts';
import type { IdentityService } from './identity-service.ts';
import type { LoginThrottle } from './login-throttle.ts';
import { passwordTooLong, MAX_PASSWORD_BYTES } from './passwords.ts';
import { IdentityPaths } from './paths.ts';
import type { SessionsRepo } from './sessions-repo.ts';
import type { SetupCodeRedeemer } from '../proxy/setup-code-redeemer.ts';
import type { Logger } from '@fieldhouse/logger';
import type { TokenCache } from './token-cache.ts';
import { toPublicToken } from './tokens-repo.ts';
import { toPublicUser, type UserRow } from './users-repo.ts';

/** What the identity routes need (built once by the gateway's app). */
export interface IdentityContext {
  identity: IdentityService;
  sessions: SessionsRepo;
  tokenCache: TokenCache;
  cookies: SessionCookieSettings;
  registrationEnabled: boolean;
  /** The JSON body parser of the identity routes (proxied routes never get one). */
  json: RequestHandler;
  /** Limits failed logins per (IP, e-mail); runs after the body is parsed. */
  loginLimiter: RequestHandler;
  /** Limits failed logins per account, whatever the address (backoff, see login-throttle.ts). */
  loginThrottle: LoginThrottle;
  /** Exchanges a scanner device's setup code at the events service (device-setup-route.ts). */
  redeemSetupCode: SetupCodeRedeemer;
  /** Profile, password change and reset, e-mail verification (account-routes.ts). */
  accounts: AccountService;
  /** Limits on the routes that send account e-mails. */
  accountLimiters: AccountLimiters;
  logger: Logger;
}

const route = routeDeclarer<IdentityContext>();
const signedIn = () => [requireSignedIn];
const SESSION_OR_TOKEN = 'Signed in with a personal access token or the session cookie.';

const tooLong = () =>
  unprocessable('password', `The password may not be greater than ${MAX_PASSWORD_BYTES} bytes.`);

/**
 * Signs the caller's browser session in as `userId`, if the request came with one (an SPA after
 * `GET /api/v1/csrf-cookie`): the guest session is ended and a new one, under a new id (no
 * session fixation), gets the cookies. Bearer-token clients have no session: nothing happens.
 */
async function signInSession(ctx: IdentityContext, req: Request, res: Response, userId: number) {
  if (!req.identity.sessionIdHash) return;
  await ctx.sessions.destroy(req.identity.sessionIdHash);
  const s = await ctx.sessions.create(userId, { ip: req.ip, userAgent: req.get('user-agent') });
  setSessionCookies(res, ctx.cookies, s.cookie, s.csrfToken);
}

/** `{id, name, email}`: the user object of the login response (spec 2.1). */
const loginUser = (u: UserRow) => ({ id: u.id, name: u.name, email: u.email });

/**
 * Login (spec 4.1, 4.3): `{email, password, device_name?}` → 200 `{token, user: {id, name,
 * email}}`; wrong credentials 401; a password over 72 bytes 422; too many failures 429 with
 * `Retry-After` (per address and e-mail, and per account with backoff: the password is then not
 * checked at all). A client holding a session (SPA, after the CSRF cookie call) is signed in to
 * that session too, with a new session id.
 */
const loginRoute = (path: string, operationId: string, summary: string) =>
  route({
    method: 'post',
    path,
    operationId,
    summary,
    description:
      'Wrong credentials: 401 `invalid_credentials`. Failed attempts are limited per IP and e-mail, and per ' +
      'account with a growing delay (429 with Retry-After; docs/identity.md, "Login throttling"). A browser ' +
      'session (after GET /api/v1/csrf-cookie) is signed in too, under a new session id.',
    tags: ['identity'],
    access: 'public',
    middleware: (ctx) => [ctx.json, ctx.loginLimiter],
    body: loginBody,
    responses: { 200: { description: 'Signed in', body: loginAnswer } },
    problems: {
      401: 'Wrong e-mail or password (`invalid_credentials`)',
      422: 'Missing field, or a password over 72 bytes',
      429: 'Too many failed logins (`Retry-After` in seconds)',
    },
    handler: async ({ body }: { body: LoginCommand }, ctx, req, res) => {
      if (passwordTooLong(body.password)) throw tooLong();
      const address = req.ip ?? 'unknown';
      const decision = await ctx.loginThrottle.attempt(body.email, address);
      if (!decision.allowed) {
        const after = decision.retryAfterSeconds;
        throw tooManyRequests(
          `Too many failed logins for this account. Retry after ${after} seconds.`,
          after,
        );
      }
      const user = await ctx.identity.verifyCredentials(body.email, body.password);
      // Counted already by attempt().
      if (!user)
        throw unauthenticated('These credentials do not match our records.', { code: 'invalid_credentials' });
      await ctx.loginThrottle.succeeded(body.email, address);
      const { plainText } = await ctx.identity.issueToken(user.id, body.device_name ?? 'login');
      await signInSession(ctx, req, res, user.id);
      return { status: 200, body: { token: plainText, user: loginUser(user) } };
    },
  });

/**
 * CSRF cookie (spec 5.2, SPAs): 204; starts a guest session if there is none and sets the
 * HttpOnly session cookie and the readable `XSRF-TOKEN` cookie.
 */
const csrfCookieRoute = (path: string, operationId: string) =>
  route({
    method: 'get',
    path,
    operationId,
    summary: 'Start a browser session: sets the session cookie and the XSRF-TOKEN cookie',
    tags: ['identity'],
    access: 'public',
    responses: { 204: { description: 'Cookies set' } },
    handler: async (_input, ctx, req, res) => {
      if (req.identity.sessionIdHash && req.identity.csrfToken) {
        res.cookie('XSRF-TOKEN', req.identity.csrfToken, {
          path: '/',
          sameSite: 'lax',
          secure: ctx.cookies.secure,
          maxAge: ctx.cookies.lifetimeMinutes * 60_000,
        });
      } else {
        const s = await ctx.sessions.create(null, { ip: req.ip, userAgent: req.get('user-agent') });
        setSessionCookies(res, ctx.cookies, s.cookie, s.csrfToken);
      }
      return { status: 204 };
    },
  });

/**
 * Identity routes served by the gateway itself (design.md): register, login (`/api/v1/login`
 * and area C's `/api/login`), me, logout, personal access tokens, and the CSRF cookie for SPAs.
 * Bodies are parsed here only; proxied routes never see a body parser.
 */
export const identityRoutes: AnyRouteSpec<IdentityContext>[] = [
  loginRoute(IdentityPaths.login[0], 'login', 'Sign in (area A)'),
  loginRoute(
    IdentityPaths.login[1],
    'loginAreaC',
    'Sign in (area C): same users and answer as /api/v1/login',
  ),

  /**
   * POST /api/v1/register: `{name, email, password, password_confirmation?}` → 201
   * `{token, user}`. E-mail taken or bad fields 422; 403 when registration is turned off.
   */
  route({
    method: 'post',
    path: IdentityPaths.register,
    operationId: 'register',
    summary: 'Create an account and sign in',
    description:
      'Can be turned off by the operator (REGISTRATION_ENABLED=false): 403 `registration_disabled`. A browser ' +
      'session (after GET /api/v1/csrf-cookie) is signed in too, under a new session id, as by login.',
    tags: ['identity'],
    access: 'public',
    middleware: (ctx) => [
      ctx.json,
      (_req, _res, next) =>
        next(
          ctx.registrationEnabled
            ? undefined
            : forbidden('Registration is disabled on this server.', { code: 'registration_disabled' }),
        ),
    ],
    body: registerBody,
    responses: { 201: { description: 'Registered and signed in', body: loginAnswer } },
    problems: {
      403: 'Registration is turned off (`registration_disabled`)',
      422: 'Bad field, e-mail already taken, or the confirmation differs',
    },
    handler: async ({ body }, ctx, req, res) => {
      if (passwordTooLong(body.password)) throw tooLong();
      if (body.password_confirmation !== undefined && body.password_confirmation !== body.password)
        throw validationFailed({ password: ['The password confirmation does not match.'] });
      const user = await ctx.identity.register(body);
      if (!user) throw validationFailed({ email: ['The email has already been taken.'] });
      const { plainText } = await ctx.identity.issueToken(user.id, 'register');
      await signInSession(ctx, req, res, user.id);
      // The verification link goes out after the answer (docs/identity.md, "Accounts").
      ctx.accounts.sendVerification(user.id).catch((err: unknown) => {
        ctx.logger.warn('the verification e-mail of a new account failed', { err });
      });
      return { status: 201, body: { token: plainText, user: loginUser(user) } };
    },
  }),

  csrfCookieRoute(IdentityPaths.csrfCookie[0], 'csrfCookie'),
  csrfCookieRoute(IdentityPaths.csrfCookie[1], 'csrfCookieSanctum'),

  /**
   * GET /api/v1/me: `{data: {id, name, email, language, time_zone, email_verified_at, created_at,
   * updated_at}}`; 401 when not signed in.
   */
  route({
    method: 'get',
    path: IdentityPaths.me,
    operationId: 'me',
    summary: 'The signed-in user',
    description: SESSION_OR_TOKEN,
    tags: ['identity'],
    middleware: signedIn,
    responses: { 200: { description: 'The user', body: Joi.object({ data: accountSchema.required() }) } },
    problems: { 401: 'Not signed in' },
    handler: async (_input, ctx, req) => {
      const user = await ctx.identity.users.findById(req.identity.user!.id);
      if (!user) throw unauthenticated();
      return { body: { data: toPublicUser(user) } };
    },
  }),

  /** POST /api/v1/logout: 204; revokes the token used, or ends the session and clears its cookies. */
  route({
    method: 'post',
    path: IdentityPaths.logout,
    operationId: 'logout',
    summary: 'Revoke the token used, or end the session and clear its cookies',
    tags: ['identity'],
    middleware: signedIn,
    responses: { 204: { description: 'Signed out' } },
    problems: {
      401: 'Not signed in',
      403: 'Session without a valid X-XSRF-TOKEN header (`csrf_token_mismatch`)',
    },
    handler: async (_input, ctx, req, res) => {
      if (req.identity.tokenId) {
        await ctx.identity.tokens.deleteForUser(req.identity.user!.id, req.identity.tokenId);
        await ctx.tokenCache.revoke(req.identity.tokenId);
      }
      if (req.identity.sessionIdHash) {
        await ctx.sessions.destroy(req.identity.sessionIdHash);
        clearSessionCookies(res, ctx.cookies);
      }
      return { status: 204 };
    },
  }),

  /**
   * POST /api/v1/tokens (spec 4.1, 5.2): `{name}` → 201
   * `{token, data: {id, name, token, created_at, last_used_at, expires_at}}`. The plain
   * `id|secret` is in this response only.
   */
  route({
    method: 'post',
    path: IdentityPaths.tokens,
    operationId: 'createToken',
    summary: 'Create a personal access token; its plain value is in this answer only',
    description: SESSION_OR_TOKEN,
    tags: ['tokens'],
    middleware: (ctx) => [requireSignedIn, ctx.json],
    body: tokenBody,
    responses: { 201: { description: 'Created', body: createdTokenAnswer } },
    problems: {
      401: 'Not signed in',
      403: 'Session without a valid X-XSRF-TOKEN header',
      422: 'Missing or long name',
    },
    handler: async ({ body }, ctx, req) => {
      const { row, plainText } = await ctx.identity.issueToken(req.identity.user!.id, body.name);
      return { status: 201, body: { token: plainText, data: { ...toPublicToken(row), token: plainText } } };
    },
  }),

  /** GET /api/v1/tokens: the caller's tokens in the pagination envelope, newest first, never a secret. */
  route({
    method: 'get',
    path: IdentityPaths.tokens,
    operationId: 'listTokens',
    summary: "The caller's tokens, newest first (never their secrets)",
    description: SESSION_OR_TOKEN,
    tags: ['tokens'],
    middleware: signedIn,
    query: Joi.object<{ page: number; per_page: number }>(pageQuerySchema),
    responses: { 200: { description: 'A page of tokens (spec 2.1 envelope)', body: pageOf(tokenSchema) } },
    problems: { 401: 'Not signed in', 422: 'page or per_page out of range' },
    handler: async ({ query }, ctx, req) => {
      const { rows, total } = await ctx.identity.tokens.listForUser(
        req.identity.user!.id,
        query.page,
        query.per_page,
      );
      return { body: paginated(rows.map(toPublicToken), query, total) };
    },
  }),

  /**
   * DELETE /api/v1/tokens/{token_id} (spec 4.1, 5.3): 204; the token gets 401 from the next
   * request on (also when it deleted itself). Another user's or an unknown id: 404.
   */
  route({
    method: 'delete',
    path: `${IdentityPaths.tokens}/{token_id}`,
    operationId: 'revokeToken',
    summary: 'Revoke a token of the caller; refused from the next request on',
    description: SESSION_OR_TOKEN,
    tags: ['tokens'],
    middleware: signedIn,
    params: Joi.object<{ token_id: number }>({ token_id: pathIdSchema('bigint') }), // a bigint column
    notFound: 'No such token.',
    responses: { 204: { description: 'Revoked' } },
    problems: {
      401: 'Not signed in',
      403: 'Session without a valid X-XSRF-TOKEN header',
      404: 'No such token of the caller',
    },
    handler: async ({ params }, ctx, req) => {
      if (!(await ctx.identity.tokens.deleteForUser(req.identity.user!.id, params.token_id)))
        throw notFound('No such token.');
      await ctx.tokenCache.revoke(params.token_id);
      return { status: 204 };
    },
  }),
];
