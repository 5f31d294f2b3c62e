import { createHash } from 'node:crypto';
import type { PendingVoteDoc } from '../data/documents.ts';
import type { BodyReader, PollsContext } from './context.ts';
import { hourOf, newId } from './ids.ts';
import { otpEmail, type EmailLanguage } from './otp-email.ts';
import { hashPassword, newPassword, newVerificationCode, passwordMatches } from './otp.ts';
import { optionCounts, recordReachedMilestone, seesStats } from './results.ts';
import { requireAccess } from './access.ts';
import { isRefusal, problems } from './problems.ts';
import type { Actor, CounterFields, CounterSnapshot, PollDoc, Reservation, VoteDoc, Voter } from './types.ts';
import { assertOpen, identifyVoter, type VoteInput } from './vote-rules.ts';
import { checkBallot, sameAnswers, type CheckedBallot } from './section-kinds.ts';
import { voteView } from './views.ts';
import { participantNamesShown } from './visibility.ts';
import { changes, voteCountedMessage, writeWebhookMessage } from './changes.ts';

/** What a vote came to: counted now, held for its one-time password, or counted before (a retry). */
type VoteOutcome = 'counted' | 'pending' | 'replayed';

/** The result of {@link castVote} and {@link verifyVote}: the outcome, the answer's `data` and `message`. */
export interface VoteResult {
  outcome: VoteOutcome;
  data: VoteAnswer;
  message: string;
}

/** The `data` of the vote answer (spec 2.2). */
interface VoteAnswer {
  vote: ReturnType<typeof voteView>;
  requires_verification: boolean;
  verification_code: string | null;
  results: Record<string, number>;
  total_votes: number;
  remaining_votes: number;
}

/**
 * Results as the voter may see them (docs/polls.md, "Result visibility"): all counts, or only
 * their own choices. `voted`: the voter has a counted vote on the poll (`after_vote`).
 */
function visibleResults(
  poll: PollDoc,
  voter: Voter,
  s: CounterSnapshot,
  own: string[],
  voted: boolean,
): Record<string, number> {
  const sees = seesStats(poll, voter);
  if (sees === true || (sees === 'if_voted' && voted)) return optionCounts(poll, s);
  return Object.fromEntries(own.map((id) => [id, 1]));
}

/** The counter fields a vote's answer shows: totals and every option's count. */
const answerFields = (poll: PollDoc): string[] => [
  'total',
  'voters',
  ...poll.sections.flatMap((s) => s.options.map((o) => `o:${o.id}`)),
];

/** The counter changes one counted vote makes (docs/polls.md, "Counters"). */
export function voteDeltas(
  vote: Pick<VoteDoc, 'seq' | 'hour' | 'option_ids' | 'time_spent' | 'tallies'>,
): CounterFields {
  const deltas: CounterFields = { total: 1, voters: vote.seq === 1 ? 1 : 0, [`h:${vote.hour}`]: 1 };
  for (const id of vote.option_ids) deltas[`o:${id}`] = 1;
  for (const field of vote.tallies ?? []) deltas[field] = 1;
  if (vote.time_spent !== null) deltas[`t:${vote.time_spent}`] = 1;
  return deltas;
}

/**
 * Counts one vote: one MongoDB document whose unique key (poll, voter, seq) makes two
 * concurrent identical votes collide, then the Redis counters and a live notification. The
 * vote is reserved in the uncounted set before its insert ({@link Counters.reserve}), so a
 * crash between the insert and the counters is counted later by the reconciler, exactly once.
 * `seq` is 1 when a voter has one vote (no read at all), else their count of votes plus one.
 * `idempotencyKey` (the `Idempotency-Key` header) is stored with the vote.
 * @throws ProblemError 422 `vote_limit_reached`; 409 when a concurrent vote of the same voter
 *   took the slot while votes remain.
 */
