import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../poll-public/dates.ts';
import type { Results } from '../poll-public/types.ts';

/**
 * The milestones the poll reached (`achievements`: first vote, 10/100/1,000 votes, most
 * discussed, trending), titled in the reader's language by their `key` (the service's English
 * title otherwise), with when. Renders nothing without any (or when statistics are hidden).
 */
export function Achievements({ results }: { results: Results }) {
  const { t, i18n } = useTranslation('results');
  if (!results.achievements.length) return null;
  return (
    <Stack gap="sm" component="section" aria-labelledby="achievements-title">
      <Title order={2} size="h3" id="achievements-title">
        {t('achievements.title')}
      </Title>
      <Group gap="sm" align="stretch">
        {results.achievements.map((a) => (
          <Paper key={a.key} withBorder p="sm" radius="md" style={{ flex: '1 1 12rem' }}>
            <Badge variant="light" mb={4}>
              {t(`achievements.${a.key}.title`, { defaultValue: a.title })}
            </Badge>
            <Text size="sm">{t(`achievements.${a.key}.description`, { defaultValue: a.description })}</Text>
            <Text size="xs" c="dimmed">
              {formatDateTime(a.achieved_at, i18n.resolvedLanguage)}
            </Text>
          </Paper>
        ))}
      </Group>
    </Stack>
  );
}
