/**
 * OpenAPI 3.1 description of the polls service (area B, spec 2.2 and 4.2), shown by the gateway
 * under /docs. Decisions are explained in docs/polls.md.
 */

import { problemResponse as err, schemaRef as ref, sharedOpenApiSchemas } from '@fieldhouse/http';
const ok = (description: string, data: object) => ({
  description,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: { data, message: { type: 'string' } },
        required: ['data', 'message'],
      },
    },
  },
});
const pollId = { name: 'poll_id', in: 'path', required: true, schema: { type: 'string' } };
const fingerprint = {
  name: 'voter_fingerprint',
  in: 'query',
  required: false,
  schema: { type: 'string' },
  description: 'Anonymous readers: shows their own vote when statistics are hidden.',
};

export const openApi = {
  openapi: '3.1.0',
  info: {
    title: 'Fieldhouse Area B: polls',
    version: '1.0.0',
    description:
      'Polls with sections and options, voting (with an optional one-time password confirmed by e-mail), ' +
      'live results, reactions and comments. Every answer is `{data, message}`; every error is an RFC 9457 ' +
      'problem document. Ids of polls, sections, options and comments are strings.\n\n' +
      '**One-time password flow** (polls with `settings.require_verification`): 1. `POST /api/polls/{poll_id}/vote` ' +
      'answers 202 with `requires_verification: true` and a `verification_code` naming the pending vote; a 6-digit ' +
      'password is e-mailed to the voter (the signed-in user, else `voter_email`). 2. `POST /api/polls/{poll_id}/verify` ' +
      '`{verification_code, password}` counts it (201). A wrong password is 422 `otp_invalid` with `attempts_left`; ' +
      'after `OTP_MAX_ATTEMPTS` (5) wrong ones the pending vote is locked (422 `otp_locked`) until it expires; after ' +
      '`OTP_TTL_SECONDS` (600 s) it is 422 `otp_expired` and a new vote sends a new password. Voting again while a ' +
      'live pending vote exists is 403 `otp_required` ("a one-time password is required").',
  },
  servers: [{ url: '/' }],
  paths: {
    '/api/polls': {
      post: {
        summary: 'Create a poll (signed-in users)',
        requestBody: { required: true, content: { 'application/json': { schema: ref('PollInput') } } },
        responses: {
          '201': ok('The poll with its sections and options and their ids', ref('Poll')),
          '401': err('Not signed in'),
          '422': err('Invalid body'),
        },
      },
      get: {
        summary: "The caller's own polls, newest first (paginated)",
        parameters: [
          { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
          {
            name: 'per_page',
            in: 'query',
            schema: { type: 'integer', minimum: 1, maximum: 100, default: 15 },
          },
        ],
        responses: {
          '200': { description: '`{data: Poll[], pagination, message}`' },
          '401': err('Not signed in'),
        },
      },
    },
    '/api/polls/{poll_id}': {
      parameters: [pollId],
      get: {
        summary: 'One poll (anyone)',
        responses: { '200': ok('The poll', ref('Poll')), '404': err('Unknown poll') },
      },
      patch: {
        summary:
          'Update a poll (owner). `sections` is the full new list: give `id` to keep a section or option.',
        requestBody: { required: true, content: { 'application/json': { schema: ref('PollInput') } } },
        responses: {
          '200': ok('The updated poll', ref('Poll')),
          '401': err('Not signed in'),
          '403': err('Not the owner'),
          '404': err('Unknown poll'),
          '422': err('Invalid body, or an option with votes would be removed'),
        },
      },
      delete: {
        summary: 'Delete a poll with its votes, reactions and comments (owner)',
        responses: {
          '204': { description: 'Deleted' },
          '403': err('Not the owner'),
          '404': err('Unknown poll'),
        },
      },
    },
    '/api/polls/{poll_id}/close': {
      parameters: [pollId],
      post: {
        summary: 'Close a poll: no more votes (owner)',
        responses: { '200': ok('The poll', ref('Poll')), '403': err('Not the owner') },
      },
    },
    '/api/polls/{poll_id}/reopen': {
      parameters: [pollId],
      post: {
        summary: 'Reopen a closed poll (owner)',
        responses: { '200': ok('The poll', ref('Poll')), '403': err('Not the owner') },
      },
    },
    '/api/polls/{poll_id}/vote': {
      parameters: [pollId],
      post: {
        summary: 'Vote: exactly one option per section (spec 2.2)',
        description:
          'The voter is the signed-in user, else `voter_fingerprint` with the client IP. 201 counted; 202 held for a ' +
          'one-time password (see the flow above).',
        parameters: [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description:
              'A key per vote (a UUID): a retry with the same key by the same voter answers the original vote ' +
              '(201, `Idempotent-Replayed: true`) instead of a second vote or `vote_limit_reached` ' +
              '(docs/polls.md, "Retrying a vote").',
            schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
          },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: ref('VoteInput') } } },
        responses: {
          '201': ok(
            'Counted (or, with `Idempotent-Replayed: true`, counted before with this key)',
            ref('VoteAnswer'),
          ),
          '202': ok('Held until the one-time password is given', ref('VoteAnswer')),
          '400': err('`invalid_idempotency_key`: the Idempotency-Key header is malformed'),
          '401': err('The poll is for signed-in users'),
          '403': err('`otp_required`: a one-time password is required (a pending vote awaits it)'),
          '404': err('Unknown poll'),
          '409': err('`concurrent_vote`: another vote of this voter was being counted (votes remain)'),
          '422': err(
            'Bad sections (`errors` has `votes.<section id>`), poll not open (`poll_not_open`), vote limit ' +
              '(`vote_limit_reached`), `idempotency_key_reused` (same key, other choices)',
          ),
          '503': err(
            '`store_unavailable`: Redis or MongoDB is unreachable; retry after `Retry-After` seconds',
          ),
        },
      },
    },
    '/api/polls/{poll_id}/verify': {
      parameters: [pollId],
      post: {
        summary: 'Confirm a pending vote with its one-time password',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['verification_code', 'password'],
                properties: {
                  verification_code: {
                    type: 'string',
                    description: 'From the vote answer (`code` is accepted too)',
                  },
                  password: { type: 'string', description: 'The 6 digits from the e-mail' },
                },
              },
            },
          },
        },
        responses: {
          '201': ok('Counted', ref('VoteAnswer')),
          '404': err('No pending vote has this code'),
          '422': err(
            '`otp_invalid` (with `attempts_left`), `otp_locked`, `otp_expired`, `otp_used`, vote limit',
          ),
        },
      },
    },
    '/api/polls/{poll_id}/results': {
      parameters: [pollId, fingerprint],
      get: {
        summary: 'Results (spec 2.2)',
        responses: { '200': ok('Results', ref('Results')), '404': err('Unknown poll') },
      },
    },
    '/api/polls/{poll_id}/results/stream': {
      parameters: [pollId, fingerprint],
      get: {
        summary: 'Live results as Server-Sent Events',
        description:
          'A `results` event (data: the Results object) at once, after counted votes (at most one event per 100 ms ' +
          'while votes keep coming, fewer with a large audience; always one after the last), close or reopen; a ' +
          '`: heartbeat` comment every 15 s; a `deleted` event when the poll is deleted. The gateway caps open ' +
          'streams per client address and per user: 429 `too_many_streams` with `Retry-After` above a cap.',
        responses: {
          '200': {
            description: 'text/event-stream',
            content: { 'text/event-stream': { schema: { type: 'string' } } },
          },
          '404': err('Unknown poll'),
          '429': err('`too_many_streams`: a stream cap of the gateway is reached (see `Retry-After`)'),
        },
      },
    },
    '/api/polls/{poll_id}/react': {
      parameters: [pollId],
      post: {
        summary: 'React: one reaction per voter per poll; a new type replaces the old one',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['reaction_type'],
                properties: { reaction_type: ref('ReactionType'), voter_fingerprint: { type: 'string' } },
              },
            },
          },
        },
        responses: {
          '200': ok('Replaced or unchanged', ref('ReactionAnswer')),
          '201': ok('First reaction of this voter', ref('ReactionAnswer')),
          '403': err('Reactions are off'),
          '422': err('Unknown reaction type'),
          '429': err('Rate limit (per voter and poll)'),
        },
      },
    },
    '/api/polls/{poll_id}/comment': {
      parameters: [pollId],
      post: {
        summary: 'Comment (plain text, 1 to 2,000 characters); parent_id a comment of the same poll or null',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['content'],
                properties: {
                  content: { type: 'string', minLength: 1, maxLength: 2000 },
                  parent_id: { type: ['string', 'null'] },
                  author_name: { type: 'string' },
                  voter_fingerprint: { type: 'string' },
                },
              },
            },
          },
        },
        responses: {
          '201': ok('The comment', ref('Comment')),
          '403': err('Comments are off'),
          '422': err('Bad content or parent_id'),
          '429': err('Rate limit (per voter and poll)'),
        },
      },
    },
    '/api/polls/{poll_id}/comments': {
      parameters: [pollId],
      get: {
        summary: 'Top-level comments, newest first, paginated; each with its thread in `replies`',
        responses: { '200': { description: '`{data: Comment[], pagination, message}`' } },
      },
    },
    '/api/polls/{poll_id}/comments/{comment_id}': {
      parameters: [pollId, { name: 'comment_id', in: 'path', required: true, schema: { type: 'string' } }],
      delete: {
        summary: 'Delete a comment and its replies (poll owner, or the author)',
        responses: {
          '204': { description: 'Deleted' },
          '403': err('Not allowed'),
          '404': err('Unknown comment'),
        },
      },
    },
  },
  components: {
    schemas: {
      ...sharedOpenApiSchemas,
      ReactionType: { type: 'string', enum: ['like', 'love', 'haha', 'wow', 'sad', 'angry', 'fire', 'clap'] },
      Settings: {
        type: 'object',
        properties: {
          starts_at: { type: ['string', 'null'], format: 'date-time' },
          ends_at: { type: ['string', 'null'], format: 'date-time' },
          max_votes_per_voter: { type: 'integer', minimum: 1, default: 1 },
          access: { type: 'string', enum: ['public', 'authenticated'], default: 'public' },
          require_verification: { type: 'boolean', default: false },
          show_stats_public: { type: 'boolean', default: true },
          allow_comments: { type: 'boolean', default: true },
          allow_reactions: { type: 'boolean', default: true },
        },
      },
      PollInput: {
        type: 'object',
        properties: {
          title: { type: 'string', maxLength: 200 },
          description: { type: ['string', 'null'] },
          sections: {
            type: 'array',
            minItems: 1,
            items: {
              type: 'object',
              required: ['title', 'options'],
              properties: {
                id: { type: 'string' },
                title: { type: 'string' },
                options: {
                  type: 'array',
                  minItems: 2,
                  items: {
                    type: 'object',
                    required: ['label'],
                    properties: { id: { type: 'string' }, label: { type: 'string' } },
                  },
                },
              },
            },
          },
          settings: ref('Settings'),
        },
      },
      Poll: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          title: { type: 'string' },
          description: { type: ['string', 'null'] },
          owner_id: { type: 'integer' },
          status: { type: 'string', enum: ['open', 'closed', 'not_open'] },
          is_open: { type: 'boolean' },
          settings: ref('Settings'),
          sections: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                id: { type: 'string' },
                title: { type: 'string' },
                position: { type: 'integer' },
                options: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: {
                      id: { type: 'string' },
                      label: { type: 'string' },
                      position: { type: 'integer' },
                    },
                  },
                },
              },
            },
          },
          closed_at: { type: ['string', 'null'] },
          created_at: { type: 'string' },
          updated_at: { type: 'string' },
        },
      },
      VoteInput: {
        type: 'object',
        required: ['votes'],
        properties: {
          votes: {
            type: 'object',
            additionalProperties: { type: 'string' },
            description: 'section id to option id',
          },
          voter_name: { type: 'string' },
          voter_fingerprint: { type: 'string', description: 'Required for anonymous voters' },
          voter_email: { type: 'string', description: 'Anonymous voters on polls requiring verification' },
          time_spent: { type: 'integer', minimum: 0, description: 'Seconds' },
        },
      },
      VoteAnswer: {
        type: 'object',
        properties: {
          vote: {
            type: 'object',
            properties: {
              id: { type: 'string' },
              poll_id: { type: 'string' },
              votes: { type: 'object' },
              voter_name: { type: ['string', 'null'] },
              time_spent: { type: ['integer', 'null'] },
              status: { type: 'string', enum: ['counted', 'pending'] },
              created_at: { type: 'string' },
            },
          },
          requires_verification: { type: 'boolean' },
          verification_code: { type: ['string', 'null'] },
          results: { type: 'object', additionalProperties: { type: 'integer' } },
          total_votes: { type: 'integer' },
          remaining_votes: { type: 'integer' },
        },
      },
      Comment: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          poll_id: { type: 'string' },
          parent_id: { type: ['string', 'null'] },
          content: { type: 'string' },
          author_name: { type: ['string', 'null'] },
          user_id: { type: ['integer', 'null'] },
          created_at: { type: 'string' },
          replies: { type: 'array', items: { $ref: '#/components/schemas/Comment' } },
        },
      },
      ReactionAnswer: {
        type: 'object',
        properties: {
          reaction_type: ref('ReactionType'),
          previous_reaction_type: { type: ['string', 'null'] },
          reactions_summary: { type: 'object', additionalProperties: { type: 'integer' } },
          reactions_total: { type: 'integer' },
        },
      },
      Results: {
        type: 'object',
        properties: {
          poll: ref('Poll'),
          sections: { type: 'array' },
          results: {
            type: 'object',
            additionalProperties: { type: 'integer' },
            description: 'option id to votes',
          },
          total_votes: { type: 'integer' },
          unique_voters: { type: 'integer' },
          reactions_total: { type: 'integer' },
          comments_total: { type: 'integer' },
          reactions_summary: { type: 'object', additionalProperties: { type: 'integer' } },
          recent_comments: { type: 'array', items: ref('Comment'), description: 'The five newest' },
          show_stats_public: { type: 'boolean' },
          stats_hidden: { type: 'boolean' },
          my_vote: { type: ['object', 'null'], description: 'Only when stats are hidden' },
          analytics: {
            type: 'object',
            properties: {
              votes_per_hour: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: { hour: { type: 'string' }, votes: { type: 'integer' } },
                },
              },
              mean_time_spent: { type: ['number', 'null'], description: 'Seconds' },
              median_time_spent: { type: ['number', 'null'], description: 'Seconds' },
              top_options: { type: 'array' },
            },
          },
          achievements: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                key: {
                  type: 'string',
                  enum: ['first_vote', 'votes_10', 'votes_100', 'votes_1000', 'most_discussed', 'trending'],
                },
                title: { type: 'string' },
                description: { type: 'string' },
                achieved_at: { type: 'string', format: 'date-time' },
              },
            },
          },
        },
      },
    },
  },
} as const;
