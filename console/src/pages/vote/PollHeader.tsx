import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Poll } from '../poll-public/types.ts';

/**
 * The poll's title, its description (plain text, line breaks kept), its voting rules, and when
 * results are not shown to everyone, when they appear (docs/polls.md, "Result visibility").
 */
export function PollHeader({ poll }: { poll: Poll }) {
  const { t } = useTranslation('vote');
  const max = poll.settings.max_votes_per_voter;
  return (
    <Stack gap="xs">
      <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
        {poll.title}
      </Title>
      {poll.description ? (
        <Text style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>{poll.description}</Text>
      ) : null}
      <Text size="sm" c="dimmed">
        {[
          max > 1 ? t('rules.maxVotes', { count: max }) : t('rules.oneVote'),
          poll.settings.require_verification ? t('rules.verification') : null,
          poll.settings.access === 'authenticated' ? t('rules.signedIn') : null,
        ]
          .filter(Boolean)
          .join(' · ')}
      </Text>
      {poll.settings.results_visibility !== 'always' ? (
        <Text size="sm" c="dimmed" data-testid="results-visibility">
          {t(`rules.results.${poll.settings.results_visibility}`)}
        </Text>
      ) : null}
    </Stack>
  );
}
