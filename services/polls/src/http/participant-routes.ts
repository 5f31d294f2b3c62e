import { paginated } from '@fieldhouse/http';
import { exportPoll } from '../domain/exports.ts';
import { getMyBallot } from '../domain/my-ballot.ts';
import { listParticipants } from '../domain/participants.ts';
import { route, signedIn } from './declare.ts';
import { sendExport } from './export-files.ts';
import { ExportQuery, MyBallotAnswer, ParticipantList } from './participant-schemas.ts';
import { PageQuery } from './polls-schemas.ts';
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
    summary: "The poll's counted votes, newest first, paginated: name, time, choices (owner)",
    description:
      'One row per counted vote (a voter allowed several votes has one row each, `seq` 1, 2...). Owner only, ' +
      'whatever `results_visibility` and `show_participant_names` (they say what others see). Votes held for ' +
      'their one-time password are not counted yet and not listed. On an anonymous poll a row is a ballot’s UTC ' +
      'hour only (`choices_hidden: true`, no id: the id is the receipt; who voted is `GET .../invitees`).',
    tags: TAGS,
    middleware: signedIn,
    params: pollParams,
    notFound: 'No poll has this id.',
    query: PageQuery,
    parseQuery: 'by-use-case',
    responses: {
      200: { description: '`{data: Participant[], pagination, message}`', body: ParticipantList },
    },
    problems: {
      403: 'Not the owner of the poll',
      404: 'Unknown poll',
      422: '`page` or `per_page` out of range',
    },
    handler: async ({ params, readQuery }, ctx, req) => {
      const { items, total } = await listParticipants(ctx, {
        pollId: params.poll_id,
        actor: req.caller,
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
