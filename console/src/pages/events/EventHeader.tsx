import { useMemo, type ReactNode } from 'react';
import { Anchor, Group, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { eventWebhookApi } from '../webhooks/event-webhooks-api.ts';
import { useWebhooks } from '../webhooks/use-webhooks.ts';
import { useEvent, useEventAccess } from './use-events.ts';

/** The pages of one event, as the header links them. */
const EVENT_PAGES = ['invites', 'attendance', 'gates', 'devices'] as const;

/**
 * The head of an event's pages: a link back to the events, the page's title made with the
 * event's name (`title(name)`), links to the event's other pages (the current one marked for
 * screen readers) and, under them, why the event could not be read (404 for outsiders).
 */
export function EventHeader(props: {
  eventId: string;
  title: (name: string) => string;
  children?: ReactNode;
}) {
  const { t } = useTranslation(['events', 'webhooks']);
  const event = useEvent(props.eventId);
  const access = useEventAccess();
  // Scanner devices are the owner's (staff scan from the door scanner page with their session).
  const pages = EVENT_PAGES.filter((page) => page !== 'devices' || access.canManage(props.eventId));
  // Only the owner may manage the webhooks: the link shows once the list answers.
  const webhooks = useWebhooks(
    useMemo(() => eventWebhookApi(props.eventId), [props.eventId]),
    access.canManage(props.eventId),
  );
  return (
    <Stack gap={4}>
      <Anchor component={Link} to="/events" size="sm">
        {t('header.back')}
      </Anchor>
      <Title order={1}>{props.title(event.data?.name ?? '…')}</Title>
      <Group component="nav" gap="md" aria-label={t('header.pages')}>
        {pages.map((page) => (
          <Anchor key={page} component={NavLink} to={`/events/${props.eventId}/${page}`} size="sm" end>
            {t(`header.${page}`)}
          </Anchor>
        ))}
        {access.canScan(props.eventId) ? (
          <Anchor component={Link} to={`/scan/${props.eventId}`} size="sm">
            {t('list.scanner')}
          </Anchor>
        ) : null}
        {webhooks.isSuccess ? (
          <Anchor component={NavLink} to={`/events/${props.eventId}/webhooks`} size="sm">
            {t('webhooks:title')}
          </Anchor>
        ) : null}
      </Group>
      {props.children}
      <ProblemAlert error={event.error} />
    </Stack>
  );
}
