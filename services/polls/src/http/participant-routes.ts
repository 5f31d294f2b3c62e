import { paginated } from '@fieldhouse/http';
import { exportPoll } from '../domain/exports.ts';
import { getMyBallot } from '../domain/my-ballot.ts';
import { listParticipants } from '../domain/participants.ts';
import { route, signedIn } from './declare.ts';
import { sendExport } from './export-files.ts';
import { ExportQuery, MyBallotAnswer, ParticipantList, ParticipantsQuery } from './participant-schemas.ts';
import { fingerprintOf } from './results-routes.ts';
import { ResultsQuery, fingerprintHeader } from './results-schemas.ts';
import { pollParams } from './shared-schemas.ts';

const TAGS = ['Who voted'];

/** Who voted (issue 37, part 3; docs/polls.md, "Who voted"): the owner's grid and exports, the voter's own ballot. */
export const participantRoutes = [
  route({
    method: 'get',
    path: '/api/polls/{poll_id}/participants',
    operationId: 'listParticipants',
    summary: "The poll's counted votes, newest first, paginated: name, time, choices",
    description:
      'One row per counted vote (a voter allowed several votes has one row each, `seq` 1, 2...). Votes held ' +
      'for their one-time password are not counted yet and not listed. **The owner** sees every vote, whatever ' +
      '`results_visibility`; on an anonymous poll a row is a ballot’s UTC hour only (`choices_hidden: true`, ' +
      'no id: the id is the receipt; who voted is `GET .../invitees`). **Others** see the shared list when the ' +
      'owner turned `show_participant_names` on and they may see the results (`after_vote`: once they voted, ' +
      'recognised as for results): the newest 1,000 counted votes with the name each voter gave and their ' +
      'choices, and no `vote_id`, `user_id` nor `time_spent` (null); `total` is how many the list holds. ' +
      'Otherwise 401 signed out, 403 `forbidden` (names not shown) or `participants_hidden` (not yet: `until`).',
    tags: TAGS,
    access: 'optional',
    params: pollParams,
    notFound: 'No poll has this id.',
    query: ParticipantsQuery,
    parseQuery: 'by-use-case',
    headers: fingerprintHeader,
    responses: {
      200: { description: '`{data: Participant[], pagination, message}`', body: ParticipantList },
    },
    problems: {
      401: 'Signed out, on a poll that shows participants to its owner only',
      403: 'Not the owner of a poll that shows participants to its owner only (`forbidden`); not yet allowed to see the results of one that shows them (`participants_hidden`, `until`: its `results_visibility`)',
      404: 'Unknown poll',
      422: '`page` or `per_page` out of range',
    },
    handler: async ({ params, readQuery }, ctx, req, res) => {
      // The answer depends on who asks (owner, voter, reader): no shared cache may keep it.
      res.set('Cache-Control', 'private, no-store');
      const { items, total } = await listParticipants(ctx, {
        pollId: params.poll_id,
        actor: req.caller,
        fingerprint: fingerprintOf(req.query, req),
        page: readQuery,
      });
      const { page, per_page } = readQuery();
      return { body: { ...paginated(items, { page, per_page }, total), message: 'Who voted.' } };
    },
  }),
  route({
    method: 'get',
    path: '/api/polls/{poll_id}/export',
    operationId: 'exportPoll',
    summary: "The poll's votes or results as a CSV or XLSX download (owner)",
    description:
      '`content=votes`: one row per counted vote, oldest first (vote id, time, name, user id, seq, verified, ' +
      'time spent, then one column per section with the chosen labels: multiple `a; b`, ranked `a > b`, ' +
      'meeting `slot: yes; slot: if need be`). `content=results`: one row per option (votes, percent of ' +
      'ballots, rank with ties sharing it, Borda score and instant-runoff outcome `winner`/`tied` for ranked ' +
      'sections, if-need-be and no for meeting slots, `final` for the picked slot). CSV text cells that a ' +
      "spreadsheet would run as a formula get a leading `'`; XLSX cells are inline strings.",
    tags: TAGS,
    middleware: signedIn,
    params: pollParams,
    notFound: 'No poll has this id.',
    query: ExportQuery,
    responses: {
      200: {
        description: 'The file (`Content-Disposition: attachment`)',
        content: {
          'text/csv': null,
          'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': null,
        },
      },
    },
    problems: {
      403: 'Not the owner of the poll',
      404: 'Unknown poll',
      422: 'Unknown `content` or `format`; `content=votes` of an anonymous poll (its ballots are not exported one by one)',
    },
    handler: async ({ params, query }, ctx, req, res) => {
      const table = await exportPoll(ctx, {
        pollId: params.poll_id,
        actor: req.caller,
        content: query.content,
      });
      await sendExport(res, table, query.format);
    },
  }),
  route({
    method: 'get',
    path: '/api/polls/{poll_id}/my-ballot',
    operationId: 'getMyBallot',
    summary: "The caller's own counted votes on the poll and the votes left",
    description:
      'The caller is recognised as a vote recognises them: the signed-in user, else `voter_fingerprint` ' +
      '(query or `X-Voter-Fingerprint`) with the client IP. Lets a voting page say "you have voted" on arrival.',
    tags: TAGS,
    access: 'optional',
    params: pollParams,
    notFound: 'No poll has this id.',
    query: ResultsQuery,
    headers: fingerprintHeader,
    responses: { 200: { description: 'The caller’s ballot', body: MyBallotAnswer } },
    problems: { 404: 'Unknown poll' },
    handler: async ({ params, query }, ctx, req) => {
      const ballot = await getMyBallot(ctx, {
        pollId: params.poll_id,
        actor: req.caller,
        fingerprint: fingerprintOf(query, req),
      });
      return {
        body: { data: ballot, message: ballot.voted ? 'You have voted.' : 'You have not voted yet.' },
      };
    },
  }),
];
