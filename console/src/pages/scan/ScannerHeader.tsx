import { memo } from 'react';
import { Badge, Group, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Stats } from './scan-api.ts';

/**
 * The scanner's header: event and device names (and the device's gate), online or offline, and the counters (scans by
 * this device, present / total, waiting to sync). Re-rendered only when one of them changes.
 */
export const ScannerHeader = memo(function ScannerHeader(props: {
  eventName: string | undefined;
  /** The device's name; null for a signed-in user's scanner. */
  deviceName: string | null;
  /** The device's gate, named beside it (a signed-in user picks theirs below). */
  gateName?: string | undefined;
  online: boolean;
  /** Scans by this device; null for a signed-in user's scanner (not counted per user). */
  deviceScans: number | null;
  stats: Stats | undefined;
  queued: number;
}) {
  const { t } = useTranslation('scan');
  return (
    <>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <div>
          <Title order={1} size="h3">
            {props.eventName ?? t('title')}
          </Title>
          <Text size="sm" c="dimmed">
            {props.deviceName === null
              ? t('staff')
              : props.gateName
                ? t('deviceAt', { name: props.deviceName, gate: props.gateName })
                : t('device', { name: props.deviceName })}
          </Text>
        </div>
        <Badge color={props.online ? 'green' : 'orange'} variant="light" size="lg">
          {props.online ? t('online') : t('offline')}
        </Badge>
      </Group>
      <Group gap="md" wrap="wrap" aria-label={t('counters.label')} role="group">
        {props.deviceScans === null ? null : (
          <Text size="sm" data-testid="count-device">
            {t('counters.device', { count: props.deviceScans })}
          </Text>
        )}
        <Text size="sm" data-testid="count-present">
          {props.stats
            ? t('counters.present', { present: props.stats.present, total: props.stats.total })
            : t('counters.unknown')}
        </Text>
        <Text size="sm" data-testid="count-queued">
          {t('counters.queued', { count: props.queued })}
        </Text>
      </Group>
    </>
  );
});
