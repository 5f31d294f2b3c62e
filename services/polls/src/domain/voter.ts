import { createHash } from 'node:crypto';
import { problems } from './problems.ts';
import type { Actor, PollDoc, Voter } from './types.ts';

/**
 * Who acts on a poll (issue 5, "Voting"): the signed-in user, else the client's
 * `voter_fingerprint` together with the client IP from the gateway's JWT (hashed, so neither
 * is stored in clear). A poll with `access: authenticated` refuses anonymous actors with 401;
 * an anonymous actor without fingerprint gets 422.
 */
export function identifyVoter(poll: PollDoc, actor: Actor, fingerprint: string | undefined): Voter {
  if (actor.userId !== null)
    return { key: `u:${actor.userId}`, userId: actor.userId, name: actor.name, email: actor.email };
  if (poll.settings.access === 'authenticated') throw problems.unauthenticated({ what: 'takePart' });
  if (!fingerprint)
    throw problems.invalid({
      errors: { voter_fingerprint: ['The voter_fingerprint field is required for anonymous voters.'] },
    });
  const hash = createHash('sha256')
    .update(`${fingerprint}|${actor.ip ?? ''}`)
    .digest('base64url');
  return { key: `f:${hash}`, userId: null, name: null, email: null };
}

/** The actor as a reader of results (no fingerprint check: anonymous readers are null). */
export function readerOf(actor: Actor, fingerprint: string | undefined): Voter | null {
  if (actor.userId !== null)
    return { key: `u:${actor.userId}`, userId: actor.userId, name: actor.name, email: actor.email };
  if (!fingerprint) return null;
  const hash = createHash('sha256')
    .update(`${fingerprint}|${actor.ip ?? ''}`)
    .digest('base64url');
  return { key: `f:${hash}`, userId: null, name: null, email: null };
}
