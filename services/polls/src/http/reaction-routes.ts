import { react } from '../domain/reactions.ts';
import { ReactionAnswerEnvelope, ReactionInput } from './reaction-schemas.ts';
import { route } from './declare.ts';
import { pollParams } from './shared-schemas.ts';

/** Reactions (spec 2.2 and 4.2; docs/polls.md, "Reactions"). */
export const reactionRoutes = [
  route({
    method: 'post',
    path: '/api/polls/{poll_id}/react',
    operationId: 'react',
    summary: 'React: one reaction per voter per poll; a new type replaces the old one',
    description:
      'The same type again changes nothing (200, "unchanged"). The voter is the signed-in user, else ' +
      '`voter_fingerprint` with the client IP.',
    tags: ['Reactions'],
    access: 'optional',
    params: pollParams,
    notFound: 'No poll has this id.',
    body: ReactionInput,
    parseBody: 'by-use-case',
    responses: {
      200: { description: 'Replaced or unchanged', body: ReactionAnswerEnvelope },
      201: { description: 'First reaction of this voter', body: ReactionAnswerEnvelope },
    },
    problems: {
      401: 'The poll is for signed-in users',
      403: '`reactions_disabled`: reactions are off',
      404: 'Unknown poll',
      422: 'Unknown reaction type, or an anonymous caller without `voter_fingerprint`',
      429: '`rate_limited`: too many reactions (per voter and poll; see `Retry-After`)',
    },
    handler: async ({ params, readBody }, ctx, req) => {
      const out = await react(ctx, {
        pollId: params.poll_id,
        actor: req.caller,
        input: readBody,
      });
      return { status: out.created ? 201 : 200, body: { data: out.data, message: out.message } };
    },
  }),
];
