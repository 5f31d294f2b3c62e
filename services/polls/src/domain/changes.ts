import { createHash, randomUUID } from 'node:crypto';
import { Exchanges, type EmailRequested, type Envelope } from '@fieldhouse/contracts';
import {
  defineChanges,
  message,
  t,
  webhook,
  type PayloadOf,
  type WebhookKindOf,
} from '@fieldhouse/messaging';
import { isDuplicateKey } from '../data/collections.ts';
import type { PollsContext } from './context.ts';
import { optionCounts } from './results.ts';
import type { CommentDoc, CounterSnapshot, PollDoc, VoteDoc } from './types.ts';
import { commentView } from './views.ts';

/**
 * Every change the polls service announces, declared once (issue 33; docs/webhooks.md, "Area
 * B"): the messages its workers consume and every webhook kind, each with its payload's shape.
 * The shape gives the payload's TypeScript type (the builders below make the payloads with it,
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
          hidden: t.boolean({
            description: "Hidden by the poll's owner: always false for a comment just posted.",
          }),
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

type Declared = (typeof changes)['declarations'];

/**
 * The event kinds of area B (docs/webhooks.md, "Area B"): a vote counted (after its one-time
 * password when the poll requires one), a comment posted, a poll closed by its owner; the
 * webhook kinds of the list of changes (changes.ts).
 */
export const POLL_WEBHOOK_KINDS = changes.webhookKinds;
type PollWebhookKind = WebhookKindOf<Declared>;

/** Paths of a poll's API resources, relative to the Fieldhouse base URL. */
const links = (pollId: string) => ({
  poll: `/api/polls/${pollId}`,
  results: `/api/polls/${pollId}/results`,
  comments: `/api/polls/${pollId}/comments`,
});

/**
 * The outbox message of a poll's webhook event (routing key `webhook.<kind>` on the `polls`
 * exchange; the delivery worker fans it out to the poll's subscriptions), or undefined when no
 * active subscription of the poll takes the kind (then nothing is written at all). `id` is the
 * message id, the `webhook-id` receivers see; `data` is frozen here, when the change happens.
 */
function webhookMessage<K extends PollWebhookKind>(
  poll: PollDoc,
  kind: K,
  id: string,
  data: PayloadOf<Declared, K>,
): Envelope | undefined {
  if (!poll.webhook_kinds?.includes(kind)) return undefined;
  return changes.webhookEnvelope(kind, data, { scope: { poll_id: poll._id }, id });
}

/**
 * `poll.vote.counted`, once per counted vote (message id: the vote's id, so the reconciler
 * counting a vote again after a crash writes the same message), `verified` when it was counted
 * after its one-time password. The payload never carries the voter's identity on a `public`
 * poll (anonymous voting: `voter` is null); on an `authenticated` poll it names the signed-in
 * voter. No fingerprint, IP address or e-mail address is ever sent.
 */
export function voteCountedMessage(poll: PollDoc, vote: VoteDoc): Envelope | undefined {
  return webhookMessage(poll, 'poll.vote.counted', vote._id, {
    poll_id: poll._id,
    vote: {
      id: vote._id,
      seq: vote.seq,
      choices: vote.choices,
      option_ids: vote.option_ids,
      time_spent: vote.time_spent,
      created_at: vote.created_at,
    },
    verified: vote.verified === true,
    voter:
      poll.settings.access === 'authenticated' && vote.user_id !== null
        ? { user_id: vote.user_id, name: vote.voter_name }
        : null,
    links: { poll: links(poll._id).poll, results: links(poll._id).results },
  });
}

/** `poll.comment.created`: the comment as the API shows it (message id: the comment's id). */
export function commentCreatedMessage(poll: PollDoc, comment: CommentDoc): Envelope | undefined {
  return webhookMessage(poll, 'poll.comment.created', comment._id, {
    poll_id: poll._id,
    comment: commentView(comment),
    links: { poll: links(poll._id).poll, comments: links(poll._id).comments },
  });
}

/** Why a poll closed: its owner closed it, or its `ends_at` passed. */
export type ClosedReason = 'closed_by_owner' | 'ended';

/** A UUID-shaped id derived from `text` (the same text, the same id): a message written twice is one. */
const stableUuid = (text: string): string => {
  const h = createHash('sha256').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/**
 * `poll.closed`, with the results at that moment: when its owner closes an open poll (message
 * id: a new UUID per closing, `closed_at` the closing), or when its `ends_at` passed (message id
 * derived from the poll and that `ends_at`, so every replica announcing it writes one message;
 * `closed_at` is the `ends_at`). Its counters are read only when a subscription takes the kind.
 */
export async function pollClosedMessage(
  poll: PollDoc,
  counters: () => Promise<CounterSnapshot>,
  reason: ClosedReason = 'closed_by_owner',
): Promise<Envelope | undefined> {
  if (!poll.webhook_kinds?.includes('poll.closed')) return undefined;
  const snapshot = await counters();
  const ended = reason === 'ended';
  const id = ended ? stableUuid(`${poll._id}|ended|${poll.settings.ends_at}`) : randomUUID();
  return webhookMessage(poll, 'poll.closed', id, {
    // A poll closed by its owner has its closed_at, an ended one its ends_at.
    poll: {
      id: poll._id,
      title: poll.title,
      closed_at: (ended ? poll.settings.ends_at : poll.closed_at) as string,
    },
    reason,
    total_votes: snapshot.total,
    results: optionCounts(poll, snapshot),
    links: { poll: links(poll._id).poll, results: links(poll._id).results },
  });
}

/**
 * Writes a webhook message on its own (the vote path, outside a unit of work; nothing when
 * `message` is undefined). A message whose id is already in the outbox is written once.
 * @throws the store's error when the outbox cannot be written.
 */
export async function writeWebhookMessage(ctx: PollsContext, message: Envelope | undefined): Promise<void> {
  if (!message) return;
  await ctx
    .inTransaction(async ({ outbox }) => outbox.add(Exchanges.polls, message))
    .catch((err: unknown) => {
      if (!isDuplicateKey(err)) throw err;
    });
}
