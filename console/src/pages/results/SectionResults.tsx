import { Group, Progress, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Section } from '../poll-public/types.ts';
import { percentOf } from './percent.ts';

/**
 * One section's bars: per option its label, votes and share of the section's votes (of the ballots,
 * `of`, for a multiple-choice section), the leading option(s) emphasised. Each bar is a progressbar named with the same figures, so a
 * screen reader hears "Express: 3 votes, 60%".
 */
export function SectionResults({
  section,
  counts,
  of,
}: {
  section: Section;
  counts: Record<string, number>;
  /** The share's whole when it is not the sum of the counts (multiple choice: the ballots). */
  of?: number;
}) {
  const { t } = useTranslation('results');
  const total = of ?? section.options.reduce((sum, o) => sum + (counts[o.id] ?? 0), 0);
  const top = Math.max(0, ...section.options.map((o) => counts[o.id] ?? 0));
  return (
    <Stack gap="sm" component="section" aria-labelledby={`section-${section.id}`}>
      <Title order={3} size="h4" id={`section-${section.id}`} style={{ overflowWrap: 'anywhere' }}>
        {section.title}
      </Title>
      {section.options.map((option) => {
        const votes = counts[option.id] ?? 0;
        const pct = percentOf(votes, total);
        const leading = votes > 0 && votes === top;
        return (
          <Stack key={option.id} gap={4} data-testid={`option-${option.id}`}>
            <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
              <Text fw={leading ? 700 : 400} style={{ overflowWrap: 'anywhere' }}>
                {option.label}
              </Text>
              <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid="option-figures">
                {t('bars.figures', { count: votes, percent: pct })}
              </Text>
            </Group>
            <Progress
              value={pct}
              size="lg"
              color={leading ? undefined : 'gray'}
              aria-label={t('bars.label', { label: option.label, count: votes, percent: pct })}
            />
          </Stack>
        );
      })}
    </Stack>
  );
}
