/** How the gateway authenticated the caller. */
export type AuthMethod = 'token' | 'session' | 'anonymous' | 'device' | 'app_user' | 'gateway';

/**
 * The scanner device a request comes from (claim `dev`, with `amr: "device"`): its id, the one
 * event it may work on, and its scope (`checkin`: scan, offline batch, invite lookup, stats).
 * The service enforces the scope and checks on every request that the device is not revoked.
 */
export interface DeviceClaim {
  id: string;
  evt: string;
  scope: 'checkin';
}

/**
 * The app user a request comes from (claim `apu`, with `amr: "app_user"`; docs/identity.md,
 * "App users"): a project's credential for ODK Collect and Enketo, not a user (no `sub`). `prj`
 * is its project; the collection service checks on every request that it is not revoked.
 */
export interface AppUserClaim {
  id: number;
  prj: number;
}

/**
 * Claims of the short-lived JWT the gateway signs for each proxied request (design.md,
 * "phantom-token pattern"). `sub` is absent for anonymous callers.
 */
export interface InternalClaims {
  iss: string;
  aud: string;
  sub?: string;
  name?: string;
  email?: string;
  /**
   * Whether the user's current `email` was confirmed by its e-mailed link (docs/identity.md,
   * "Accounts"). Absent in tokens minted before issue 32: treat absence as not verified.
   */
  email_verified?: boolean;
  jti: string;
  /** Personal access token id when the caller used a bearer token. */
  tid?: number;
  /** How the caller was authenticated (`gateway`: the gateway itself, for its own service calls). */
  amr: AuthMethod;
  /** The scanner device, when `amr` is `device`. */
  dev?: DeviceClaim;
  /** The app user, when `amr` is `app_user` (its subject kind: never a `sub`). */
  apu?: AppUserClaim;
  /** Client IP address as the gateway saw it. */
  ip?: string;
  iat: number;
  exp: number;
}

/** The caller of a service request, as the internal JWT describes it. */
export interface Caller {
  /** User id, or null for an anonymous caller. */
  userId: number | null;
  name: string | null;
  email: string | null;
  /** True only when the JWT says the e-mail is verified (`email_verified: true`). */
  emailVerified: boolean;
  tokenId: number | null;
  method: AuthMethod;
  /** The scanner device (`amr: "device"`), else null. */
  device: { id: string; eventId: string; scope: 'checkin' } | null;
  /** The app user (`amr: "app_user"`) and its project, else null (absent: not one). */
  appUser?: { id: number; projectId: number } | null;
  ip: string | null;
  /** The JWT id, unique per proxied request. */
  requestTokenId: string;
}

/** Maps verified claims to a {@link Caller}. */
export function callerFromClaims(c: InternalClaims): Caller {
  return {
    userId: c.sub !== undefined ? Number(c.sub) : null,
    name: c.name ?? null,
    email: c.email ?? null,
    emailVerified: c.email_verified === true,
    tokenId: c.tid ?? null,
    method: c.amr,
    device: c.amr === 'device' && c.dev ? { id: c.dev.id, eventId: c.dev.evt, scope: c.dev.scope } : null,
    appUser: c.amr === 'app_user' && c.apu ? { id: c.apu.id, projectId: c.apu.prj } : null,
    ip: c.ip ?? null,
    requestTokenId: c.jti,
  };
}
