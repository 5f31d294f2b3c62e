import { paginated } from '@fieldhouse/http';
import { castInvitedBallot, checkReceipt, listBallotIds } from '../domain/invited-ballot.ts';
import { addInvitees, listInvitees, remindInvitees, removeInvitee } from '../domain/invitees.ts';
import { getMyInvitation } from '../domain/my-invitation.ts';
import type { EmailLanguage } from '../domain/otp-email.ts';
import { route, signedIn } from './declare.ts';
import {
  BallotIdsAnswer,
  BallotIdsQuery,
  BallotInput,
  BallotReceiptAnswer,
  InviteeAnswer,
  InviteeList,
  InviteesAdded,
  InviteesInput,
  InvitationInput,
  inviteeParams,
  MyInvitationAnswer,
  ReceiptAnswer,
  ReceiptInput,
  RemindAnswer,
} from './invitee-schemas.ts';
import { PageQuery } from './polls-schemas.ts';
import { pollParams } from './shared-schemas.ts';

const TAGS = ['Invited voters'];

/** The `message` of each state of an invitation link. */
const INVITATION_MESSAGES = {
  unused: 'This invitation takes one ballot.',
  used: 'You have voted with this invitation.',
  revoked: 'This invitation was withdrawn by the poll’s owner.',
  unknown: 'No invitation of this poll has this link.',
} as const;

/** The e-mails' language: French when the request prefers it, else English. */
const languageOf = (req: { acceptsLanguages: (...l: string[]) => string | false }): EmailLanguage =>
  req.acceptsLanguages('en', 'fr') === 'fr' ? 'fr' : 'en';

/**
 * Invited voters and anonymous but verified ballots (issue 37, parts 4 and 5; docs/polls.md,
 * "Invited voters", "Anonymous but verified"): the owner's invitees, the invitees' ballots,
 * the published ballot ids and the receipt check.
 */
