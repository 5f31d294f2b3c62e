import { defineProblems, ProblemError, type FieldErrors } from '@fieldhouse/problem';

/**
 * The `detail` of a 422 with field `errors`: the first message, then "(and N more errors)" as
 * Laravel words it, so a client showing only `message` still helps.
 */
function firstError(errors: FieldErrors): string {
  const all = Object.values(errors).flat();
  const more = all.length - 1;
  const first = all[0] ?? 'The given data was invalid.';
  return more > 0 ? `${first} (and ${more} more error${more > 1 ? 's' : ''})` : first;
}

/** What an unknown id named (`not_found`). */
const NOT_FOUND = {
  poll: 'No poll has this id.',
  comment: 'No comment of this poll has this id.',
  pendingVote: 'No pending vote has this verification code.',
  section: 'No section of this poll has this id.',
  finalSlot: 'The owner has not picked the final slot of this meeting yet.',
  invitee: 'No invitee of this poll has this id.',
  ballot: 'No counted ballot of this poll has this id.',
} as const;

/** What the actor may not do (`forbidden`). */
const FORBIDDEN = {
  managePoll: 'Only the owner of this poll can manage it.',
  deleteComment: 'Only the owner of the poll can delete its comments.',
  hideComment: 'Only the owner of the poll can hide its comments.',
} as const;

/** What a signed-out actor was refused (`unauthenticated`). */
const UNAUTHENTICATED = {
  takePart: 'This poll is for signed-in users: sign in to take part.',
  managePoll: 'Sign in to manage this poll.',
  manageWebhooks: 'Sign in to manage webhooks.',
} as const;

/** Why the shared participants list is not shown yet (`participants_hidden`, its `until`). */
const PARTICIPANTS_HIDDEN = {
  after_vote: 'Who voted is shown once you have voted on this poll, or once it is closed.',
  after_close: 'Who voted is shown once the poll is closed.',
  owner_only: "Who voted is shown to the poll's owner only, as its results are.",
} as const;

/** Why an invitation token was refused (`invitation_refused`, its `reason`). */
const INVITATION_REFUSED = {
  unknown: 'This invitation link is not valid for this poll: check that you used the whole link.',
  used: 'This invitation was already used: one ballot per invitation.',
  revoked: 'This invitation was withdrawn by the poll’s owner.',
} as const;

/** The sentence of a one-time password refusal, also given as the `password` field's error. */
const otpBody = (detail: string, attemptsLeft: number) => ({
  detail,
  errors: { password: [detail] },
  extensions: { attempts_left: attemptsLeft },
});

const otpUsed = otpBody('This vote was already confirmed.', 0);
const otpExpired = {
  expired: otpBody('The one-time password expired: vote again to get a new one.', 0),
  /** The pending vote changed between the password check and its confirmation. */
  noLongerValid: otpBody('The one-time password is no longer valid: vote again.', 0),
};
const otpLocked = (until: string) =>
  otpBody(`Too many wrong passwords: this vote is locked until ${until}.`, 0);
const otpInvalid = (left: number) =>
  otpBody(`The one-time password is wrong: ${left} attempt${left > 1 ? 's' : ''} left.`, left);

/**
 * Every problem the polls service answers (docs/problem-types.md, "polls", is generated from
 * this list): the domain refuses only by throwing one of these (`throw problems.otpUsed()`),
 * and the HTTP edge turns its kind into a status. Codes are public API: never change one.
 */
