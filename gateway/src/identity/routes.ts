import { Router, type RequestHandler } from 'express';
import Joi from 'joi';
import { jsonBody, paginated, parseId, parsePageQuery } from '@fieldhouse/http';
import {
  tooManyRequests,
  forbidden,
  notFound,
  unauthenticated,
  unprocessable,
  validate,
  validationFailed,
} from '@fieldhouse/problem';
import { requireSignedIn } from './authenticate.ts';
import { clearSessionCookies, setSessionCookies, type SessionCookieSettings } from './cookies.ts';
import type { IdentityService } from './identity-service.ts';
import type { LoginThrottle } from './login-throttle.ts';
import { passwordTooLong, MAX_PASSWORD_BYTES } from './passwords.ts';
import type { SessionsRepo } from './sessions-repo.ts';
import type { TokenCache } from './token-cache.ts';
import { toPublicToken } from './tokens-repo.ts';
import { toPublicUser, type UserRow } from './users-repo.ts';

export interface IdentityRoutesDeps {
  identity: IdentityService;
  sessions: SessionsRepo;
  tokenCache: TokenCache;
  cookies: SessionCookieSettings;
  registrationEnabled: boolean;
  bodyLimit: string;
  /** Limits failed logins per (IP, e-mail); runs after the body is parsed. */
  loginLimiter: RequestHandler;
  /** Limits failed logins per account, whatever the address (backoff, see login-throttle.ts). */
  loginThrottle: LoginThrottle;
}

const tooLong = () =>
  unprocessable('password', `The password may not be greater than ${MAX_PASSWORD_BYTES} bytes.`);

const loginSchema = Joi.object({
  email: Joi.string().trim().max(255).required(),
  password: Joi.string().required(),
  device_name: Joi.string().trim().max(255),
});

const registerSchema = Joi.object({
  name: Joi.string().trim().min(1).max(255).required(),
  email: Joi.string().trim().email({ tlds: false }).max(255).required(),
  password: Joi.string().min(8).required(),
  password_confirmation: Joi.string(),
});

const tokenSchema = Joi.object({ name: Joi.string().trim().min(1).max(255).required() });

/**
 * The paths the identity routes serve. Several lie under the collection service's `/api/v1`
 * prefix: {@link isIdentityPath} keeps those requests in the gateway.
 */
const IdentityPaths = {
  login: ['/api/v1/login', '/api/login'],
  register: '/api/v1/register',
  csrfCookie: ['/api/v1/csrf-cookie', '/sanctum/csrf-cookie'],
  me: '/api/v1/me',
  logout: '/api/v1/logout',
  tokens: '/api/v1/tokens',
} as const;

const OWN_PATHS = new Set<string>(Object.values(IdentityPaths).flat());
const TOKEN_PATH_PREFIX = `${IdentityPaths.tokens}/`;

/**
 * Whether the gateway itself answers `path` (no query string): one of {@link IdentityPaths}, or
 * `/api/v1/tokens/<token_id>`. Like Express's router, it ignores case and one trailing slash.
 */
export function isIdentityPath(path: string): boolean {
  let p = path.toLowerCase();
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  if (OWN_PATHS.has(p)) return true;
  return (
    p.startsWith(TOKEN_PATH_PREFIX) &&
    p.length > TOKEN_PATH_PREFIX.length &&
    !p.includes('/', TOKEN_PATH_PREFIX.length)
  );
}

/** `{id, name, email}`: the user object of the login response (spec 2.1). */
const loginUser = (u: UserRow) => ({ id: u.id, name: u.name, email: u.email });

/**
 * Identity routes served by the gateway itself (design.md): register, login (`/api/v1/login`
 * and area C's `/api/login`), me, logout, personal access tokens, and the CSRF cookie for SPAs.
 * Bodies are parsed here only; proxied routes never see a body parser.
 */
