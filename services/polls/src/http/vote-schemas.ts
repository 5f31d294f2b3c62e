import { Joi } from '@fieldhouse/config';
import type { VoteInput as VoteInputType } from '../domain/vote-rules.ts';
import { envelope, isoTime, mapOf } from './shared-schemas.ts';

/** Voting and the one-time password flow (spec 2.2; docs/polls.md, "Voting"). */

/** The vote body of spec 2.2 (`votes`: section id to option id), plus `voter_email` for one-time passwords. */
export const VoteInput = Joi.object<VoteInputType>({
  votes: Joi.object()
    .pattern(/^[\s\S]{1,64}$/, Joi.string().max(64))
    .max(20)
    .when('answers', {
      is: Joi.exist(),
      then: Joi.optional().default({}),
      otherwise: Joi.object().min(1).required(),
    })
    .description(
      'Section id to option id: exactly one option per single section (may be left out when `answers` answers every section).',
    ),
  answers: Joi.object()
    .pattern(
      /^[\s\S]{1,64}$/,
      Joi.alternatives().try(
        Joi.array().items(Joi.string().max(64)).max(50),
        Joi.object()
          .pattern(/^[\s\S]{1,64}$/, Joi.string().valid('yes', 'if_need_be', 'no'))
          .max(50),
      ),
    )
    .min(1)
    .max(20)
    .description(
      'docs/polls.md, "Section kinds": the sections that are not single. Multiple: the chosen option ids; ranked: ' +
        'option ids, most preferred first; meeting: option id to yes, if_need_be or no (left out: no).',
    ),
  voter_name: Joi.string().trim().max(100).allow('', null),
  voter_fingerprint: Joi.string().min(8).max(200).description('Required for anonymous voters.'),
  voter_email: Joi.string()
    .email({ tlds: false })
    .max(254)
    .description('Anonymous voters on polls requiring verification: where the password goes.'),
  time_spent: Joi.number()
    .integer()
    .min(0)
    .max(604_800)
    .allow(null)
    .description('Seconds the voter spent before voting.'),
});

/** `POST /api/polls/{poll_id}/verify`: `{verification_code, password}` (`code` accepted for `verification_code`). */
export const VerifyInput = Joi.object<{ verification_code: string; password: string }>({
  verification_code: Joi.string()
    .max(100)
    .required()
    .description('From the vote answer (`code` is accepted too).'),
  password: Joi.string().max(20).required().description('The 6 digits from the e-mail.'),
})
  .rename('code', 'verification_code', { ignoreUndefined: true })
  .unknown(false);

/** The `vote` object of the vote answer: `status` is `counted`, or `pending` until its password is given. */
export const Vote = Joi.object({
  id: Joi.string().required(),
  poll_id: Joi.string().required(),
  votes: mapOf(Joi.string()).required().description('Section id to option id.'),
  answers: mapOf(Joi.alternatives().try(Joi.array().items(Joi.string()), mapOf(Joi.string()))).description(
    'The answers to the sections that are not single, when the poll has some.',
  ),
  voter_name: Joi.string().allow(null).required(),
  time_spent: Joi.number().integer().allow(null).required().description('Seconds.'),
  status: Joi.string().valid('counted', 'pending').required(),
  created_at: isoTime().required(),
}).id('Vote');

/** The `data` of the vote answer (spec 2.2, "vote response"). */
const VoteAnswer = Joi.object({
  vote: Vote.required(),
  requires_verification: Joi.boolean().required(),
  verification_code: Joi.string().allow(null).required().description('Names the pending vote (202 only).'),
  results: mapOf(Joi.number().integer())
    .required()
    .description('Option id to votes (only the voter’s own options when statistics are hidden).'),
  total_votes: Joi.number().integer().required(),
  remaining_votes: Joi.number().integer().required(),
}).id('VoteAnswer');

/** `{data: VoteAnswer, message}`. */
export const VoteAnswerEnvelope = envelope(VoteAnswer);
