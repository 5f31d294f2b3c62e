import { useState } from 'react';
import { Accordion, Badge, Button, Code, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFormatInstant } from '../../components/format.ts';
import { PagePicker } from '../../components/PagePicker.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { DeliveryAttempts } from './DeliveryAttempts.tsx';
import type { Delivery, DeliveryStatus, WebhookApi } from './types.ts';
import { useDeliveries, usePing } from './use-webhooks.ts';

const STATUS_COLOR: Record<DeliveryStatus, string> = { pending: 'yellow', succeeded: 'green', failed: 'red' };
const FILTERS = ['all', 'pending', 'succeeded', 'failed'] as const;

/** The line of a delivery in the log: kind, status, attempts, last answer and its duration. */
function DeliverySummary({ d }: { d: Delivery }) {
  const { t } = useTranslation('webhooks');
  const when = useFormatInstant();
  return (
    <Stack gap={2}>
      <Group gap="xs" wrap="wrap">
        <Code>{d.event}</Code>
        <Badge color={STATUS_COLOR[d.status]} variant="light">
          {t(`log.status.${d.status}`)}
        </Badge>
      </Group>
      <Text size="xs" c="dimmed">
        {[
          t('log.made', { when: when(d.created_at) }),
          d.attempts ? t('log.attempts', { count: d.attempts }) : t('log.attemptsNone'),
          d.attempts
            ? d.response_status !== null
              ? t('log.answer', { status: d.response_status })
              : t('log.noAnswer')
            : null,
          d.duration_ms !== null ? t('log.duration', { ms: d.duration_ms }) : null,
          d.next_attempt_at ? t('log.next', { when: when(d.next_attempt_at) }) : null,
        ]
          .filter(Boolean)
          .join(' · ')}
      </Text>
    </Stack>
  );
}

/**
 * A subscription's delivery log, newest first, by status: each delivery opens onto its
 * attempts, the body sent and "Send again". "Send a test" queues a ping here.
 */
export function DeliveryLog(props: { api: WebhookApi; webhookId: string }) {
  const { t } = useTranslation('webhooks');
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState<(typeof FILTERS)[number]>('all');
  const [opened, setOpened] = useState<string | null>(null);
  const deliveries = useDeliveries(props.api, props.webhookId, page, filter === 'all' ? undefined : filter);
  const ping = usePing(props.api);
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm" align="flex-end">
        <SegmentedControl
          aria-label={t('log.filter')}
          value={filter}
          onChange={(v) => {
            setFilter(v as (typeof FILTERS)[number]);
            setPage(1);
          }}
          data={FILTERS.map((f) => ({ value: f, label: f === 'all' ? t('log.all') : t(`log.status.${f}`) }))}
        />
        <Button variant="default" loading={ping.isPending} onClick={() => ping.mutate(props.webhookId)}>
          {t('actions.ping')}
        </Button>
      </Group>
      <ProblemAlert error={ping.error} />
      {deliveries.isPending ? <PageLoader /> : null}
      <ProblemAlert error={deliveries.error} />
      {deliveries.data && deliveries.data.data.length === 0 ? <Text c="dimmed">{t('log.empty')}</Text> : null}
      {deliveries.data && deliveries.data.data.length ? (
        <Accordion variant="separated" value={opened} onChange={setOpened}>
          {deliveries.data.data.map((d) => (
            <Accordion.Item key={d.id} value={d.id} data-testid="webhook-delivery">
              <Accordion.Control>
                <DeliverySummary d={d} />
              </Accordion.Control>
              <Accordion.Panel>
                {opened === d.id ? (
                  <DeliveryAttempts api={props.api} webhookId={props.webhookId} delivery={d} />
                ) : null}
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      ) : null}
      {deliveries.data ? (
        <PagePicker lastPage={deliveries.data.pagination.last_page} page={page} onChange={setPage} />
      ) : null}
    </Stack>
  );
}
