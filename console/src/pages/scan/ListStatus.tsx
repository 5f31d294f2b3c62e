import { memo } from 'react';
import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../../api/problem.ts';
import { problemMessage } from '../../api/problem-message.ts';

/**
 * Where the guest list on this device stands (docs/console.md, "Door scanner"): how many
 * invitees it holds and when it was last updated, the download under way, or that it is not
 * there yet; and why the last update failed (the copy is still used).
 */
export const ListStatus = memo(function ListStatus(props: {
  list: { size: number; ready: boolean; syncedAt: string | null };
  error: ApiError | null;
}) {
  const { t, i18n } = useTranslation('scan');
  const { list } = props;
  const time = list.syncedAt
    ? new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', { timeStyle: 'medium' }).format(
        new Date(list.syncedAt),
      )
    : '';
  return (
    <>
      <Text size="sm" c="dimmed" data-testid="list-status">
        {list.ready
          ? t('list.status', { count: list.size, time })
          : list.size > 0
            ? t('list.downloading', { count: list.size })
            : t('list.none')}
      </Text>
      {props.error ? (
        <Text size="sm" c="red.9" role="alert">
          {t('list.failed', { reason: problemMessage(props.error) })}
        </Text>
      ) : null}
    </>
  );
});