export async function countVote(
  ctx: PollsContext,
  poll: PollDoc,
  voter: Voter,
  input: {
    ballot: CheckedBallot;
    voter_name: string | null;
    time_spent: number | null;
    /** Counted after its one-time password. */
    verified?: boolean;
    /** Its voter was told their name and choices are shown to voters ({@link VoteDoc.names_shown}). */
    namesShown?: boolean;
    /**
     * An anonymous verified ballot (docs/polls.md, "Anonymous but verified"): its `created_at`
     * is the start of its UTC hour, the poll's reporting granularity, not the instant.
     */
    coarseTime?: boolean;
  },
  reserved?: { voteId: string; reservation?: Reservation },
  idempotencyKey?: string,
): Promise<{ vote: VoteDoc; snapshot: CounterSnapshot; remaining: number }> {
  const max = poll.settings.max_votes_per_voter;
  const voteId = reserved?.voteId ?? newId();
  const reservation = reserved?.reservation ?? (await ctx.counters.reserve(poll._id, voteId));
  // Whether the vote may be in MongoDB: from the insert on, unless it answered "duplicate".
  let mayBeStored = false;
  try {
    const seq = max === 1 ? 1 : (await ctx.votes.countByVoter(poll._id, voter.key)) + 1;
    if (seq > max) throw problems.voteLimitReached({ max });
    const now = new Date();
    const vote: VoteDoc = {
      _id: voteId,
      poll_id: poll._id,
      voter_key: voter.key,
      seq,
      choices: input.ballot.choices,
      ...(input.ballot.answers ? { answers: input.ballot.answers } : {}),
      option_ids: input.ballot.optionIds,
      ...(input.ballot.tallies.length ? { tallies: input.ballot.tallies } : {}),
      voter_name: input.voter_name ?? voter.name,
      time_spent: input.time_spent,
      user_id: voter.userId,
      hour: hourOf(now),
      created_at: input.coarseTime ? `${hourOf(now).slice(0, 19)}.000Z` : now.toISOString(),
      ...(idempotencyKey ? { idempotency_key: idempotencyKey } : {}),
      ...(input.verified ? { verified: true as const } : {}),
      ...(input.namesShown ? { names_shown: true as const } : {}),
    };
    mayBeStored = true;
    const inserted = await ctx.votes.insert(vote);
    if (!inserted) {
      mayBeStored = false;
      const used = max === 1 ? 1 : await ctx.votes.countByVoter(poll._id, voter.key);
      if (used >= max) throw problems.voteLimitReached({ max });
      throw problems.concurrentVote();
    }
    // Its webhook message before its counters: a crash in between leaves the reservation, and
    // the reconciler writes the same message again (same id) when it counts the vote.
    await writeWebhookMessage(ctx, voteCountedMessage(poll, vote));
    const applied = await ctx.counters.apply(poll._id, reservation, voteDeltas(vote), answerFields(poll));
    if (applied) await recordReachedMilestone(ctx, poll, 'votes', applied.total, vote.created_at);
    const snapshot = applied ?? (await ctx.counters.read(poll._id));
    ctx.live.voteCounted(poll._id);
    return { vote, snapshot, remaining: max - seq };
  } finally {
    // Surely not stored: the reservation goes. An insert that failed may still have written
    // the vote (a lost answer): its reservation stays for the reconciler, which counts the vote
    // if it is there and drops the reservation after 10 minutes if not.
    if (!mayBeStored) await ctx.counters.release(reservation).catch(() => undefined);
  }
}

/** The 201 answer of a counted vote (spec 2.2), from {@link countVote}'s result. */
function countedAnswer(
  poll: PollDoc,
  voter: Voter,
  counted: Awaited<ReturnType<typeof countVote>>,
  optionIds: string[],
  message: string,
): VoteResult {
  return {
    outcome: 'counted',
    message,
    data: {
      vote: voteView({ ...counted.vote, id: counted.vote._id }, 'counted'),
      requires_verification: false,
      verification_code: null,
      results: visibleResults(poll, voter, counted.snapshot, optionIds, true),
      total_votes: counted.snapshot.total,
      remaining_votes: counted.remaining,
    },
  };
}

