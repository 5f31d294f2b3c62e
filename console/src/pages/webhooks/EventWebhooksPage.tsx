import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useEvent } from '../events/use-events.ts';
import { eventWebhookApi } from './event-webhooks-api.ts';
import { WebhooksScreen } from './WebhooksScreen.tsx';

/** `/events/{id}/webhooks[/{webhookId}]`: an event's webhooks and their deliveries (the event's owner). */
export function EventWebhooksPage() {
  const { t } = useTranslation(['webhooks', 'common']);
  const eventId = useParams().scopeId!;
  const event = useEvent(eventId);
  const api = useMemo(() => eventWebhookApi(eventId), [eventId]);
  const name = event.data?.name ?? '…';
  return (
    <WebhooksScreen
      api={api}
      basePath={`/events/${eventId}/webhooks`}
      crumbs={[
        { to: '/events', label: t('common:nav.events') },
        { to: `/events/${eventId}/invites`, label: name },
      ]}
      scopeText={t('scope.event', { name })}
    />
  );
}
