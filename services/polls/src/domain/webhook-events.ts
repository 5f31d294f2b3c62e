import { createHash, randomUUID } from 'node:crypto';
import type { Envelope } from '@fieldhouse/contracts';
import type { PayloadOf, WebhookKindOf } from '@fieldhouse/messaging';
import { changes } from './changes.ts';
import { optionCounts } from './results.ts';
import type { CommentDoc, CounterSnapshot, PollDoc, VoteDoc } from './types.ts';
import { commentView } from './views.ts';

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
