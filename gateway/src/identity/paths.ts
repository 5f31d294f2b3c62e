/**
 * The paths the identity routes serve. Several lie under the collection service's `/api/v1`
 * prefix: {@link isIdentityPath} keeps those requests in the gateway.
 */
export const IdentityPaths = {
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
