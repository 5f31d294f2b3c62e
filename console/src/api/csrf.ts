/** The readable cookie that holds the session's CSRF token (set by the gateway). */
const XSRF_COOKIE = 'XSRF-TOKEN';
/** The gateway route that starts a browser session and sets the cookies (spec 5.2, SPAs). */
const CSRF_COOKIE_PATH = '/api/v1/csrf-cookie';

/** The current `XSRF-TOKEN` cookie value, decoded, or undefined. */
function readXsrfCookie(): string | undefined {
  for (const part of document.cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === XSRF_COOKIE) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

let starting: Promise<void> | undefined;

/**
 * The CSRF token to echo in `X-XSRF-TOKEN`, starting a browser session first
 * (`GET /api/v1/csrf-cookie`) when the browser has none. Concurrent callers share one request.
 */
export async function xsrfToken(): Promise<string | undefined> {
  const current = readXsrfCookie();
  if (current) return current;
  starting ??= fetch(CSRF_COOKIE_PATH, { credentials: 'same-origin' })
    .then(() => undefined)
    .finally(() => (starting = undefined));
  await starting;
  return readXsrfCookie();
}

/**
 * Starts a fresh browser session (`GET /api/v1/csrf-cookie`) whatever cookies the browser holds,
 * before signing in or registering: a session ended elsewhere ("sign out everywhere else",
 * expiry) may have left stale cookies that the gateway no longer knows, and a login through
 * such a session would sign in no session at all.
 */
export async function renewBrowserSession(): Promise<void> {
  await fetch(CSRF_COOKIE_PATH, { credentials: 'same-origin' });
}
