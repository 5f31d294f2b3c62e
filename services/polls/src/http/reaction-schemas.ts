import { Joi } from '@fieldhouse/config';
import type { ReactionInput as ReactionInputType } from '../domain/reactions.ts';
import { REACTION_TYPES } from '../domain/types.ts';
import { envelope } from './shared-schemas.ts';

/** Reactions (spec 2.2 "reaction body"; docs/polls.md, "Reactions"). */

/** The reaction body: `{reaction_type, voter_fingerprint?}`. */
export const ReactionInput = Joi.object<ReactionInputType>({
  reaction_type: Joi.string()
    .valid(...REACTION_TYPES)
    .required()
    .messages({ 'any.only': `The reaction_type must be one of: ${REACTION_TYPES.join(', ')}.` }),
  voter_fingerprint: Joi.string().min(8).max(200).description('Required for anonymous callers.'),
});

/** Reaction type to count, all eight types present. */
export const ReactionsSummary = Joi.object(
  Object.fromEntries(REACTION_TYPES.map((t) => [t, Joi.number().integer().required()])),
).id('ReactionsSummary');

/** The `data` of a reaction answer. */
const ReactionAnswer = Joi.object({
  reaction_type: Joi.string()
    .valid(...REACTION_TYPES)
    .required(),
  previous_reaction_type: Joi.string()
    .valid(...REACTION_TYPES)
    .allow(null)
    .required()
    .description('The voter’s reaction before this one, or null for a first reaction.'),
  reactions_summary: ReactionsSummary.required(),
  reactions_total: Joi.number().integer().required(),
}).id('ReactionAnswer');

/** `{data: ReactionAnswer, message}`. */
export const ReactionAnswerEnvelope = envelope(ReactionAnswer);
