import { Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Results } from '../poll-public/types.ts';
import { formatDuration } from './duration.ts';
import { percentOf } from './percent.ts';

/**
 * The analytics of docs/polls.md ("Results"): votes per UTC hour (shown in local time, as a
 * table with a bar per row), mean and median time spent before voting, and the leading option
 * of each section. Renders nothing when the reader may not see them (empty analytics).
 */
export function AnalyticsPanel({ results }: { results: Results }) {
  const { t, i18n } = useTranslation('results');
  const a = results.analytics;
  const hours = a.votes_per_hour ?? [];
  const top = (a.top_options ?? []).filter((o) => o.option_id);
  if (!hours.length && a.mean_time_spent == null && !top.length) return null;
  const peak = Math.max(1, ...hours.map((h) => h.votes));
  const hourFormat = new Intl.DateTimeFormat(i18n.resolvedLanguage, {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });
  const sectionTitle = (id: string) => results.sections.find((s) => s.id === id)?.title ?? id;
  // A tie is shown as a tie (docs/polls.md, "Results": `tied_option_ids`), never as one winner.
  const optionLabel = (sectionId: string, id: string) =>
    results.sections.find((s) => s.id === sectionId)?.options.find((o) => o.id === id)?.label ?? id;
  const listFormat = new Intl.ListFormat(i18n.resolvedLanguage, { type: 'conjunction' });
  return (
    <Stack gap="md" component="section" aria-labelledby="analytics-title">
      <Title order={2} size="h3" id="analytics-title">
        {t('analytics.title')}
      </Title>
      <Group gap="sm" grow preventGrowOverflow={false}>
        {a.mean_time_spent != null ? (
          <Paper withBorder p="sm" radius="md">
            <Text size="xs" c="dimmed">
              {t('analytics.meanTime')}
            </Text>
            <Text fw={700}>{formatDuration(a.mean_time_spent)}</Text>
          </Paper>
        ) : null}
        {a.median_time_spent != null ? (
          <Paper withBorder p="sm" radius="md">
            <Text size="xs" c="dimmed">
              {t('analytics.medianTime')}
            </Text>
            <Text fw={700}>{formatDuration(a.median_time_spent)}</Text>
          </Paper>
        ) : null}
      </Group>
      {top.length ? (
        <Stack gap={4}>
          <Title order={3} size="h5">
            {t('analytics.topOptions')}
          </Title>
          {top.map((o) => (
            <Text key={o.section_id} size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="top-option">
              {o.tied_option_ids.length > 1
                ? t('analytics.topTie', {
                    section: sectionTitle(o.section_id),
                    labels: listFormat.format(o.tied_option_ids.map((id) => optionLabel(o.section_id, id))),
                    count: o.votes,
                  })
                : t('analytics.topOption', {
                    section: sectionTitle(o.section_id),
                    label: o.label,
                    count: o.votes,
                  })}
            </Text>
          ))}
        </Stack>
      ) : null}
      {hours.length ? (
        <Table.ScrollContainer minWidth={260}>
          <Table striped={false} verticalSpacing={4} captionSide="top">
            <Table.Caption>{t('analytics.perHour')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('analytics.hour')}</Table.Th>
                <Table.Th>{t('analytics.votes')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {hours.map((h) => (
                <Table.Tr key={h.hour}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{hourFormat.format(new Date(h.hour))}</Table.Td>
                  <Table.Td w="70%">
                    <Group gap="xs" wrap="nowrap">
                      <div
                        aria-hidden
                        style={{
                          height: 10,
                          width: `${Math.max(2, percentOf(h.votes, peak))}%`,
                          background: 'var(--mantine-primary-color-filled)',
                          borderRadius: 4,
                        }}
                      />
                      <Text size="sm">{h.votes}</Text>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
    </Stack>
  );
}
