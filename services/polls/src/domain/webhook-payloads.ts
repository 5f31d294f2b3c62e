import type { JsonSchema } from '@fieldhouse/http';
import type { WebhookKindDoc } from '@fieldhouse/webhooks';
import type { POLL_WEBHOOK_KINDS } from './webhook-events.ts';

/**
 * The `data` of each kind of area B as JSON Schema (docs/webhooks.md, "Area B"), for the
 * service's AsyncAPI document: a vote counted, a comment posted, a poll closed, as
 * webhook-events.ts writes them. Every key is always present, null where it says so. `links`
 * are paths relative to the Fieldhouse base URL.
 */

const time: JsonSchema = { type: 'string', format: 'date-time' };
const pollId: JsonSchema = { type: 'string', description: "The poll's id." };
const link = (path: string): JsonSchema => ({ type: 'string', description: `\`${path}\`` });

/** Every kind of {@link POLL_WEBHOOK_KINDS}, documented (the type makes a missing kind a compile error). */
export const POLL_WEBHOOK_PAYLOADS: Record<
  (typeof POLL_WEBHOOK_KINDS)[number],
  Omit<WebhookKindDoc, 'kind'>
> = {
  'poll.vote.counted': {
    summary: 'A vote was counted.',
    description:
      'Sent when a vote is counted: at once, or after its one-time password on polls that require ' +
      'one (`verified`). On polls whose access is `public` the voter is never sent (`voter` is null).',
    data: {
      type: 'object',
      required: ['poll_id', 'vote', 'verified', 'voter', 'links'],
      properties: {
        poll_id: pollId,
        vote: {
          type: 'object',
          required: ['id', 'seq', 'choices', 'option_ids', 'time_spent', 'created_at'],
          properties: {
            id: { type: 'string', format: 'uuid' },
            seq: {
              type: 'integer',
              minimum: 1,
              description: 'The n-th counted vote of this voter on this poll.',
            },
            choices: {
              type: 'object',
              description: 'Section id → the option id chosen in it.',
              additionalProperties: { type: 'string' },
            },
            option_ids: {
              type: 'array',
              items: { type: 'string' },
              description: 'The option ids chosen, all sections together.',
            },
            time_spent: {
              type: ['integer', 'null'],
              minimum: 0,
              description: 'Seconds the voter spent before voting, as the client said; null if it did not.',
            },
            created_at: time,
          },
        },
        verified: {
          type: 'boolean',
          description: 'true when the vote was counted after its one-time password.',
        },
        voter: {
          type: ['object', 'null'],
          description: 'The signed-in voter; null on polls whose access is `public` (never sent for those).',
          required: ['user_id', 'name'],
          properties: {
            user_id: { type: 'integer' },
            name: { type: ['string', 'null'] },
          },
        },
        links: {
          type: 'object',
          required: ['poll', 'results'],
          properties: {
            poll: link('/api/polls/{poll_id}'),
            results: link('/api/polls/{poll_id}/results'),
          },
        },
      },
    },
  },
  'poll.comment.created': {
    summary: 'A comment was posted.',
    description: 'Sent when a comment (or a reply: `parent_id`) is posted on the poll.',
    data: {
      type: 'object',
      required: ['poll_id', 'comment', 'links'],
      properties: {
        poll_id: pollId,
        comment: {
          type: 'object',
          required: ['id', 'poll_id', 'parent_id', 'content', 'author_name', 'user_id', 'created_at'],
          properties: {
            id: { type: 'string' },
            poll_id: pollId,
            parent_id: {
              type: ['string', 'null'],
              description: 'The comment replied to; null for a new thread.',
            },
            content: { type: 'string' },
            author_name: { type: ['string', 'null'] },
            user_id: { type: ['integer', 'null'], description: 'The author; null when anonymous.' },
            created_at: time,
          },
        },
        links: {
          type: 'object',
          required: ['poll', 'comments'],
          properties: {
            poll: link('/api/polls/{poll_id}'),
            comments: link('/api/polls/{poll_id}/comments'),
          },
        },
      },
    },
  },
  'poll.closed': {
    summary: 'A poll was closed.',
    description:
      'Sent once per closing, with the results at that moment: when the owner closes an open poll ' +
      '(`closed_by_owner`), or within `ENDED_POLLS_INTERVAL_MS` (15 s) after its `ends_at` passed ' +
      '(`ended`; `closed_at` is then the `ends_at`).',
    data: {
      type: 'object',
      required: ['poll', 'reason', 'total_votes', 'results', 'links'],
      properties: {
        poll: {
          type: 'object',
          required: ['id', 'title', 'closed_at'],
          properties: { id: pollId, title: { type: 'string' }, closed_at: time },
        },
        reason: { type: 'string', enum: ['closed_by_owner', 'ended'] },
        total_votes: { type: 'integer', minimum: 0 },
        results: {
          type: 'object',
          description: 'Option id → votes counted for it.',
          additionalProperties: { type: 'integer', minimum: 0 },
        },
        links: {
          type: 'object',
          required: ['poll', 'results'],
          properties: {
            poll: link('/api/polls/{poll_id}'),
            results: link('/api/polls/{poll_id}/results'),
          },
        },
      },
    },
  },
};
