import { useState } from 'react';
import { Button, Group, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import type { ListFilters } from './filters.ts';
import { allMatchingIds } from './use-submissions.ts';

/**
 * The bulk-review bar: how many submissions are selected, "select all N matching" (every page
 * of the current filter, read 100 at a time), clear, and "review the selection".
 */
export function SelectionBar(props: {
  projectId: number;
  filters: ListFilters;
  pageIds: number[];
  total: number;
  selected: ReadonlySet<number>;
  onSelect: (ids: ReadonlySet<number>) => void;
  onReview: () => void;
}) {
  const { t } = useTranslation('submissions');
  const [loading, setLoading] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const count = props.selected.size;
  const pageSelected = props.pageIds.length > 0 && props.pageIds.every((id) => props.selected.has(id));
  const selectAll = async () => {
    setError(null);
    setLoading(t('selection.loading', { done: 0, total: props.total }));
    try {
      const ids = await allMatchingIds(props.projectId, props.filters, (done, total) =>
        setLoading(t('selection.loading', { done, total })),
      );
      props.onSelect(new Set(ids));
    } catch (err) {
      setError(err);
    } finally {
      setLoading(null);
    }
  };
  if (count === 0 && !loading) return null;
  return (
    <Paper withBorder p="xs" role="region" aria-label={t('selection.label')}>
      <Group gap="sm" wrap="wrap">
        <Text size="sm" fw={600} aria-live="polite">
          {loading ?? t('selection.count', { count })}
        </Text>
        {pageSelected && count < props.total ? (
          <Button size="xs" variant="light" onClick={() => void selectAll()} loading={loading !== null}>
            {t('selection.all', { count: props.total })}
          </Button>
        ) : null}
        <Button size="xs" onClick={props.onReview} disabled={count === 0 || loading !== null}>
          {t('selection.review', { count })}
        </Button>
        <Button size="xs" variant="subtle" onClick={() => props.onSelect(new Set())}>
          {t('selection.clear')}
        </Button>
      </Group>
      <ProblemAlert error={error} />
    </Paper>
  );
}
