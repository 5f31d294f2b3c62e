import { Joi } from '@fieldhouse/config';
import { pageQuerySchema } from '@fieldhouse/http';
import type { ExportContent } from '../domain/exports.ts';
import { envelope, isoTime, listEnvelope, mapOf } from './shared-schemas.ts';
import { ResultsQuery } from './results-schemas.ts';
import { Vote } from './vote-schemas.ts';

/** Who voted: the participants grid, exports and "my ballot" (docs/polls.md, "Who voted"). */

/** One row of the participants grid: one counted vote. */
const Participant = Joi.object({
  vote_id: Joi.string()
    .allow(null)
    .required()
    .description('null on an anonymous poll (the id is the receipt), and in the list shown to others.'),
  voter_name: Joi.string()
    .allow(null)
    .required()
    .description("The name the voter gave, or the signed-in user's."),
  user_id: Joi.number()
    .integer()
    .allow(null)
    .required()
    .description('null for an anonymous voter, and in the list shown to others.'),
  seq: Joi.number().integer().required().description('The n-th counted vote of this voter on the poll.'),
  created_at: isoTime().required(),
  time_spent: Joi.number()
    .integer()
    .allow(null)
    .required()
    .description('Seconds; null in the list shown to others.'),
  verified: Joi.boolean().required().description('Counted after its one-time password.'),
  votes: mapOf(Joi.string()).required().description('Single sections: section id to option id.'),
  answers: mapOf(Joi.alternatives().try(Joi.array().items(Joi.string()), mapOf(Joi.string())))
    .required()
    .description('Sections that are not single: as in the vote body.'),
  choices_hidden: Joi.boolean()
    .required()
    .description('true on an anonymous poll: no id, no choices, the ballot’s UTC hour only.'),
}).id('Participant');

/** `{data: Participant[], pagination, message}`. */
export const ParticipantList = listEnvelope(Participant);

/** `?page&per_page&voter_fingerprint` of the participants list. */
export const ParticipantsQuery = Joi.object<{ page: number; per_page: number; voter_fingerprint?: unknown }>({
  ...pageQuerySchema,
  voter_fingerprint: ResultsQuery.extract('voter_fingerprint'),
});

/** `?content=votes|results&format=csv|xlsx`. */
export const ExportQuery = Joi.object<{ content: ExportContent; format: 'csv' | 'xlsx' }>({
  content: Joi.string()
    .valid('votes', 'results')
    .default('votes')
    .description('`votes`: one row per counted vote; `results`: one row per option.'),
  format: Joi.string().valid('csv', 'xlsx').default('csv'),
});

/** `{data: MyBallot, message}`. */
export const MyBallotAnswer = envelope(
  Joi.object({
    voted: Joi.boolean().required().description('At least one counted vote on the poll.'),
    votes: Joi.array().items(Vote).required().description('Their counted votes, oldest first.'),
    remaining_votes: Joi.number().integer().required(),
    max_votes_per_voter: Joi.number().integer().required(),
    identified: Joi.boolean()
      .required()
      .description(
        'false for an anonymous caller without fingerprint (nothing can be theirs); on an anonymous poll, ' +
          'true only for a signed-in caller on a poll of signed-in users.',
      ),
    anonymous: Joi.boolean()
      .required()
      .description(
        'The poll’s ballots are anonymous: `voted` comes from the register of who voted, `votes` is empty.',
      ),
    voted_hour: isoTime()
      .allow(null)
      .required()
      .description(
        'On an anonymous poll, the UTC hour the register recorded the caller’s ballot in; else null.',
      ),
  }).id('MyBallot'),
);
