import { paginated } from '@fieldhouse/http';
import {
  createPoll,
  deletePoll,
  getPoll,
  listOwnPolls,
  setClosed,
  updatePoll,
  type UpdatePoll,
} from '../domain/manage.ts';
import { pollView } from '../domain/views.ts';
import { PageQuery, PollAnswer, PollCreate, PollList, PollUpdate } from './polls-schemas.ts';
import { route, signedIn } from './declare.ts';
import { pollParams } from './shared-schemas.ts';
import type { PollsContext } from '../domain/context.ts';
import type { Request } from 'express';

const TAGS = ['Polls'];
const NO_POLL = 'No poll has this id.';

/** The signed-in actor's id (routes with `middleware: signedIn` run after `requireUser`). */
const userIdOf = (req: Request): number => req.caller.userId!;

/** PATCH and PUT: the same update (PUT takes the same partial body). */
const update = async (
  { params, body }: { params: { poll_id: string }; body: UpdatePoll['input'] },
  ctx: PollsContext,
  req: Request,
) => ({
  body: {
    data: pollView(await updatePoll(ctx, { pollId: params.poll_id, actor: req.caller, input: body })),
    message: 'Poll updated.',
  },
});

/** `PATCH` and `PUT /api/polls/{poll_id}` (owner): the same update under both methods. */
const updatePollRoute = (
  method: 'patch' | 'put',
  operationId: string,
  summary: string,
  description?: string,
) =>
  route({
    method,
    path: '/api/polls/{poll_id}',
    operationId,
    summary,
    ...(description ? { description } : {}),
    tags: TAGS,
    middleware: signedIn,
    params: pollParams,
    notFound: NO_POLL,
    body: PollUpdate,
    responses: { 200: { description: 'The updated poll', body: PollAnswer } },
    problems: {
      403: 'Not the owner',
      404: 'Unknown poll',
      422: 'Invalid body, an unknown section or option id, or an option with votes would be removed',
    },
    handler: update,
  });

/** `POST /api/polls/{poll_id}/close` or `/reopen` (owner): the poll, closed or reopened. */
const setClosedRoute = (action: 'close' | 'reopen', operationId: string, summary: string, closed: boolean) =>
  route({
    method: 'post',
    path: `/api/polls/{poll_id}/${action}`,
    operationId,
    summary,
    tags: TAGS,
    middleware: signedIn,
    params: pollParams,
    notFound: NO_POLL,
    responses: { 200: { description: 'The poll', body: PollAnswer } },
    problems: { 403: 'Not the owner', 404: 'Unknown poll' },
    handler: async ({ params }, ctx, req) => {
      const poll = await setClosed(ctx, { pollId: params.poll_id, actor: req.caller, closed });
      return { body: { data: pollView(poll), message: closed ? 'Poll closed.' : 'Poll reopened.' } };
    },
  });

/** Poll management (docs/polls.md, "Polls"): signed-in users only; only the owner changes a poll. */
export const pollsRoutes = [
  route({
    method: 'post',
    path: '/api/polls',
    operationId: 'createPoll',
    summary: 'Create a poll (signed-in users)',
    description:
      'Sections of 2 to 50 options each; settings default as docs/polls.md, "Settings", says. The answer has the ' +
      'poll with its sections and options and their new ids, and `Location: /api/polls/{poll_id}`.',
    tags: TAGS,
    middleware: signedIn,
    body: PollCreate,
    responses: {
      201: {
        description: 'The poll with its sections and options and their ids',
        body: PollAnswer,
        headers: { Location: { description: 'The poll: `/api/polls/{poll_id}`.' } },
      },
    },
    problems: { 422: 'Invalid body (`errors` names each field); `ends_at` not after `starts_at`' },
    handler: async ({ body }, ctx, req) => {
      const poll = await createPoll(ctx, { ownerId: userIdOf(req), input: body });
      return {
        status: 201,
        headers: { Location: `/api/polls/${poll._id}` },
        body: { data: pollView(poll), message: 'Poll created.' },
      };
    },
  }),
  route({
    method: 'get',
    path: '/api/polls',
    operationId: 'listMyPolls',
    summary: "The caller's own polls, newest first (paginated)",
    tags: TAGS,
    middleware: signedIn,
    query: PageQuery,
    responses: { 200: { description: '`{data: Poll[], pagination, message}`', body: PollList } },
    problems: { 422: '`page` or `per_page` out of range' },
    handler: async ({ query }, ctx, req) => {
      const page = { page: query.page, per_page: query.per_page };
      const { items, total } = await listOwnPolls(ctx, {
        ownerId: userIdOf(req),
        page: page.page,
        perPage: page.per_page,
      });
      return { body: { ...paginated(items.map(pollView), page, total), message: 'Your polls.' } };
    },
  }),
  route({
    method: 'get',
    path: '/api/polls/{poll_id}',
    operationId: 'getPoll',
    summary: 'One poll with its sections and options (anyone)',
    tags: TAGS,
    access: 'optional',
    params: pollParams,
    notFound: NO_POLL,
    responses: { 200: { description: 'The poll', body: PollAnswer } },
    problems: { 404: 'Unknown poll' },
    handler: async ({ params }, ctx, req) => ({
      body: {
        data: pollView(await getPoll(ctx, { pollId: params.poll_id, actor: req.caller })),
        message: 'Poll.',
      },
    }),
  }),
  updatePollRoute(
    'patch',
    'updatePoll',
    'Update a poll (owner)',
    '`sections` is the full new list: give `id` to keep a section or option. An option with counted votes ' +
      'cannot be removed (422 naming it); votes already counted keep their counts.',
  ),
  updatePollRoute('put', 'replacePoll', 'Update a poll (owner): the same as PATCH'),
  setClosedRoute('close', 'closePoll', 'Close a poll: no more votes (owner)', true),
  setClosedRoute('reopen', 'reopenPoll', 'Reopen a closed poll (owner)', false),
  route({
    method: 'delete',
    path: '/api/polls/{poll_id}',
    operationId: 'deletePoll',
    summary: 'Delete a poll with its votes, reactions and comments (owner)',
    tags: TAGS,
    middleware: signedIn,
    params: pollParams,
    notFound: NO_POLL,
    responses: { 204: { description: 'Deleted' } },
    problems: { 403: 'Not the owner', 404: 'Unknown poll' },
    handler: async ({ params }, ctx, req) => {
      await deletePoll(ctx, { pollId: params.poll_id, actor: req.caller });
      return { status: 204 };
    },
  }),
];
