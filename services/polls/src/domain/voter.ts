import { createHash } from 'node:crypto';
import type { Caller } from '@fieldhouse/internal-auth';
import { unauthenticated, unprocessable } from '@fieldhouse/problem';
import type { PollDoc, Voter } from './types.ts';

/**
 * Who acts on a poll (issue 5, "Voting"): the signed-in user, else the client's
 * `voter_fingerprint` together with the client IP from the gateway's JWT (hashed, so neither
 * is stored in clear). A poll with `access: authenticated` refuses anonymous callers with 401;
 * an anonymous caller without fingerprint gets 422.
 */
export function identifyVoter(poll: PollDoc, caller: Caller, fingerprint: string | undefined): Voter {
  if (caller.userId !== null)
    return { key: `u:${caller.userId}`, userId: caller.userId, name: caller.name, email: caller.email };
  if (poll.settings.access === 'authenticated')
    throw unauthenticated('This poll is for signed-in users: sign in to take part.');
  if (!fingerprint)
    throw unprocessable('voter_fingerprint', 'The voter_fingerprint field is required for anonymous voters.');
  const hash = createHash('sha256')
    .update(`${fingerprint}|${caller.ip ?? ''}`)
    .digest('base64url');
  return { key: `f:${hash}`, userId: null, name: null, email: null };
}

/** The caller as a reader of results (no fingerprint check: anonymous readers are null). */
export function readerOf(caller: Caller, fingerprint: string | undefined): Voter | null {
  if (caller.userId !== null)
    return { key: `u:${caller.userId}`, userId: caller.userId, name: caller.name, email: caller.email };
  if (!fingerprint) return null;
  const hash = createHash('sha256')
    .update(`${fingerprint}|${caller.ip ?? ''}`)
    .digest('base64url');
  return { key: `f:${hash}`, userId: null, name: null, email: null };
}
