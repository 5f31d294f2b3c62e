import type { Caller } from '@fieldhouse/internal-auth';
import { Joi } from '@fieldhouse/config';
import { forbidden, validate } from '@fieldhouse/problem';
import { isDuplicateKey } from '../data/collections.ts';
import type { PollsContext } from './context.ts';
import { limitVoter } from './rate-limit.ts';
import { reactionsSummary } from './results.ts';
import { REACTION_TYPES, type PollDoc } from './types.ts';
import { identifyVoter } from './voter.ts';

const schema = Joi.object<{ reaction_type: string; voter_fingerprint?: string }>({
  reaction_type: Joi.string()
    .valid(...REACTION_TYPES)
    .required()
    .messages({ 'any.only': `The reaction_type must be one of: ${REACTION_TYPES.join(', ')}.` }),
  voter_fingerprint: Joi.string().min(8).max(200),
});

/**
 * `POST /polls/{poll_id}/react` `{reaction_type, voter_fingerprint?}` (spec 2.2, 4.2). One
 * reaction per voter per poll: a new type replaces the old one and moves the counts; the same
 * type again changes nothing. Answer (docs/polls.md, "Reactions"): 201 for a first reaction,
 * 200 otherwise, `{data: {reaction_type, previous_reaction_type, reactions_summary,
 * reactions_total}, message}`. 422 for another type, 403 when reactions are off, 429 over the
 * rate limit.
 */
export async function react(ctx: PollsContext, poll: PollDoc, caller: Caller, body: unknown) {
  const input = validate(schema, body);
  const voter = identifyVoter(poll, caller, input.voter_fingerprint);
  if (!poll.settings.allow_reactions)
    throw forbidden('Reactions are turned off on this poll.', { code: 'reactions_disabled' });
  await limitVoter(ctx, 'reaction', poll._id, voter.key, ctx.settings.reactionsPerMinute);
  const gen = await ctx.counters.generation(poll._id);
  const id = `${poll._id}:${voter.key}`;
  const update = () =>
    ctx.c.reactions.findOneAndUpdate(
      { _id: id },
      {
        $set: { reaction_type: input.reaction_type, updated_at: new Date().toISOString() },
        $setOnInsert: { poll_id: poll._id, voter_key: voter.key },
      },
      { upsert: true, returnDocument: 'before' },
    );
  let before;
  try {
    before = await update();
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    before = await update(); // a concurrent first reaction of the same voter inserted it
  }
  const previous = before?.reaction_type ?? null;
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
    status: previous === null ? 201 : 200,
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
