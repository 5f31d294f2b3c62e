import { requireAccess } from './access.ts';
import type { BodyReader, PollsContext } from './context.ts';
import { problems } from './problems.ts';
import { limitVoter } from './rate-limit.ts';
import { reactionsSummary } from './results.ts';
import { REACTION_TYPES, type Actor, type ReactionType } from './types.ts';
import { identifyVoter } from './vote-rules.ts';

/** The reaction body: `{reaction_type, voter_fingerprint?}` (http/reaction-schemas.ts validates it). */
export interface ReactionInput {
  reaction_type: ReactionType;
  voter_fingerprint?: string;
}

/** Command of {@link react}: the poll, the actor, and the reaction body (read once the poll is known). */
export interface React {
  pollId: string;
  actor: Actor;
  input: BodyReader<ReactionInput>;
}

/** The result of {@link react}: whether it was the voter's first reaction (201) or not (200). */
export interface ReactResult {
  created: boolean;
  message: string;
  data: {
    reaction_type: ReactionType;
    previous_reaction_type: string | null;
    reactions_summary: Record<string, number>;
    reactions_total: number;
  };
}

/**
 * `POST /polls/{poll_id}/react` `{reaction_type, voter_fingerprint?}` (spec 2.2, 4.2). One
 * reaction per voter per poll: a new type replaces the old one and moves the counts; the same
 * type again changes nothing. Answer (docs/polls.md, "Reactions"): 201 for a first reaction,
 * 200 otherwise, `{data: {reaction_type, previous_reaction_type, reactions_summary,
 * reactions_total}, message}`.
 * @throws ProblemError 404 unknown poll; 422 bad body; 401 anonymous actor on an `authenticated`
 *   poll; 422 anonymous actor without `voter_fingerprint`; 403 `reactions_disabled`; 429 `rate_limited`
 *   (per voter and poll, with `Retry-After`).
 */
export async function react(ctx: PollsContext, command: React): Promise<ReactResult> {
  const { poll } = await requireAccess(ctx, {
    actor: command.actor,
    permission: 'poll.react',
    pollId: command.pollId,
  });
  const input = command.input();
  const voter = identifyVoter(poll, command.actor, input.voter_fingerprint);
  if (!poll.settings.allow_reactions) throw problems.reactionsDisabled();
  await limitVoter(ctx, 'reaction', poll._id, voter.key, ctx.settings.reactionsPerMinute);
  const gen = await ctx.counters.generation(poll._id);
  const previous = await ctx.inTransaction(async () =>
    ctx.reactions.set(poll._id, voter.key, input.reaction_type),
  );
  let snapshot = null;
  if (previous !== input.reaction_type) {
    const deltas: Record<string, number> = { [`r:${input.reaction_type}`]: 1 };
    if (previous) deltas[`r:${previous}`] = -1;
    snapshot = await ctx.counters.apply(
      poll._id,
      gen,
      deltas,
      REACTION_TYPES.map((t) => `r:${t}`),
    );
  }
  snapshot ??= await ctx.counters.read(poll._id);
  const summary = reactionsSummary(snapshot);
  return {
    created: previous === null,
    message:
      previous === null
        ? 'Your reaction was added.'
        : previous === input.reaction_type
          ? 'Your reaction is unchanged.'
          : `Your reaction was changed from ${previous} to ${input.reaction_type}.`,
    data: {
      reaction_type: input.reaction_type,
      previous_reaction_type: previous,
      reactions_summary: summary,
      reactions_total: Object.values(summary).reduce((a, b) => a + b, 0),
    },
  };
}
