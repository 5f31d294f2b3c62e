import type { Envelope } from '@fieldhouse/contracts';
import {
  disabledWebhookEmail,
  webhookUseCases,
  type DisabledSubscription,
  type WebhookScope,
} from '@fieldhouse/webhooks';
import { pollTitle, webhookOwnerEmail, type PollsDb } from '../data/disabled-webhooks.ts';
import { changes } from './changes.ts';
import { requireAccess } from './access.ts';
import type { PollsContext } from './context.ts';
import { problems } from './problems.ts';

/** Who manages a poll's webhooks: its owner (signed in; anyone else 403, unknown poll 404). */
export interface PollWebhookAccess {
  userId: number | null;
  /** The actor's e-mail address: the disabled-webhook notice goes there. */
  email: string | null;
  pollId: string;
}

/**
 * Keeps the poll's `webhook_kinds` in step with its active subscriptions, so votes, comments
 * and closings of a poll nobody subscribed to write nothing to the outbox.
 */
async function refreshWebhookKinds(ctx: PollsContext, pollId: string): Promise<void> {
  const subscriptions = await ctx.webhooks.repo.list({ poll_id: pollId });
  const kinds = new Set(subscriptions.filter((s) => s.active).flatMap((s) => s.events));
  await ctx.polls.setWebhookKinds(pollId, [...kinds].sort());
}

/**
 * The webhook use cases of a poll (libs/webhooks `WebhookUseCases`), owner only, at most
 * `WEBHOOK_MAX_SUBSCRIPTIONS` per poll; subscriptions
 * and delivery log live in the polls database (MongoDB). Each subscription keeps the e-mail
 * address of the owner who last created or changed it (`owner_email`), where the notice of a
 * webhook disabled by its deliveries goes.
 * @throws ProblemError 401 anonymous; 404 unknown poll; 403 not its owner; 422
 * `webhook_limit_reached` creating one more than the cap.
 */
export const pollWebhooks = (ctx: PollsContext) =>
  webhookUseCases<PollWebhookAccess>(
    async (a): Promise<WebhookScope> => {
      const { poll } = await requireAccess(ctx, {
        actor: a,
        permission: 'webhooks.manage',
        pollId: a.pollId,
      });
      return {
        repo: ctx.webhooks.repo,
        scope: { poll_id: poll._id },
        settings: ctx.webhooks.settings,
        userId: poll.owner_id,
        columns: async () => (a.email ? { owner_email: a.email } : {}),
        changed: () => refreshWebhookKinds(ctx, poll._id),
        // 422 `webhook_limit_reached`: `WEBHOOK_MAX_SUBSCRIPTIONS` per poll, active or not
        // (docs/webhooks.md, "Isolation").
        limitReached: (limit) => problems.webhookLimitReached({ limit }),
      };
    },
    ['poll_id'],
  );

/** What the disabled-webhook notice uses (the webhook worker builds it: workers/webhooks.ts). */
interface DisabledWebhookNoticeDeps {
  /** The polls database (the subscription's address and the poll's title: data/disabled-webhooks.ts). */
  db: PollsDb;
  /**
   * Sends a message of the list of changes on the `polls` exchange: the worker's broker (the
   * worker process has no outbox relay of its own; a lost notice is sent again by nobody, as
   * before issue 33).
   */
  publish: (message: Envelope) => Promise<void>;
  /** The console's address (`PUBLIC_URL`), for the link to the poll's webhooks page; none: no link. */
  publicUrl?: string;
}

/**
 * Tells the owner of a poll that one of its webhooks was disabled by its deliveries: an
 * `email.requested` job of the list of changes (the polls e-mail worker sends it) to the address
 * the owner had when they last created or changed the webhook (`owner_email`). Nothing when it
 * has none or the poll is gone. English and UTC (polls keeps no users, so nothing tells the
 * owner's language or zone; docs/errors.md, "E-mails in the recipient's language").
 */
export async function noticeDisabledWebhook(
  deps: DisabledWebhookNoticeDeps,
  s: DisabledSubscription,
): Promise<void> {
  const [to, poll] = await Promise.all([
    webhookOwnerEmail(deps.db, s.id),
    pollTitle(deps.db, String(s.scope.poll_id)),
  ]);
  if (!to || !poll) return;
  const mail = disabledWebhookEmail(
    [to],
    s,
    `the poll "${poll.title}"`,
    deps.publicUrl ? { link: `${deps.publicUrl}/polls/${poll._id}/webhooks` } : {},
  );
  await deps.publish(changes.envelope('email.requested', mail));
}
