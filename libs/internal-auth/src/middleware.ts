import type { RequestHandler } from 'express';
import jwt, { type Algorithm } from 'jsonwebtoken';
import { logContext } from '@fieldhouse/logger';
import { unauthenticated } from '@fieldhouse/problem';
import { callerFromClaims, type Caller, type InternalClaims } from './claims.ts';
import type { KeyResolver } from './keys.ts';

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by {@link requireGateway}: who is calling, per the gateway's JWT. */
    caller: Caller;
  }
}

export interface GatewayAuthOptions {
  /** This service's audience (`collection`, `polls`, `events`). */
  audience: string;
  /** The gateway's issuer name. */
  issuer: string;
  keys: KeyResolver;
  /** Allowed signature algorithms; anything else (including `none`) is refused. */
  algorithms?: Algorithm[];
  /** Tolerated clock skew in seconds. */
  clockToleranceSec?: number;
}

/** Verifies a JWT with the given options; resolves the claims or rejects. */
function verify(token: string, opts: Required<GatewayAuthOptions>): Promise<InternalClaims> {
  return new Promise((resolve, reject) => {
    jwt.verify(
      token,
      (header, cb) => {
        opts.keys(header.kid).then(
          (key) => cb(null, key),
          (err: Error) => cb(err),
        );
      },
      {
        algorithms: opts.algorithms,
        audience: opts.audience,
        issuer: opts.issuer,
        clockTolerance: opts.clockToleranceSec,
        maxAge: '120s',
      },
      (err, payload) => (err ? reject(err) : resolve(payload as InternalClaims)),
    );
  });
}

/**
 * Rejects (401 problem) every request that does not carry a valid gateway JWT in
 * `Authorization: Bearer <jwt>`: wrong signature, algorithm not allow-listed, wrong `iss`
 * or `aud`, expired. On success sets `req.caller` (anonymous callers have `userId: null`).
 */
export function requireGateway(options: GatewayAuthOptions): RequestHandler {
  const opts: Required<GatewayAuthOptions> = {
    algorithms: ['ES256'],
    clockToleranceSec: 5,
    ...options,
  };
  // Verified tokens by their exact text, until they expire: the gateway reuses a JWT for the
  // same caller for a few seconds, so most requests skip the signature check.
  const verified = new Map<string, InternalClaims>();
  const cached = (token: string): InternalClaims | undefined => {
    const claims = verified.get(token);
    if (claims && claims.exp * 1000 > Date.now()) return claims;
    if (claims) verified.delete(token);
    return undefined;
  };
  const accept = (req: Parameters<RequestHandler>[0], claims: InternalClaims) => {
    req.caller = callerFromClaims(claims);
    const ctx = logContext.getStore();
    if (ctx && req.caller.userId !== null) ctx.userId = req.caller.userId;
  };
  return (req, _res, next) => {
    const header = req.headers.authorization;
    if (!header?.startsWith('Bearer ')) {
      next(unauthenticated('This service is only reachable through the gateway.'));
      return;
    }
    const token = header.slice(7);
    const hit = cached(token);
    if (hit) {
      accept(req, hit);
      next();
      return;
    }
    verify(token, opts).then(
      (claims) => {
        if (verified.size >= 10_000) verified.clear();
        verified.set(token, claims);
        accept(req, claims);
        next();
      },
      () => next(unauthenticated('The gateway credentials of this request are invalid or expired.')),
    );
  };
}

/** 401 unless the caller is a signed-in user; use after {@link requireGateway}. */
export const requireUser: RequestHandler = (req, _res, next) => {
  next(req.caller?.userId == null ? unauthenticated() : undefined);
};