/**
 * Holds a vote until its one-time password is given, and queues the e-mail: the pending vote
 * and its e-mail message in one unit of work (`ctx.inTransaction`: the pending vote is taken
 * back when the message cannot be queued, so no vote waits for a password never sent).
 */
async function holdForVerification(
  ctx: PollsContext,
  poll: PollDoc,
  voter: Voter,
  input: VoteInput,
  language: EmailLanguage,
): Promise<VoteResult> {
  const email = voter.email ?? input.voter_email;
  if (!email)
    throw problems.invalid({
      errors: { voter_email: ['The voter_email field is required: this poll confirms votes by e-mail.'] },
    });
  const max = poll.settings.max_votes_per_voter;
  const used = await ctx.votes.countByVoter(poll._id, voter.key);
  if (used >= max) throw problems.voteLimitReached({ max });
  const now = new Date();
  const code = newVerificationCode();
  const password = newPassword();
  const doc: PendingVoteDoc = {
    _id: `${poll._id}:${voter.key}`,
    code,
    poll_id: poll._id,
    voter_key: voter.key,
    user_id: voter.userId,
    email,
    choices: input.votes ?? {},
    ...(input.answers ? { answers: input.answers } : {}),
    voter_name: input.voter_name || voter.name,
    time_spent: input.time_spent ?? null,
    ...(participantNamesShown(poll.settings) ? { names_shown: true as const } : {}),
    password_hash: hashPassword(code, password),
    attempts: 0,
    state: 'pending',
    expires_at: new Date(now.getTime() + ctx.settings.otpTtlSeconds * 1000).toISOString(),
    created_at: now.toISOString(),
  };
  const minutes = Math.round(ctx.settings.otpTtlSeconds / 60);
  const mail = otpEmail(email, { password, title: poll.title, minutes, code }, language);
  await ctx.inTransaction(async ({ outbox, onRollback }) => {
    if (!(await ctx.pending.put(doc, now.toISOString()))) throw problems.otpRequired();
    onRollback(() => ctx.pending.remove(doc._id));
    await changes.append(outbox, 'email.requested', mail);
  });
  const s = await ctx.counters.read(poll._id);
  return {
    outcome: 'pending',
    message: `A one-time password was sent to ${email}. Confirm the vote with it before ${doc.expires_at}.`,
    data: {
      vote: voteView({ ...doc, id: code, choices: doc.choices }, 'pending'),
      requires_verification: true,
      verification_code: code,
      // Held for its password: not counted; an earlier counted vote of theirs still counts.
      results: visibleResults(poll, voter, s, [], used > 0),
      total_votes: s.total,
      remaining_votes: max - used,
    },
  };
}

/**
 * A vote id reserved for counting before the vote is handled ({@link castVote} reserves it
 * together with loading the poll: one round trip). `taken` turns true once {@link countVote}
 * owns the reservation; until then the caller releases it if the vote fails.
 */
interface ReservedVote {
  voteId: string;
  reservation: Reservation;
  taken: boolean;
}

/**
 * The answer to a retried vote (same `Idempotency-Key` from the same voter): the original vote,
 * with the current results (docs/polls.md, "Retrying a vote").
 * @throws ProblemError 422 `idempotency_key_reused` when the retry chose other options.
 */
async function replayedAnswer(
  ctx: PollsContext,
  poll: PollDoc,
  voter: Voter,
  original: VoteDoc,
  ballot: CheckedBallot,
): Promise<VoteResult> {
  const choices = ballot.choices;
  const same =
    Object.keys(choices).length === Object.keys(original.choices).length &&
    Object.entries(choices).every(([k, v]) => original.choices[k] === v) &&
    sameAnswers(ballot.answers, original.answers);
  if (!same) throw problems.idempotencyKeyReused();
  const [s, used] = await Promise.all([
    ctx.counters.read(poll._id),
    ctx.votes.countByVoter(poll._id, voter.key),
  ]);
  const max = poll.settings.max_votes_per_voter;
  return {
    ...countedAnswer(
      poll,
      voter,
      { vote: original, snapshot: s, remaining: Math.max(0, max - used) },
      original.option_ids,
      'This vote was already counted (same Idempotency-Key).',
    ),
    outcome: 'replayed',
  };
}

