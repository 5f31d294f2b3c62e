import { Button, Code, Group, List, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFormatInstant } from '../../components/format.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import type { Attempt, Delivery, WebhookApi } from './types.ts';
import { useDelivery, useRedeliver } from './use-webhooks.ts';

/** What an attempt got back: the start of the answer, or why there was none. */
function AttemptOutcome({ attempt }: { attempt: Attempt }) {
  const { t } = useTranslation('webhooks');
  if (attempt.error) return <Text size="xs">{attempt.error}</Text>;
  if (attempt.response_body === null)
    return (
      <Text size="xs" c="dimmed">
        {t('log.bodyHidden')}
      </Text>
    );
  if (attempt.response_body === '')
    return (
      <Text size="xs" c="dimmed">
        {t('log.bodyEmpty')}
      </Text>
    );
  return (
    <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', maxHeight: 160, overflow: 'auto' }}>
      {attempt.response_body}
    </Code>
  );
}

/**
 * The inside of an opened delivery: every attempt (time, the answer's status, duration, the
 * start of the answer or the error), the body sent, and "Send again" for a delivery that is
 * not pending (the same body and `webhook-id`, a new round of retries). Fetched when opened.
 */
export function DeliveryAttempts(props: { api: WebhookApi; webhookId: string; delivery: Delivery }) {
  const { t } = useTranslation('webhooks');
  const when = useFormatInstant();
  const detail = useDelivery(props.api, props.webhookId, props.delivery.id, true);
  const redeliver = useRedeliver(props.api, props.webhookId);
  const d = detail.data;
  return (
    <Stack gap="sm">
      <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
        {t('log.messageId', { id: props.delivery.message_id })}
      </Text>
      {detail.isPending ? (
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="sm">{t('log.loading')}</Text>
        </Group>
      ) : null}
      <ProblemAlert error={detail.error} />
      {d && d.attempt_log.length ? (
        <Stack gap={4}>
          <Text size="sm" fw={600} id={`attempts-${props.delivery.id}`}>
            {t('log.attemptsTitle')}
          </Text>
          <List listStyleType="none" spacing="xs" aria-labelledby={`attempts-${props.delivery.id}`} p={0}>
            {d.attempt_log.map((a) => (
              <List.Item key={a.attempted_at} data-testid="webhook-attempt">
                <Text size="sm">
                  {when(a.attempted_at)} · {t('log.attemptAnswer')}: {a.response_status ?? t('log.noAnswer')}{' '}
                  · {t('log.duration', { ms: a.duration_ms })}
                </Text>
                <AttemptOutcome attempt={a} />
              </List.Item>
            ))}
          </List>
        </Stack>
      ) : null}
      {d ? (
        <details>
          <summary>
            <Text span size="sm">
              {t('log.payload')}
            </Text>
          </summary>
          <Code
            block
            style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', maxHeight: 320, overflow: 'auto' }}
          >
            {JSON.stringify(d.payload, null, 2)}
          </Code>
        </details>
      ) : null}
      {props.delivery.status !== 'pending' ? (
        <Group gap="xs">
          <Button
            size="xs"
            variant="light"
            loading={redeliver.isPending}
            onClick={() => redeliver.mutate(props.delivery.id)}
          >
            {t('log.redeliver')}
          </Button>
          {redeliver.isSuccess ? (
            <Text size="sm" role="status">
              {t('log.redelivered')}
            </Text>
          ) : null}
        </Group>
      ) : null}
      <ProblemAlert error={redeliver.error} />
    </Stack>
  );
}
