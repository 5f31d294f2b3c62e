import { requireAccess } from './access.ts';
import type { BodyReader, PollsContext } from './context.ts';
import { problems } from './problems.ts';
import { fullLoadSince, newestOf, PUBLIC_PARTICIPANTS_MAX } from './public-participants.ts';
import { seesStats } from './results.ts';
import type { Actor, ParticipantView, PollDoc, VoteDoc } from './types.ts';
import { readerOf } from './vote-rules.ts';
import { resultsVisibility } from './visibility.ts';

/**
 * Who voted (issue 37, part 3; docs/polls.md, "Who voted"): the owner's grid of counted votes,
 * whatever the poll's `results_visibility` (the owner sees everything, as with results); and,
 * when the owner turned `show_participant_names` on, the shared list others who may see the
 * results see ({@link publicRow}).
 */

/** A counted vote as a row of the grid (and of the votes export). */
const participantView = (v: VoteDoc): ParticipantView => ({
  vote_id: v._id,
  voter_name: v.voter_name,
  user_id: v.user_id,
  seq: v.seq,
  created_at: v.created_at,
  time_spent: v.time_spent,
  verified: v.verified === true,
  votes: v.choices,
  answers: v.answers ?? {},
  choices_hidden: false,
});

/**
 * A ballot of an anonymous poll as a row: when it was counted (its UTC hour: all it keeps) and
 * nothing else. Its choices would join it to a voter through the register's voting hour, and its
 * id is the voter's receipt (docs/polls.md, "Anonymous but verified"); who voted is the invitee
 * list's (`GET .../invitees`).
 */
const anonymousRow = (v: VoteDoc): ParticipantView => ({
  vote_id: null,
  voter_name: null,
  user_id: null,
  seq: 1,
  created_at: v.created_at,
  time_spent: null,
  verified: v.verified === true,
  votes: {},
  answers: {},
  choices_hidden: true,
});

/**
 * A counted vote as a row of the shared list others than the owner see (docs/polls.md,
 * "Participants shown to voters"): the name its voter gave and their choices, as the voting page
 * promises ("shown with your vote to everyone who can see the results"); no vote id, no user id,
 * no time spent.
 */
const publicRow = (v: VoteDoc): ParticipantView => ({
  ...participantView(v),
  vote_id: null,
  user_id: null,
  time_spent: null,
});

/** Command of {@link listParticipants}: the poll, who asks, the page (read once access is granted). */
export interface ListParticipants {
  pollId: string;
  actor: Actor;
  /** `voter_fingerprint` of an anonymous reader: whether they voted (`after_vote` polls). */
  fingerprint: string | undefined;
  page: BodyReader<{ page: number; per_page: number }>;
}

/**
 * Whether a reader who is not the owner may see the shared list of a poll whose names are shown:
 * exactly when they may see its results (domain/visibility.ts), looking up their vote only when
 * that depends on it.
 * @throws ProblemError `participants_hidden` (403) naming the poll's `results_visibility`.
 */
async function checkSharedListVisible(
  ctx: PollsContext,
  poll: PollDoc,
  actor: Actor,
  fingerprint: string | undefined,
): Promise<void> {
  const voter = readerOf(actor, fingerprint);
  const sees = seesStats(poll, voter);
  if (sees === true) return;
  if (sees === 'if_voted' && voter && (await ctx.votes.latestByVoter(poll._id, voter.key))) return;
  const visibility = resultsVisibility(poll.settings);
  // `always` never gets here (seesStats is true).
  throw problems.participantsHidden({ until: visibility === 'always' ? 'owner_only' : visibility });
}

/**
 * `GET /polls/{poll_id}/participants?page&per_page` (docs/polls.md, "Who voted"): counted votes,
 * newest first (equal times: by id, descending), one page (per_page 1 to 100, default 15), and
 * how many there are. Votes held for their one-time password are not counted yet and not listed.
 *
 * - The owner: every counted vote (`total`: the counters' count); on an anonymous poll each row
 *   is a ballot's hour only (no id, no choices: {@link anonymousRow}).
 * - Others, when the poll shows participants' names (domain/visibility.ts, `participantNamesShown`) and they may
 *   see its results: the shared list, the newest {@link PUBLIC_PARTICIPANTS_MAX} counted votes
 *   ({@link publicRow}; `total`: how many it holds), loaded once per counted total and process
 *   and refreshed from the votes counted since (domain/public-participants.ts), so neither readers
 *   nor the poll's size multiply what it costs the store.
 * @throws ProblemError 404 unknown poll; names not shown (access.ts, `participants.read`): 401
 *   signed out, 403 `forbidden` not the owner; names shown: 403 `participants_hidden` while the
 *   reader may not see the results; 422 bad page.
 */
export async function listParticipants(
  ctx: PollsContext,
  { pollId, actor, fingerprint, page: readPage }: ListParticipants,
): Promise<{ items: ParticipantView[]; total: number }> {
  const { poll } = await requireAccess(ctx, { actor, permission: 'participants.read', pollId });
  const owner = actor.userId !== null && actor.userId === poll.owner_id;
  if (!owner) await checkSharedListVisible(ctx, poll, actor, fingerprint);
  const { page, per_page: perPage } = readPage();
  const skip = (page - 1) * perPage;
  // The total is the counters' (exact, rebuilt from the votes when lost): a count of the votes
  // would scan them all on FerretDB.
  if (owner) {
    const [votes, total] = await Promise.all([
      ctx.votes.pageOfPoll(poll._id, skip, perPage),
      ctx.counters.total(poll._id),
    ]);
    const row = poll.settings.anonymous === true ? anonymousRow : participantView;
    return { items: votes.map(row), total };
  }
  const total = await ctx.counters.total(poll._id);
  const rows = await ctx.participantsCache.rows(poll._id, total, async (since) => {
    // A first load starts at the hour from which the counters' hours hold the newest votes.
    const from = since ?? fullLoadSince((await ctx.counters.read(poll._id)).hours, PUBLIC_PARTICIPANTS_MAX);
    const votes = await newestOf(ctx.votes.sinceOfPoll(poll._id, from), PUBLIC_PARTICIPANTS_MAX);
    return votes.map((v) => ({
      _id: v._id,
      created_at: v.created_at,
      // Listed only when its voter was told so as they voted (docs/polls.md).
      row: v.names_shown === true ? publicRow(v) : null,
    }));
  });
  return { items: rows.slice(skip, skip + perPage), total: rows.length };
}