/** Command of {@link castVote}: the poll, the actor, the vote body (read once the poll is known) and its key. */
export interface CastVote {
  pollId: string;
  actor: Actor;
  input: BodyReader<VoteInput>;
  /** The `Idempotency-Key` header (1 to 255 visible ASCII characters), when sent. */
  idempotencyKey?: string;
  /** The voter's language (the request's `Accept-Language`): the one-time password e-mail's. */
  language?: EmailLanguage;
}

/**
 * `POST /polls/{poll_id}/vote` (spec 2.2, 4.2): "A voter picks one option per section and gets
 * back aggregated results." Identifies the voter, checks the poll is open and the choices, then
 * counts the vote (`counted`: 201) or holds it for its one-time password (`pending`: 202,
 * `requires_verification: true`).
 *
 * The poll is read together with the vote's reservation for counting (one round trip); a
 * reservation the vote did not take is released whatever happens.
 *
 * `idempotencyKey` (docs/polls.md "Retrying a vote"): when this voter already has a counted vote
 * with this key, the answer is that vote again (`replayed`: 201 with `Idempotent-Replayed`)
 * instead of a new vote or "limit reached", whether the first answer reached the client or not.
 * @throws ProblemError 404 unknown poll; 401 anonymous actor on an `authenticated` poll; 403
 *   `otp_required`; 409 `concurrent_vote`; 422 bad body, fingerprint, sections or e-mail,
 *   `poll_not_open`, `vote_limit_reached`, `idempotency_key_reused`.
 */
export async function castVote(ctx: PollsContext, command: CastVote): Promise<VoteResult> {
  const voteId = newId();
  // The access check (it loads the poll) and the vote's reservation in parallel; no counters
  // yet: countVote reserves. A refusal is awaited once the reservation is known (to release it).
  const access = requireAccess(ctx, {
    actor: command.actor,
    permission: 'poll.vote',
    pollId: command.pollId,
  });
  access.catch(() => undefined);
  const reservation = await ctx.counters.tryReserve(command.pollId, voteId);
  const reserved: ReservedVote | undefined = reservation ? { voteId, reservation, taken: false } : undefined;
  try {
    const { poll } = await access;
    return await voteOnPoll(ctx, poll, command, reserved);
  } finally {
    if (reserved && !reserved.taken) await ctx.counters.release(reserved.reservation).catch(() => undefined);
  }
}

/** {@link castVote} once the poll is known (`reserved`: the vote's reservation, if one was made). */
async function voteOnPoll(
  ctx: PollsContext,
  poll: PollDoc,
  { actor, input: readInput, idempotencyKey, language }: CastVote,
  reservedVote: ReservedVote | undefined,
): Promise<VoteResult> {
  const input = readInput();
  const voter = identifyVoter(poll, actor, input.voter_fingerprint);
  const key = idempotencyKey;
  // A keyed vote's id comes from (poll, voter, key): its retry collides with it on `_id`, and
  // the original is then one lookup by `_id` away (no read before the insert: FerretDB scans a
  // collection for any filter but `_id`). It reserves its own counting under that id.
  const keyedId = key ? keyedVoteId(poll._id, voter.key, key) : undefined;
  const reserved = keyedId ? undefined : reservedVote;
  let ballot: CheckedBallot | undefined;
  try {
    // A poll for invitees, or with anonymous ballots, takes them at POST .../ballots only
    // (domain/invited-ballot.ts).
    if (poll.settings.voters === 'invited') throw problems.invitationRequired();
    if (poll.settings.anonymous) throw problems.anonymousBallotRequired();
    assertOpen(poll);
    ballot = checkBallot(poll, input);
    if (poll.settings.require_verification)
      return await holdForVerification(ctx, poll, voter, input, language ?? 'en');
    if (reserved) reserved.taken = true;
    const counted = await countVote(
      ctx,
      poll,
      voter,
      {
        ballot,
        voter_name: input.voter_name || null,
        time_spent: input.time_spent ?? null,
        namesShown: participantNamesShown(poll.settings),
      },
      reserved ?? (keyedId ? { voteId: keyedId } : undefined),
      key,
    );
    return countedAnswer(poll, voter, counted, ballot.optionIds, 'Your vote was counted.');
  } catch (err) {
    // Refused (limit, closed poll, a concurrent retry...): a vote already counted with this key
    // is the answer.
    const original = keyedId && isRefusal(err) ? await ctx.votes.byId(keyedId) : null;
    if (original)
      return replayedAnswer(
        ctx,
        poll,
        voter,
        original,
        ballot ?? { choices: input.votes ?? {}, answers: input.answers, optionIds: [], tallies: [] },
      );
    throw err;
  }
}

