import { useState } from 'react';
import { Button, Group, NativeSelect, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { SUBMISSION_STATUSES, type SubmissionStatus, type Stats } from '../collection/types.ts';
import { PER_PAGE_CHOICES, type ListState } from './filters.ts';

/**
 * The list's filters (spec 4.1): status, creation days (inclusive UTC days), collector (named
 * from the project's statistics when the caller may read them), full-text search (sent 300 ms
 * after typing stops) and page size. Every change goes back to page 1 through `onChange`.
 */
export function FiltersBar(props: {
  state: ListState;
  collectors: Stats['by_collector'] | undefined;
  onChange: (patch: Partial<ListState>) => void;
}) {
  const { t } = useTranslation(['submissions', 'collection']);
  const { state, onChange } = props;
  const [search, setSearch] = useState(state.search ?? '');
  // The box follows the URL when it changes from elsewhere (back button, "clear"): adjusted
  // while rendering, as React recommends, rather than in an effect.
  const [shown, setShown] = useState(state.search);
  if (shown !== state.search) {
    setShown(state.search);
    setSearch(state.search ?? '');
  }
  const sendSearch = useDebouncedCallback((text: string) => {
    const next = text.trim() || undefined;
    setShown(next);
    onChange({ search: next, page: 1 });
  }, 300);
  const set = (patch: Partial<ListState>) => onChange({ ...patch, page: 1 });
  const filtered = state.status || state.date_from || state.date_to || state.collector_id || state.search;
  return (
    <Group align="flex-end" gap="sm" wrap="wrap" role="search" aria-label={t('filters.label')}>
      <TextInput
        type="search"
        label={t('filters.search')}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          sendSearch(e.currentTarget.value);
        }}
        style={{ flex: '2 1 14rem' }}
      />
      <NativeSelect
        label={t('filters.status')}
        value={state.status ?? ''}
        data={[
          { value: '', label: t('filters.anyStatus') },
          ...SUBMISSION_STATUSES.map((s) => ({ value: s, label: t(`collection:status.${s}`) })),
        ]}
        onChange={(e) =>
          set({ status: (e.currentTarget.value || undefined) as SubmissionStatus | undefined })
        }
        style={{ flex: '1 1 10rem' }}
      />
      <TextInput
        type="date"
        label={t('filters.from')}
        value={state.date_from ?? ''}
        max={state.date_to}
        onChange={(e) => set({ date_from: e.currentTarget.value || undefined })}
        style={{ flex: '1 1 9rem' }}
      />
      <TextInput
        type="date"
        label={t('filters.to')}
        value={state.date_to ?? ''}
        min={state.date_from}
        onChange={(e) => set({ date_to: e.currentTarget.value || undefined })}
        style={{ flex: '1 1 9rem' }}
      />
      {props.collectors ? (
        <NativeSelect
          label={t('filters.collector')}
          value={state.collector_id ? String(state.collector_id) : ''}
          data={[
            { value: '', label: t('filters.anyCollector') },
            ...props.collectors
              .filter((c) => c.collector_id !== null)
              .map((c) => ({
                value: String(c.collector_id),
                label: `${c.name ?? `#${c.collector_id}`} (${c.count})`,
              })),
          ]}
          onChange={(e) => set({ collector_id: Number(e.currentTarget.value) || undefined })}
          style={{ flex: '1 1 10rem' }}
        />
      ) : null}
      <NativeSelect
        label={t('filters.perPage')}
        value={String(state.per_page)}
        data={PER_PAGE_CHOICES.map((n) => String(n))}
        onChange={(e) => set({ per_page: Number(e.currentTarget.value) })}
        style={{ flex: '0 1 6rem' }}
      />
      {filtered ? (
        <Button
          variant="subtle"
          onClick={() => {
            set({
              status: undefined,
              date_from: undefined,
              date_to: undefined,
              collector_id: undefined,
              search: undefined,
            });
          }}
        >
          {t('filters.clear')}
        </Button>
      ) : null}
    </Group>
  );
}
