import type { CookieOptions, Response } from 'express';

/** Name of the readable cookie that carries the CSRF token (Laravel/Sanctum's name, read by axios). */
const XSRF_COOKIE = 'XSRF-TOKEN';

export interface SessionCookieSettings {
  name: string;
  secure: boolean;
  lifetimeMinutes: number;
}

const base = (s: SessionCookieSettings): CookieOptions => ({
  path: '/',
  sameSite: 'lax',
  secure: s.secure,
  maxAge: s.lifetimeMinutes * 60_000,
});

/** Sets the HttpOnly session cookie and the readable `XSRF-TOKEN` cookie. */
export function setSessionCookies(
  res: Response,
  s: SessionCookieSettings,
  cookie: string,
  csrfToken: string,
): void {
  res.cookie(s.name, cookie, { ...base(s), httpOnly: true });
  res.cookie(XSRF_COOKIE, csrfToken, { ...base(s), httpOnly: false });
}

export function clearSessionCookies(res: Response, s: SessionCookieSettings): void {
  res.clearCookie(s.name, { path: '/' });
  res.clearCookie(XSRF_COOKIE, { path: '/' });
}
