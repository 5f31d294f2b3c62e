import { Joi } from '@fieldhouse/config';
import { Comment } from './comment-schemas.ts';
import { Poll, Section } from './polls-schemas.ts';
import { ReactionsSummary } from './reaction-schemas.ts';
import { isoTime, mapOf } from './shared-schemas.ts';

/** Results and live results (spec 2.2 "results response"; docs/polls.md, "Results"). */

/**
 * `?voter_fingerprint=`: an anonymous reader's fingerprint, to show their own vote when
 * statistics are hidden. Used when it is one string of at most 200 characters; anything else
 * is ignored (never an error), as the `X-Voter-Fingerprint` header is.
 */
export const ResultsQuery = Joi.object<{ voter_fingerprint?: unknown }>({
  voter_fingerprint: Joi.alternatives()
    .try(Joi.string(), Joi.any().strip())
    .description(
      'Anonymous readers: shows their own vote when statistics are hidden (ignored unless a string of at most 200 characters).',
    ),
});

/** The `X-Voter-Fingerprint` request header: the same as `?voter_fingerprint=` (the query wins). */
export const fingerprintHeader = {
  'X-Voter-Fingerprint': {
    description: 'Anonymous readers: the fingerprint they vote with, when not given in the query.',
    schema: { type: 'string', maxLength: 200 },
  },
};

/** The `analytics` object (docs/polls.md, "Analytics"); empty when statistics are hidden. */
const Analytics = Joi.object({
  votes_per_hour: Joi.array()
    .items(Joi.object({ hour: isoTime().required(), votes: Joi.number().integer().required() }))
    .description('Votes per UTC hour, oldest first (the last 48 hours with votes).'),
  mean_time_spent: Joi.number().allow(null).description('Seconds.'),
  median_time_spent: Joi.number().allow(null).description('Seconds (lower median).'),
  top_options: Joi.array().items(
    Joi.object({
      section_id: Joi.string().required(),
      option_id: Joi.string().allow(null).required(),
      label: Joi.string().allow(null).required(),
      votes: Joi.number().integer().required(),
      tied_option_ids: Joi.array()
        .items(Joi.string())
        .required()
        .description('Every option with the most votes when two or more share it (a tie), else empty.'),
    }),
  ),
}).id('Analytics');

/** A milestone reached (docs/polls.md, "Achievements"). */
const Achievement = Joi.object({
  key: Joi.string()
    .valid('first_vote', 'votes_10', 'votes_100', 'votes_1000', 'most_discussed', 'trending')
    .required(),
  title: Joi.string().required(),
  description: Joi.string().required(),
  achieved_at: isoTime().required(),
}).id('Achievement');

/** One instant-runoff round (docs/polls.md, "Ranked: instant-runoff and Borda"). */
const IrvRound = Joi.object({
  round: Joi.number().integer().required(),
  counts: mapOf(Joi.number().integer()).required().description('Continuing option id to votes.'),
  exhausted: Joi.number().integer().required().description('Ballots with no continuing option left.'),
  continuing: Joi.number().integer().required(),
  threshold: Joi.number().integer().required().description('Votes needed to win: floor(continuing / 2) + 1.'),
  eliminated: Joi.array().items(Joi.string()).required(),
  elected: Joi.string().allow(null).required(),
  tie: Joi.object({
    between: Joi.array().items(Joi.string()).required(),
    rule: Joi.string().valid('previous_rounds', 'borda', 'option_order').required(),
    eliminated: Joi.string().required(),
  })
    .allow(null)
    .required()
    .description('The tie between the fewest votes broken this round, and by which rule.'),
}).id('IrvRound');

/**
 * The results of a section that is not single (docs/polls.md, "Section results"): `multiple`
 * has `counts`; `ranked` `first_preferences`, `instant_runoff` and `borda`; `meeting` `slots`,
 * `best` and `final_option_id`.
 */
const SectionResult = Joi.object({
  section_id: Joi.string().required(),
  kind: Joi.string().valid('multiple', 'ranked', 'meeting').required(),
  ballots: Joi.number().integer().required().description('Votes counted.'),
  counts: mapOf(Joi.number().integer()).description('Multiple: option id to the votes that chose it.'),
  first_preferences: mapOf(Joi.number().integer()).description('Ranked: option id to first preferences.'),
  instant_runoff: Joi.object({
    rounds: Joi.array().items(IrvRound).required(),
    winner: Joi.string().allow(null).required().description('Null without ballots or on a tie.'),
    tied_winners: Joi.array()
      .items(Joi.string())
      .required()
      .description('The options tied in the last round.'),
  }).description('Ranked.'),
  borda: Joi.array()
    .items(
      Joi.object({
        option_id: Joi.string().required(),
        score: Joi.number().integer().required(),
        rank: Joi.number().integer().required().description('Equal scores share a rank.'),
      }),
    )
    .description('Ranked: the Borda count, highest first.'),
  slots: Joi.array()
    .items(
      Joi.object({
        option_id: Joi.string().required(),
        starts_at: isoTime().allow(null).required(),
        ends_at: isoTime().allow(null).required(),
        yes: Joi.number().integer().required(),
        if_need_be: Joi.number().integer().required(),
        no: Joi.number().integer().required(),
        rank: Joi.number()
          .integer()
          .required()
          .description('By yes, then if need be; equal slots share a rank.'),
      }),
    )
    .description('Meeting: every slot, best first.'),
  best: Joi.array().items(Joi.string()).description('Meeting: the slots ranked first (several: a tie).'),
  final_option_id: Joi.string().allow(null).description('Meeting: the slot the owner picked.'),
}).id('SectionResult');

/**
 * The results of spec 2.2. When the caller may not see the results (docs/polls.md, "Result
 * visibility": `poll.settings.results_visibility`; spec 2.2's `show_stats_public: false` for
 * non-owners): `results` has only the options of the caller's own latest vote, `analytics` is empty,
 * `achievements` is empty, `stats_hidden` is true and `my_vote` is present.
 */
const Results = Joi.object({
  poll: Poll.required(),
  sections: Joi.array().items(Section).required(),
  results: mapOf(Joi.number().integer()).required().description('Option id to votes.'),
  total_votes: Joi.number().integer().required(),
  unique_voters: Joi.number().integer().required(),
  reactions_total: Joi.number().integer().required(),
  comments_total: Joi.number().integer().required(),
  reactions_summary: ReactionsSummary.required(),
  recent_comments: Joi.array().items(Comment).required().description('The five newest.'),
  show_stats_public: Joi.boolean().required(),
  stats_hidden: Joi.boolean()
    .required()
    .description(
      'true when the caller may not see the counts (poll.settings.results_visibility: after_vote before ' +
        'they vote, after_close before the poll is over, owner_only): results has only their own choices.',
    ),
  my_vote: mapOf(Joi.string())
    .allow(null)
    .description(
      'Only when statistics are hidden: the caller’s latest vote (section id to option id), or null.',
    ),
  analytics: Analytics.required(),
  achievements: Joi.array().items(Achievement).required(),
  section_results: Joi.array()
    .items(SectionResult)
    .description(
      'Polls with sections that are not single: their results (empty when statistics are hidden).',
    ),
}).id('Results');

/** `{data: Results, message}` (spec 2.2 "results response"). */
export const ResultsAnswer = Joi.object({ data: Results.required(), message: Joi.string().required() });
