import { Joi } from '@fieldhouse/config';
import type { BallotInput as BallotInputType } from '../domain/invited-ballot.ts';
import { MAX_BALLOT_IDS_PAGE } from '../domain/invited-ballot.ts';
import { envelope, isoTime, listEnvelope } from './shared-schemas.ts';
import { Vote, VoteInput } from './vote-schemas.ts';

/** Invited voters and anonymous but verified ballots (docs/polls.md, "Invited voters"). */

/** `POST /api/polls/{poll_id}/invitees`: the addresses to invite (a pasted list, split by the client). */
export const InviteesInput = Joi.object<{ emails: string[] }>({
  emails: Joi.array()
    .items(Joi.string().trim().email({ tlds: false }).max(254))
    .min(1)
    .max(1000)
    .required()
    .description(
      '1 to 1,000 e-mail addresses; lower-cased, repeats and addresses already invited are skipped.',
    ),
});

/** An invitee as the owner sees it: never what they chose. */
const Invitee = Joi.object({
  id: Joi.string().required(),
  email: Joi.string().required(),
  status: Joi.string().valid('invited', 'voted', 'revoked').required(),
  invited_at: isoTime().required(),
  reminded_at: isoTime().allow(null).required(),
  reminders: Joi.number().integer().required(),
  voted_hour: isoTime()
    .allow(null)
    .required()
    .description('The UTC hour the invitee voted (the register keeps no finer time), or null.'),
}).id('Invitee');

/** `{data: {added, skipped}, message}`. */
export const InviteesAdded = envelope(
  Joi.object({
    added: Joi.array().items(Invitee).required(),
    skipped: Joi.array().items(Joi.string()).required().description('Addresses already invited.'),
  }),
);

/** `{data: Invitee[], pagination, counts, message}`. */
export const InviteeList = listEnvelope(Invitee).keys({
  counts: Joi.object({
    invited: Joi.number().integer().required(),
    voted: Joi.number().integer().required(),
    revoked: Joi.number().integer().required(),
  }).required(),
});

/** `{data: Invitee, message}`. */
export const InviteeAnswer = envelope(Invitee);

/** `{data: {reminded, remaining}, message}`. */
export const RemindAnswer = envelope(
  Joi.object({
    reminded: Joi.number().integer().required(),
    remaining: Joi.number().integer().required().description('Invitees left for another request.'),
  }),
);

/** The path parameters of one invitee. */
export const inviteeParams = Joi.object<{ poll_id: string; invitee_id: string }>({
  poll_id: Joi.string().required().description('The poll id (a string).'),
  invitee_id: Joi.string().max(64).required().description('The invitee id.'),
});

/** `POST /api/polls/{poll_id}/ballots`: the link's token (or none, signed in) and the choices, as a vote's. */
export const BallotInput = Joi.object<BallotInputType>({
  token: Joi.string()
    .max(200)
    .description(
      'The token of the personal link (`#invite=<token>`); absent for a signed-in voter on a poll of signed-in users with anonymous ballots.',
    ),
  votes: VoteInput.extract('votes'),
  answers: VoteInput.extract('answers'),
}).id('BallotInput');

/** `{data: receipt, message}`. */
export const BallotReceiptAnswer = envelope(
  Joi.object({
    ballot_id: Joi.string().required().description('The receipt: the ballot’s random id.'),
    poll_id: Joi.string().required(),
    anonymous: Joi.boolean().required(),
    counted_hour: isoTime().required(),
    total_votes: Joi.number().integer().required(),
  }),
);

/** `?after&limit` of the published ballot ids. */
export const BallotIdsQuery = Joi.object<{ after?: string; limit: number }>({
  after: Joi.string().max(100).description('The last id of the previous page.'),
  limit: Joi.number().integer().min(1).max(MAX_BALLOT_IDS_PAGE).default(MAX_BALLOT_IDS_PAGE),
});

/** `{data: {ballot_ids, next_after}, message}`. */
export const BallotIdsAnswer = envelope(
  Joi.object({
    ballot_ids: Joi.array().items(Joi.string()).required(),
    next_after: Joi.string()
      .allow(null)
      .required()
      .description('The `after` of the next page; null at the end.'),
  }),
);

/** `POST /api/polls/{poll_id}/ballot-ids/check`: the receipt to check. */
export const ReceiptInput = Joi.object<{ ballot_id: string }>({
  ballot_id: Joi.string().max(100).required().description('The receipt (ballot id).'),
});

/** `{data: {ballot_id, counted}, message}`. */
export const ReceiptAnswer = envelope(
  Joi.object({ ballot_id: Joi.string().required(), counted: Joi.boolean().valid(true).required() }),
);

/** `POST /api/polls/{poll_id}/invitation`: the personal link's token (in the body, never a URL). */
export const InvitationInput = Joi.object<{ token: string }>({
  token: Joi.string().max(200).required().description('The token of the personal link (`#invite=<token>`).'),
});

/** `{data: MyInvitation, message}`: the state of a personal link. */
export const MyInvitationAnswer = envelope(
  Joi.object({
    status: Joi.string()
      .valid('unused', 'used', 'revoked', 'unknown')
      .required()
      .description(
        '`unused`: the link takes one ballot; `used`: its ballot is counted; `revoked`: withdrawn by the ' +
          'owner; `unknown`: no invitation of this poll has this token.',
      ),
    anonymous: Joi.boolean().required().description('The poll’s ballots are anonymous (`votes` is empty).'),
    voted_hour: isoTime()
      .allow(null)
      .required()
      .description('`used`: the UTC hour the register recorded (no finer time is kept); else null.'),
    votes: Joi.array()
      .items(Vote)
      .required()
      .description(
        '`used` on a poll that is not anonymous: the ballot cast with this invitation; else empty (an ' +
          'anonymous ballot keeps no link to its invitee).',
      ),
  }).id('MyInvitation'),
);