export const inviteeRoutes = [
  route({
    method: 'post',
    path: '/api/polls/{poll_id}/invitees',
    operationId: 'addInvitees',
    summary: 'Invite voters by e-mail: each gets a personal link (owner)',
    description:
      'Each new address gets an e-mail (in the request’s language, English or French) with its personal link ' +
      '`<console>/p/{poll_id}#invite=<token>`: a random token of which only a SHA-256 is stored. Addresses already ' +
      'invited are skipped. The links take ballots once `settings.voters` is `invited`.',
    tags: TAGS,
    middleware: signedIn,
    params: pollParams,
    notFound: 'No poll has this id.',
    body: InviteesInput,
    parseBody: 'by-use-case',
    responses: { 201: { description: 'Invited', body: InviteesAdded } },
    problems: {
      401: 'Signed out',
      403: 'Not the owner of the poll',
      404: 'Unknown poll',
      422: 'Bad addresses',
    },
    handler: async ({ params, readBody }, ctx, req) => {
      const data = await addInvitees(ctx, {
        pollId: params.poll_id,
        actor: req.caller,
        input: readBody,
        language: languageOf(req),
      });
      return {
        status: 201,
        body: { data, message: `${data.added.length} invited, ${data.skipped.length} already invited.` },
      };
    },
  }),
  route({
    method: 'get',
    path: '/api/polls/{poll_id}/invitees',
    operationId: 'listInvitees',
    summary: 'The invitees, by e-mail, voted or not (owner)',
    description:
      'Who has voted (`status: voted`, `voted_hour`), never what they chose: on an anonymous poll nothing links ' +
      'an invitee to a ballot. `counts` has the number of invitees in each status.',
    tags: TAGS,
    middleware: signedIn,
    params: pollParams,
    notFound: 'No poll has this id.',
    query: PageQuery,
    parseQuery: 'by-use-case',
    responses: { 200: { description: 'Invitees', body: InviteeList } },
    problems: { 401: 'Signed out', 403: 'Not the owner of the poll', 404: 'Unknown poll', 422: 'Bad page' },
    handler: async ({ params, readQuery }, ctx, req) => {
      const { items, total, counts } = await listInvitees(ctx, {
        pollId: params.poll_id,
        actor: req.caller,
        page: readQuery,
      });
      const { page, per_page } = readQuery();
      return { body: { ...paginated(items, { page, per_page }, total), counts, message: 'Invitees.' } };
    },
  }),
  route({
    method: 'delete',
    path: '/api/polls/{poll_id}/invitees/{invitee_id}',
    operationId: 'removeInvitee',
    summary: 'Withdraw an unused invitation (owner)',
    description:
      'Its links then answer 403 `invitation_refused` (`reason: revoked`). An invitee who voted cannot be removed (422).',
    tags: TAGS,
    middleware: signedIn,
    params: inviteeParams,
    notFound: 'No poll or invitee has this id.',
    responses: { 200: { description: 'Withdrawn', body: InviteeAnswer } },
    problems: {
      401: 'Signed out',
      403: 'Not the owner of the poll',
      404: 'Unknown poll or invitee',
      422: 'The invitee has voted',
    },
    handler: async ({ params }, ctx, req) => {
      const data = await removeInvitee(ctx, {
        pollId: params.poll_id,
        actor: req.caller,
        inviteeId: params.invitee_id,
      });
      return { body: { data, message: 'The invitation was withdrawn.' } };
    },
  }),
  route({
    method: 'post',
    path: '/api/polls/{poll_id}/invitees/remind',
    operationId: 'remindInvitees',
    summary: 'E-mail a reminder to the invitees who have not voted (owner)',
    description:
      'Each reminder carries a new personal link; earlier links keep working until the invitee votes. At most ' +
      '500 per request (`remaining`: ask again).',
    tags: TAGS,
    middleware: signedIn,
    params: pollParams,
    notFound: 'No poll has this id.',
    responses: { 200: { description: 'Reminded', body: RemindAnswer } },
    problems: { 401: 'Signed out', 403: 'Not the owner of the poll', 404: 'Unknown poll' },
    handler: async ({ params }, ctx, req) => {
      const data = await remindInvitees(ctx, {
        pollId: params.poll_id,
        actor: req.caller,
        language: languageOf(req),
      });
      return { body: { data, message: `${data.reminded} reminder(s) sent.` } };
    },
  }),
  route({
    method: 'post',
    path: '/api/polls/{poll_id}/ballots',
    operationId: 'castInvitedBallot',
    summary: 'Cast a ballot: with a personal invitation link, or signed in on a poll with anonymous ballots',
    description:
      'With `token` (a poll for invitees): one ballot per invitation; the token goes in the body (never in a URL, ' +
      'so no access log holds it). Without `token` (a poll of signed-in users with `anonymous`): one ballot per ' +
      'signed-in user, who goes in a register kept apart from the ballots. The answer’s `ballot_id` is the ' +
      'receipt, found in `GET /api/polls/{poll_id}/ballot-ids`. On an anonymous poll the ballot keeps no link to ' +
      'its voter and only its UTC hour (docs/polls.md, "Anonymous but verified"). The caller’s IP and ' +
      'fingerprint are never used.',
    tags: TAGS,
    access: 'optional',
    params: pollParams,
    notFound: 'No poll has this id.',
    body: BallotInput,
    parseBody: 'by-use-case',
    responses: { 201: { description: 'Counted', body: BallotReceiptAnswer } },
    problems: {
      401: 'No token and signed out (a poll of signed-in users)',
      403: '`invitation_refused`: the token is unknown, used or withdrawn (`reason`)',
      404: 'Unknown poll',
      422:
        'A poll that takes no ballots here, bad sections (`votes.<section id>`), `poll_not_open`, ' +
        '`ballot_already_cast` (a signed-in user’s second ballot)',
    },
    handler: async ({ params, readBody }, ctx, req) => {
      const data = await castInvitedBallot(ctx, {
        pollId: params.poll_id,
        actor: req.caller,
        input: readBody,
      });
      return { status: 201, body: { data, message: 'Your ballot was counted. Keep its receipt.' } };
    },
  }),
  route({
    method: 'post',
    path: '/api/polls/{poll_id}/invitation',
    operationId: 'getMyInvitation',
    summary: 'The state of a personal invitation link: unused, used (voted), withdrawn or unknown',
    description:
      'Lets the voting page say "you have voted" (or that the link was withdrawn or is not valid) on arrival, ' +
      'before any ballot is shown, instead of a 403 `invitation_refused` after the Vote button. The token goes ' +
      'in the body, never in a URL, so no access log holds it. `used` has the register’s `voted_hour` and, on a ' +
      'poll that is not anonymous, the ballot cast with the link (`votes`); an anonymous ballot keeps no link to ' +
      'its invitee, so `votes` is then empty. Reads only; the caller’s sign-in, IP and fingerprint are not used. ' +
      'Rate-limited as the other token requests (`POST .../ballots`, `POST .../ballot-ids/check`): by the ' +
      'gateway’s per-IP and per-user limits (429 with `Retry-After`).',
    tags: TAGS,
    access: 'optional',
    params: pollParams,
    notFound: 'No poll has this id.',
    body: InvitationInput,
    responses: { 200: { description: 'The link’s state', body: MyInvitationAnswer } },
    problems: { 404: 'Unknown poll', 422: 'Not a poll for invitees (`errors.token`), bad body' },
    handler: async ({ params, body }, ctx, req) => {
      const data = await getMyInvitation(ctx, {
        pollId: params.poll_id,
        actor: req.caller,
        token: body.token,
      });
      return { body: { data, message: INVITATION_MESSAGES[data.status] } };
    },
  }),
  route({
    method: 'get',
    path: '/api/polls/{poll_id}/ballot-ids',
    operationId: 'listBallotIds',
    summary: 'The published list of the counted ballots’ ids (receipts) of a poll for invitees',
    description:
      'In id order (random ids, no time order), a page of `limit` (1 to 1,000) after `after`. Anyone may read it.',
    tags: TAGS,
    access: 'optional',
    params: pollParams,
    notFound: 'No poll has this id.',
    query: BallotIdsQuery,
    responses: { 200: { description: 'Ballot ids', body: BallotIdsAnswer } },
    problems: { 404: 'Unknown poll', 422: 'Not a poll for invitees nor with anonymous ballots, bad `limit`' },
    handler: async ({ params, query }, ctx, req) => {
      const data = await listBallotIds(ctx, {
        pollId: params.poll_id,
        actor: req.caller,
        limit: query.limit,
        ...(query.after ? { after: query.after } : {}),
      });
      return { body: { data, message: 'Counted ballots.' } };
    },
  }),
  route({
    method: 'post',
    path: '/api/polls/{poll_id}/ballot-ids/check',
    operationId: 'checkReceipt',
    summary: 'Check a receipt: is this ballot id in the published list?',
    description:
      '200 when it is counted; 404 `not_found` when no counted ballot of the poll has this id. The receipt goes ' +
      'in the body, not the URL: an access log line (which names a signed-in caller) never holds a ballot id. ' +
      'Checking against the list itself (`GET .../ballot-ids`) tells the service nothing.',
    tags: TAGS,
    access: 'optional',
    params: pollParams,
    notFound: 'No poll or counted ballot has this id.',
    body: ReceiptInput,
    responses: { 200: { description: 'Counted', body: ReceiptAnswer } },
    problems: {
      404: 'Unknown poll, or no counted ballot has this id',
      422: 'Not a poll for invitees, bad body',
    },
    handler: async ({ params, body }, ctx, req) => {
      const data = await checkReceipt(ctx, {
        pollId: params.poll_id,
        actor: req.caller,
        ballotId: body.ballot_id,
      });
      return { body: { data, message: 'This ballot is counted.' } };
    },
  }),
];
