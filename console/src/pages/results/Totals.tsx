import { Paper, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Results } from '../poll-public/types.ts';

/** The headline figures: votes, voters, reactions, comments (numbers in the reader's language). */
export function Totals({ results }: { results: Results }) {
  const { t, i18n } = useTranslation('results');
  const n = new Intl.NumberFormat(i18n.resolvedLanguage);
  const figures = [
    ['totalVotes', results.total_votes],
    ['uniqueVoters', results.unique_voters],
    ['reactions', results.reactions_total],
    ['comments', results.comments_total],
  ] as const;
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" component="dl" m={0}>
      {figures.map(([key, value]) => (
        <Paper key={key} withBorder p="sm" radius="md" data-testid={`total-${key}`}>
          <Text component="dt" size="xs" c="dimmed">
            {t(`totals.${key}`)}
          </Text>
          <Text component="dd" m={0} fz="xl" fw={700}>
            {n.format(value)}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