export const problems = defineProblems({
  /** An unknown poll, comment or verification code. */
  notFound: {
    kind: 'not_found',
    code: 'not_found',
    detail: (p: { what: keyof typeof NOT_FOUND }) => NOT_FOUND[p.what],
  },
  /** The actor may see the poll but not do this to it (domain/access.ts). */
  forbidden: {
    kind: 'forbidden',
    code: 'forbidden',
    detail: (p: { what: keyof typeof FORBIDDEN }) => FORBIDDEN[p.what],
  },
  /** A signed-out actor where the poll or the action wants a signed-in user. */
  unauthenticated: {
    kind: 'unauthenticated',
    code: 'unauthenticated',
    detail: (p: { what: keyof typeof UNAUTHENTICATED }) => UNAUTHENTICATED[p.what],
  },
  /** Field errors (Laravel's `errors`: field → messages), e.g. `votes.<section id>`. */
  invalid: {
    kind: 'invalid',
    code: 'validation_failed',
    detail: (p: { errors: FieldErrors }) => firstError(p.errors),
    errors: (p: { errors: FieldErrors }) => p.errors,
  },
  /** The poll is closed, not yet open, or over (`reason` says which: vote-rules.ts, `openState`). */
  pollNotOpen: {
    kind: 'invalid',
    code: 'poll_not_open',
    detail: (p: { reason: string }) => p.reason,
    errors: (p: { reason: string }) => ({ poll: [p.reason] }),
  },
  /** The voter used all `max_votes_per_voter` votes. */
  voteLimitReached: {
    kind: 'invalid',
    code: 'vote_limit_reached',
    detail: (p: { max: number }) =>
      `The vote limit is reached: at most ${p.max} vote${p.max > 1 ? 's' : ''} per voter.`,
    errors: (_: void) => ({ votes: ['The vote limit is reached.'] }),
    extensions: (_: void) => ({ remaining_votes: 0 }),
  },
  /** Two votes of one voter took the same slot at once while votes remain: retry. */
  concurrentVote: {
    kind: 'conflict',
    code: 'concurrent_vote',
    detail: 'Another vote from this voter is being counted at the same time; try again.',
  },
  /** The `Idempotency-Key` header is not 1 to 255 visible ASCII characters. */
  invalidIdempotencyKey: {
    kind: 'bad_request',
    code: 'invalid_idempotency_key',
    detail: 'The Idempotency-Key header must be 1 to 255 visible ASCII characters.',
    errors: (_: void) => ({ 'Idempotency-Key': ['1 to 255 visible ASCII characters.'] }),
  },
  /** A retry with a used `Idempotency-Key` chose other options (docs/polls.md, "Retrying a vote"). */
  idempotencyKeyReused: {
    kind: 'invalid',
    code: 'idempotency_key_reused',
    detail: 'This Idempotency-Key was already used for a different vote: use a new key for a new vote.',
    errors: (_: void) => ({ 'Idempotency-Key': ['Already used for another vote.'] }),
  },
  /** A live pending vote awaits its one-time password (spec 5.7: "needing a one-time password ... 403"). */
  otpRequired: {
    kind: 'forbidden',
    code: 'otp_required',
    detail:
      'A one-time password is required: confirm your pending vote with the password sent by e-mail ' +
      '(POST /api/polls/{poll_id}/verify) before voting again.',
  },
  /** The pending vote was confirmed already. */
  otpUsed: {
    kind: 'invalid',
    code: 'otp_used',
    detail: otpUsed.detail,
    errors: (_: void) => otpUsed.errors,
    extensions: (_: void) => otpUsed.extensions,
  },
  /** The one-time password expired (or the pending vote changed under the confirmation). */
  otpExpired: {
    kind: 'invalid',
    code: 'otp_expired',
    detail: (p: { why: keyof typeof otpExpired }) => otpExpired[p.why].detail,
    errors: (p: { why: keyof typeof otpExpired }) => otpExpired[p.why].errors,
    extensions: (p: { why: keyof typeof otpExpired }) => otpExpired[p.why].extensions,
  },
  /** `OTP_MAX_ATTEMPTS` wrong passwords: locked until the pending vote expires (`until`, ISO). */
  otpLocked: {
    kind: 'invalid',
    code: 'otp_locked',
    detail: (p: { until: string }) => otpLocked(p.until).detail,
    errors: (p: { until: string }) => otpLocked(p.until).errors,
    extensions: (p: { until: string }) => otpLocked(p.until).extensions,
  },
  /** A wrong password, with the attempts left (`attempts_left`). */
  otpInvalid: {
    kind: 'invalid',
    code: 'otp_invalid',
    detail: (p: { attemptsLeft: number }) => otpInvalid(p.attemptsLeft).detail,
    errors: (p: { attemptsLeft: number }) => otpInvalid(p.attemptsLeft).errors,
    extensions: (p: { attemptsLeft: number }) => otpInvalid(p.attemptsLeft).extensions,
  },
  /** The poll's owner turned comments off. */
  commentsDisabled: {
    kind: 'forbidden',
    code: 'comments_disabled',
    detail: 'Comments are turned off on this poll.',
  },
  /** The poll's owner turned reactions off. */
  reactionsDisabled: {
    kind: 'forbidden',
    code: 'reactions_disabled',
    detail: 'Reactions are turned off on this poll.',
  },
  /** Too many comments or reactions by one voter on one poll this minute (`Retry-After`: `seconds`). */
  rateLimited: {
    kind: 'rate_limited',
    code: 'rate_limited',
    detail: (p: { action: 'comment' | 'reaction'; seconds: number }) =>
      `Too many ${p.action}s on this poll: try again in ${p.seconds} seconds.`,
    retryAfterSeconds: (p: { action: 'comment' | 'reaction'; seconds: number }) => p.seconds,
  },
  /**
   * The poll shows participants' names, but to those who may see its results, and this reader
   * may not yet (`until`: the poll's `results_visibility`; docs/polls.md, "Participants shown to
   * voters").
   */
  participantsHidden: {
    kind: 'forbidden',
    code: 'participants_hidden',
    detail: (p: { until: keyof typeof PARTICIPANTS_HIDDEN }) => PARTICIPANTS_HIDDEN[p.until],
    extensions: (p: { until: keyof typeof PARTICIPANTS_HIDDEN }) => ({ until: p.until }),
  },
  /** A poll for invitees (`voters: invited`) was sent a vote without an invitation. */
  invitationRequired: {
    kind: 'forbidden',
    code: 'invitation_required',
    detail:
      'This poll is for invited voters only: vote with the personal link sent to you by e-mail ' +
      '(POST /api/polls/{poll_id}/ballots).',
  },
  /** A vote by `POST .../vote` on a poll of signed-in users with anonymous ballots. */
  anonymousBallotRequired: {
    kind: 'forbidden',
    code: 'anonymous_ballot_required',
    detail:
      'This poll takes anonymous ballots: vote with POST /api/polls/{poll_id}/ballots (signed in), which ' +
      'gives you a receipt.',
  },
  /** A signed-in voter's second anonymous ballot (the register has them). */
  ballotCast: {
    kind: 'invalid',
    code: 'ballot_already_cast',
    detail: 'You have already cast your ballot on this poll: one ballot per voter.',
    errors: (_: void) => ({ votes: ['You have already cast your ballot on this poll.'] }),
  },
  /** An invitation token that names no live invitation of the poll (docs/polls.md, "Invited voters"). */
  invitationRefused: {
    kind: 'forbidden',
    code: 'invitation_refused',
    detail: (p: { why: keyof typeof INVITATION_REFUSED }) => INVITATION_REFUSED[p.why],
    errors: (p: { why: keyof typeof INVITATION_REFUSED }) => ({ token: [INVITATION_REFUSED[p.why]] }),
    extensions: (p: { why: keyof typeof INVITATION_REFUSED }) => ({ reason: p.why }),
  },
  /** The poll has `WEBHOOK_MAX_SUBSCRIPTIONS` webhooks already (docs/webhooks.md, "Isolation"). */
  webhookLimitReached: {
    kind: 'invalid',
    code: 'webhook_limit_reached',
    detail: (p: { limit: number }) =>
      `This poll already has ${p.limit} webhooks, the most one poll may have: delete one before adding another.`,
    extensions: (p: { limit: number }) => ({ limit: p.limit }),
  },
});

const CODES: ReadonlySet<string> = new Set(Object.values(problems).map((p) => p.code));

/** Whether `err` is a refusal of this catalogue (not a store failure or a bug). */
export const isRefusal = (err: unknown): err is ProblemError =>
  err instanceof ProblemError && err.code !== undefined && CODES.has(err.code);
