import type { EmailRequested } from '@fieldhouse/contracts';
import { defineChanges, message, t, webhook } from '@fieldhouse/messaging';

/**
 * Every change the polls service announces, declared once (issue 33; docs/webhooks.md, "Area
 * B"): the messages its workers consume and every webhook kind, each with its payload's shape.
 * The shape gives the payload's TypeScript type (webhook-events.ts builds the payloads with it,
 * so a wrong one is a compile error) and its JSON Schema (the AsyncAPI document,
 * http/asyncapi-route.ts). Every key is always present, null where it says so. `links` are paths
 * relative to the Fieldhouse base URL.
 */

const time = t.time();
const pollId = t.string({ description: "The poll's id." });
const link = (path: string) => t.string({ description: `\`${path}\`` });
const pollLinks = t.object({
  poll: link('/api/polls/{poll_id}'),
  results: link('/api/polls/{poll_id}/results'),
});

/** The list (see the top of this file). */
export const changes = defineChanges({
  source: 'polls',
  webhookScope: t.object({ poll_id: t.string() }),
  changes: {
    'email.requested': message({
      summary: 'An e-mail to send.',
      description:
        "Consumed by the service's mail worker (workers/email-worker.ts), which sends it once per message id.",
      data: t.json<EmailRequested>({ type: 'object', description: 'libs/contracts `EmailRequested`.' }),
    }),
    'poll.vote.counted': webhook({
      summary: 'A vote was counted.',
      description:
        'Sent when a vote is counted: at once, or after its one-time password on polls that require ' +
        'one (`verified`). On polls whose access is `public` the voter is never sent (`voter` is null).',
      data: t.object({
        poll_id: pollId,
        vote: t.object({
          id: t.uuid(),
          seq: t.integer({ minimum: 1, description: 'The n-th counted vote of this voter on this poll.' }),
          choices: t.json<Record<string, string>>({
            type: 'object',
            description: 'Section id → the option id chosen in it.',
            additionalProperties: { type: 'string' },
          }),
          option_ids: t.json<string[]>({
            type: 'array',
            items: { type: 'string' },
            description: 'The option ids chosen, all sections together.',
          }),
          time_spent: t.nullable(
            t.integer({
              minimum: 0,
              description: 'Seconds the voter spent before voting, as the client said; null if it did not.',
            }),
          ),
          created_at: time,
        }),
        verified: t.boolean({ description: 'true when the vote was counted after its one-time password.' }),
        voter: t.nullable(t.object({ user_id: t.integer(), name: t.nullable(t.string()) }), {
          description: 'The signed-in voter; null on polls whose access is `public` (never sent for those).',
        }),
        links: pollLinks,
      }),
    }),
    'poll.comment.created': webhook({
      summary: 'A comment was posted.',
      description: 'Sent when a comment (or a reply: `parent_id`) is posted on the poll.',
      data: t.object({
        poll_id: pollId,
        comment: t.object({
          id: t.string(),
          poll_id: pollId,
          parent_id: t.nullable(t.string(), {
            description: 'The comment replied to; null for a new thread.',
          }),
          content: t.string(),
          author_name: t.nullable(t.string()),
          user_id: t.nullable(t.integer(), { description: 'The author; null when anonymous.' }),
          created_at: time,
        }),
        links: t.object({
          poll: link('/api/polls/{poll_id}'),
          comments: link('/api/polls/{poll_id}/comments'),
        }),
      }),
    }),
    'poll.closed': webhook({
      summary: 'A poll was closed.',
      description:
        'Sent once per closing, with the results at that moment: when the owner closes an open poll ' +
        '(`closed_by_owner`), or within `ENDED_POLLS_INTERVAL_MS` (15 s) after its `ends_at` passed ' +
        '(`ended`; `closed_at` is then the `ends_at`).',
      data: t.object({
        poll: t.object({ id: pollId, title: t.string(), closed_at: time }),
        reason: t.oneOf(['closed_by_owner', 'ended']),
        total_votes: t.integer({ minimum: 0 }),
        results: t.json<Record<string, number>>({
          type: 'object',
          description: 'Option id → votes counted for it.',
          additionalProperties: { type: 'integer', minimum: 0 },
        }),
        links: pollLinks,
      }),
    }),
  },
});
