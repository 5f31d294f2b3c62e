import { createHash } from 'node:crypto';
import { problems } from './problems.ts';
import type { Actor, BallotAnswers, PollDoc, Voter } from './types.ts';

/**
 * The vote request of spec 2.2, plus `voter_email` for the one-time password of anonymous voters
 * (validated by http/vote-schemas.ts, `VoteInput`).
 */
export interface VoteInput {
  votes: Record<string, string>;
  /** Answers to the sections that are not `single` (docs/polls.md, "Section kinds"). */
  answers?: BallotAnswers;
  voter_name?: string | null;
  voter_fingerprint?: string;
  voter_email?: string;
  /** Seconds (docs/polls.md): the spec leaves the unit open. */
  time_spent?: number | null;
}

/**
 * Checks that `votes` names exactly one option for each section of the poll, each option of
 * its own section (spec 2.2). Returns the chosen option ids in section order.
 * @throws ProblemError `validation_failed` whose `errors` has one `votes.<section id>` entry per bad section.
 */
export function checkChoices(poll: PollDoc, votes: Record<string, string>): string[] {
  const errors: Record<string, string[]> = {};
  const chosen: string[] = [];
  for (const section of poll.sections) {
    const optionId = votes[section.id];
    if (optionId === undefined) {
      errors[`votes.${section.id}`] = [`Choose one option in section "${section.title}".`];
    } else if (!section.options.some((o) => o.id === optionId)) {
      errors[`votes.${section.id}`] = [`Option ${optionId} does not belong to section "${section.title}".`];
    } else chosen.push(optionId);
  }
  for (const sectionId of Object.keys(votes)) {
    if (!poll.sections.some((s) => s.id === sectionId))
      errors[`votes.${sectionId}`] = [`Section ${sectionId} does not belong to this poll.`];
  }
  if (Object.keys(errors).length) throw problems.invalid({ errors });
  return chosen;
}

/** Whether the poll takes votes now, and if not why. */
export function openState(poll: PollDoc, now = new Date()): { open: boolean; reason?: string } {
  if (poll.closed) return { open: false, reason: 'This poll is closed.' };
  const { starts_at, ends_at } = poll.settings;
  if (starts_at && now.toISOString() < starts_at)
    return { open: false, reason: `This poll is not open yet: it opens at ${starts_at}.` };
  if (ends_at && now.toISOString() >= ends_at)
    return { open: false, reason: `This poll ended at ${ends_at}.` };
  return { open: true };
}

/** @throws ProblemError `poll_not_open` when the poll is closed, not yet open, or over. */
export function assertOpen(poll: PollDoc, now = new Date()): void {
  const state = openState(poll, now);
  if (!state.open) throw problems.pollNotOpen({ reason: state.reason! });
}

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
  return anonymousVoter(actor, fingerprint);
}

/** An anonymous voter's key: the SHA-256 of the fingerprint and the client IP (neither stored in clear). */
function anonymousVoter(actor: Actor, fingerprint: string): Voter {
  const hash = createHash('sha256')
    .update(`${fingerprint}|${actor.ip ?? ''}`)
    .digest('base64url');
  return { key: `f:${hash}`, userId: null, name: null, email: null };
}

/** The actor as a reader of results (no fingerprint check: anonymous readers are null). */
export function readerOf(actor: Actor, fingerprint: string | undefined): Voter | null {
  if (actor.userId !== null)
    return { key: `u:${actor.userId}`, userId: actor.userId, name: actor.name, email: actor.email };
  return fingerprint ? anonymousVoter(actor, fingerprint) : null;
}
