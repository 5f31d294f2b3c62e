/** Who is calling, as the gateway established it. */
export interface Identity {
  /** `emailVerified`: the current address was confirmed by its e-mailed link. */
  user: { id: number; name: string; email: string; emailVerified: boolean } | null;
  method: 'token' | 'session' | 'anonymous' | 'device' | 'app_user';
  /** The scanner device (method `device`): its id, name and the one event it works on. */
  device?: { id: string; name: string; eventId: string };
  /**
   * The app user (method `app_user`, docs/identity.md "App users"): its id, project and name, and
   * the path prefix the client used (`/api/v1/key/{key}`), for the service's OpenRosa links.
   */
  appUser?: { id: number; projectId: number; displayName: string; basePath: string };
  tokenId?: number;
  /** SHA-256 of the session cookie, for logout and login (session rotation). */
  sessionIdHash?: string;
  /** The session's CSRF token, re-sent by the CSRF cookie endpoint. */
  csrfToken?: string;
}

declare module 'express-serve-static-core' {
  interface Request {
    identity: Identity;
  }
}
