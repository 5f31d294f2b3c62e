import { Alert, Anchor, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../poll-public/dates.ts';
import type { Availability } from '../poll-public/availability.ts';

/**
 * Why this poll takes no vote now — closed, not yet open (with its start), or ended (with its
 * end) — and a link to its results.
 */
export function PollUnavailable({
  availability,
  pollId,
}: {
  availability: Exclude<Availability, { kind: 'open' }>;
  pollId: string;
}) {
  const { t, i18n } = useTranslation('vote');
  const lng = i18n.resolvedLanguage;
  const text =
    availability.kind === 'closed'
      ? availability.closedAt
        ? t('unavailable.closedAt', { time: formatDateTime(availability.closedAt, lng) })
        : t('unavailable.closed')
      : availability.kind === 'ended'
        ? t('unavailable.ended', { time: formatDateTime(availability.endsAt, lng) })
        : availability.startsAt
          ? t('unavailable.notYetAt', { time: formatDateTime(availability.startsAt, lng) })
          : t('unavailable.notYet');
  return (
    <Stack gap="sm">
      <Alert color="yellow" variant="light" title={t(`unavailable.title.${availability.kind}`)} role="status">
        {text}
      </Alert>
      <Anchor component={Link} to={`/p/${encodeURIComponent(pollId)}/results`}>
        {t('links.results')}
      </Anchor>
    </Stack>
  );
}
