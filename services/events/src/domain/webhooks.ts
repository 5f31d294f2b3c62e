import {
  disabledWebhookEmail,
  knexWebhookRepository,
  webhookUseCases,
  type DisabledSubscription,
} from '@fieldhouse/webhooks';
import { findEvent } from '../data/events.ts';
import { findUserById } from '../data/users.ts';
import { requireAccess } from './access.ts';
import type { Actor, EventsContext } from './context.ts';
import { problems } from './problems.ts';
import { changes } from './changes.ts';

/**
 * The event kinds of area C (docs/webhooks.md, "Area C"): an invite added (API, CSV import),
 * checked in by a scan (any path: scanner, offline batch, device), its presence set by hand: the
 * webhook kinds of the list of changes (changes.ts).
 */
export const EVENT_WEBHOOK_KINDS = changes.webhookKinds;

/** Who manages an event's webhooks: its owner (staff get 403, anyone else 404). */
export interface EventWebhookAccess {
  actor: Actor;
  eventId: string;
}

/**
 * The webhook use cases of an event (libs/webhooks `WebhookUseCases`), owner only, at most
 * `WEBHOOK_MAX_SUBSCRIPTIONS` per event.
 * @throws problems.noSuch (404) unless owner or staff of the event; problems.ownerOnly (403)
 * for staff; problems.webhookLimitReached (422) creating one more than the cap (active or not).
 */
export const eventWebhooks = (ctx: EventsContext) =>
  webhookUseCases<EventWebhookAccess>(
    async (a) => {
      const { eventId } = await requireAccess(ctx, {
        actor: a.actor,
        permission: 'event.manage',
        eventId: a.eventId,
      });
      return {
        repo: knexWebhookRepository(ctx.db),
        scope: { event_id: eventId },
        settings: ctx.webhooks,
        userId: a.actor.userId,
        limitReached: (limit: number) => problems.webhookLimitReached({ limit }),
      };
    },
    ['event_id'],
  );

/**
 * Tells the event's owner that a webhook was disabled by its deliveries: the e-mail job is
 * written to the outbox (the API process relays it; the e-mail worker sends it). In the owner's
 * language and time zone (users projection; docs/errors.md, "E-mails in the recipient's
 * language"), with a link to the event's webhooks page in the console when `publicUrl` is given.
 */
export async function noticeDisabledWebhook(
  ctx: Pick<EventsContext, 'db' | 'inTransaction'> & { publicUrl?: string },
  s: DisabledSubscription,
): Promise<void> {
  const event = await findEvent(ctx.db, String(s.scope.event_id));
  const owner = event ? await findUserById(ctx.db, event.owner_id) : undefined;
  if (!event || !owner) return;
  const mail = disabledWebhookEmail(
    [owner.email],
    s,
    { en: `the event "${event.name}"`, fr: `l’événement « ${event.name} »` },
    {
      language: owner.language,
      timeZone: owner.time_zone,
      ...(ctx.publicUrl ? { link: `${ctx.publicUrl}/events/${event.id}/webhooks` } : {}),
    },
  );
  await ctx.inTransaction(async (_trx, outbox) => {
    await changes.append(outbox, 'email.requested', mail);
  });
}