export function identityRoutes(deps: IdentityRoutesDeps): Router {
  const router = Router();
  const json = jsonBody(deps.bodyLimit);
  const { identity, sessions, cookies } = deps;

  /**
   * POST /api/v1/login, POST /api/login (spec 4.1, 4.3): `{email, password, device_name?}` →
   * 200 `{token, user: {id, name, email}}`; wrong credentials 401; a password over 72 bytes 422;
   * too many failures 429 with `Retry-After` (per address and e-mail, and per account with
   * backoff: the password is then not checked at all). A client holding a session (SPA, after
   * the CSRF cookie call) is signed in to that session too, with a new session id.
   */
  const login: RequestHandler = async (req, res) => {
    const body = validate(loginSchema, req.body);
    if (passwordTooLong(body.password)) throw tooLong();
    const address = req.ip ?? 'unknown';
    const decision = await deps.loginThrottle.attempt(body.email, address);
    if (!decision.allowed) {
      const after = decision.retryAfterSeconds;
      throw tooManyRequests(`Too many failed logins for this account. Retry after ${after} seconds.`, after);
    }
    const user = await identity.verifyCredentials(body.email, body.password);
    if (!user) {
      // Counted already by attempt().
      throw unauthenticated('These credentials do not match our records.', { code: 'invalid_credentials' });
    }
    await deps.loginThrottle.succeeded(body.email, address);
    const { plainText } = await identity.issueToken(user.id, body.device_name ?? 'login');
    if (req.identity.sessionIdHash) {
      await sessions.destroy(req.identity.sessionIdHash);
      const s = await sessions.create(user.id, { ip: req.ip, userAgent: req.get('user-agent') });
      setSessionCookies(res, cookies, s.cookie, s.csrfToken);
    }
    res.status(200).json({ token: plainText, user: loginUser(user) });
  };
  router.post([...IdentityPaths.login], json, deps.loginLimiter, login);

  /**
   * POST /api/v1/register: `{name, email, password, password_confirmation?}` → 201
   * `{token, user}`. E-mail taken or bad fields 422; 403 when registration is turned off.
   */
  router.post(IdentityPaths.register, json, async (req, res) => {
    if (!deps.registrationEnabled)
      throw forbidden('Registration is disabled on this server.', { code: 'registration_disabled' });
    const body = validate(registerSchema, req.body);
    if (passwordTooLong(body.password)) throw tooLong();
    if (body.password_confirmation !== undefined && body.password_confirmation !== body.password) {
      throw validationFailed({ password: ['The password confirmation does not match.'] });
    }
    const user = await identity.register(body);
    if (!user) throw validationFailed({ email: ['The email has already been taken.'] });
    const { plainText } = await identity.issueToken(user.id, 'register');
    res.status(201).json({ token: plainText, user: loginUser(user) });
  });

  /**
   * GET /api/v1/csrf-cookie (alias /sanctum/csrf-cookie): 204; starts a guest session if there
   * is none and sets the HttpOnly session cookie and the readable `XSRF-TOKEN` cookie.
   */
  router.get([...IdentityPaths.csrfCookie], async (req, res) => {
    if (req.identity.sessionIdHash && req.identity.csrfToken) {
      res.cookie('XSRF-TOKEN', req.identity.csrfToken, {
        path: '/',
        sameSite: 'lax',
        secure: cookies.secure,
        maxAge: cookies.lifetimeMinutes * 60_000,
      });
    } else {
      const s = await sessions.create(null, { ip: req.ip, userAgent: req.get('user-agent') });
      setSessionCookies(res, cookies, s.cookie, s.csrfToken);
    }
    res.status(204).end();
  });

  /** GET /api/v1/me: `{data: {id, name, email, created_at, updated_at}}`; 401 when not signed in. */
  router.get(IdentityPaths.me, requireSignedIn, async (req, res) => {
    const user = await identity.users.findById(req.identity.user!.id);
    if (!user) throw unauthenticated();
    res.json({ data: toPublicUser(user) });
  });

  /** POST /api/v1/logout: 204; revokes the token used, or ends the session and clears its cookies. */
  router.post(IdentityPaths.logout, requireSignedIn, async (req, res) => {
    if (req.identity.tokenId) {
      await identity.tokens.deleteForUser(req.identity.user!.id, req.identity.tokenId);
      await deps.tokenCache.revoke(req.identity.tokenId);
    }
    if (req.identity.sessionIdHash) {
      await sessions.destroy(req.identity.sessionIdHash);
      clearSessionCookies(res, cookies);
    }
    res.status(204).end();
  });

  /**
   * POST /api/v1/tokens (spec 4.1, 5.2): `{name}` → 201
   * `{token, data: {id, name, token, created_at, last_used_at, expires_at}}`. The plain
   * `id|secret` is in this response only.
   */
  router.post(IdentityPaths.tokens, requireSignedIn, json, async (req, res) => {
    const { name } = validate(tokenSchema, req.body);
    const { row, plainText } = await identity.issueToken(req.identity.user!.id, name);
    res.status(201).json({ token: plainText, data: { ...toPublicToken(row), token: plainText } });
  });

  /** GET /api/v1/tokens: the caller's tokens in the pagination envelope, newest first, never a secret. */
  router.get(IdentityPaths.tokens, requireSignedIn, async (req, res) => {
    const page = parsePageQuery(req.query);
    const { rows, total } = await identity.tokens.listForUser(
      req.identity.user!.id,
      page.page,
      page.per_page,
    );
    res.json(paginated(rows.map(toPublicToken), page, total));
  });

  /**
   * DELETE /api/v1/tokens/{token_id} (spec 4.1, 5.3): 204; the token gets 401 from the next
   * request on (also when it deleted itself). Another user's or an unknown id: 404.
   */
  router.delete(`${IdentityPaths.tokens}/:token_id`, requireSignedIn, async (req, res) => {
    const id = parseId(req.params.token_id, 'bigint'); // personal_access_tokens.id is a bigint
    if (id === undefined || !(await identity.tokens.deleteForUser(req.identity.user!.id, id))) {
      throw notFound('No such token.');
    }
    await deps.tokenCache.revoke(id);
    res.status(204).end();
  });

  return router;
}