/** The id of a vote sent with an `Idempotency-Key`: `k` and a SHA-256 of (poll, voter, key). */
const keyedVoteId = (pollId: string, voterKey: string, key: string): string =>
  `k${createHash('sha256').update(`${pollId}\n${voterKey}\n${key}`).digest('base64url')}`;

/** Command of {@link verifyVote}: the poll and its `{verification_code, password}` body (read once the poll is known). */
export interface VerifyVote {
  pollId: string;
  actor: Actor;
  input: BodyReader<{ verification_code: string; password: string }>;
}

/**
 * `POST /polls/{poll_id}/verify` `{verification_code, password}` (`code` is accepted for
 * `verification_code`): counts the pending vote when the password is right (201, the vote
 * answer).
 * @throws ProblemError 404 unknown poll or code; 422 `otp_expired`, `otp_locked`,
 *   `otp_invalid` (with `attempts_left`), `otp_used`, `poll_not_open`, `vote_limit_reached`;
 *   409 `concurrent_vote`.
 */
export async function verifyVote(ctx: PollsContext, command: VerifyVote): Promise<VoteResult> {
  const { poll } = await requireAccess(ctx, {
    actor: command.actor,
    permission: 'poll.vote',
    pollId: command.pollId,
  });
  const input = command.input();
  const pending = await ctx.pending.byCode(poll._id, input.verification_code);
  if (!pending) throw problems.notFound({ what: 'pendingVote' });
  const max = ctx.settings.otpMaxAttempts;
  if (pending.state === 'verified') throw problems.otpUsed();
  const nowIso = new Date().toISOString();
  if (pending.expires_at <= nowIso) throw problems.otpExpired({ why: 'expired' });
  if (pending.attempts >= max) throw problems.otpLocked({ until: pending.expires_at });
  assertOpen(poll);
  if (!passwordMatches(pending.code, input.password, pending.password_hash)) {
    const after = await ctx.pending.failAttempt(pending._id, max);
    const left = after ? max - after.attempts : 0;
    if (left === 0) throw problems.otpLocked({ until: pending.expires_at });
    throw problems.otpInvalid({ attemptsLeft: left });
  }
  const verified = await ctx.pending.markVerified(pending._id, max, nowIso);
  if (!verified) throw problems.otpExpired({ why: 'noLongerValid' });
  const ballot = checkBallot(poll, { votes: verified.choices, answers: verified.answers });
  const voter: Voter = {
    key: verified.voter_key,
    userId: verified.user_id,
    name: verified.voter_name,
    email: verified.email,
  };
  const counted = await countVote(ctx, poll, voter, {
    ballot,
    voter_name: verified.voter_name,
    time_spent: verified.time_spent,
    verified: true,
    // What the voter was told when they sent it, not what the poll says now.
    namesShown: verified.names_shown === true,
  });
  return countedAnswer(poll, voter, counted, ballot.optionIds, 'Your vote was confirmed and counted.');
}
