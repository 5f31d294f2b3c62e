import { Badge, Group, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LiveState } from './use-live-results.ts';

/** Whether the results are live, (re)connecting or gone, announced politely to screen readers. */
export function LiveStatus({ state }: { state: LiveState }) {
  const { t } = useTranslation('results');
  const color = state === 'live' ? 'green' : state === 'deleted' ? 'red' : 'yellow';
  return (
    <Group gap={6} role="status" aria-live="polite" data-testid="live-status" data-state={state}>
      <Badge
        color={color}
        variant="light"
        leftSection={state === 'reconnecting' ? <Loader size={10} color={color} /> : null}
      >
        {t(`live.${state}`)}
      </Badge>
    </Group>
  );
}
