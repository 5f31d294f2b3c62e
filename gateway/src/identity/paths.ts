/**
 * The paths the identity routes serve. Several lie under the collection service's `/api/v1`
 * prefix, the device setup under the events service's: {@link isIdentityPath} keeps those requests in the gateway.
 */
export const IdentityPaths = {
  login: ['/api/v1/login', '/api/login'],
  register: '/api/v1/register',
  csrfCookie: ['/api/v1/csrf-cookie', '/sanctum/csrf-cookie'],
  me: '/api/v1/me',
  logout: '/api/v1/logout',
  tokens: '/api/v1/tokens',
  sessions: '/api/v1/sessions',
  /** Accounts (docs/identity.md, "Accounts"): password change, e-mail links, password reset. */
  mePassword: '/api/v1/me/password',
  meEmailVerification: '/api/v1/me/email-verification',
  emailVerify: '/api/v1/email/verify',
  passwordForgot: '/api/v1/password/forgot',
  passwordReset: '/api/v1/password/reset',
  /** Scanner device setup: under the events prefix, answered by the gateway (it issues the credential). */
  deviceSetup: '/api/events/devices/setup',
} as const;

const OWN_PATHS = new Set<string>(Object.values(IdentityPaths).flat());
/** Collections whose members the gateway serves too: `<prefix><id>` (one segment). */
const MEMBER_PREFIXES = [`${IdentityPaths.tokens}/`, `${IdentityPaths.sessions}/`];

/**
 * Whether the gateway itself answers `path` (no query string): one of {@link IdentityPaths},
 * `/api/v1/tokens/<token_id>` or `/api/v1/sessions/<session_id>`. Like Express's router, it
 * ignores case and one trailing slash.
 */
export function isIdentityPath(path: string): boolean {
  let p = path.toLowerCase();
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  if (OWN_PATHS.has(p)) return true;
  return MEMBER_PREFIXES.some(
    (prefix) => p.startsWith(prefix) && p.length > prefix.length && !p.includes('/', prefix.length),
  );
}
