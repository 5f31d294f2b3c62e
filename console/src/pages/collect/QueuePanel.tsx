import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFormatInstant } from '../../components/format.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import type { Field } from '../collection/types.ts';
import type { QueueItem, QueueStatus } from './offline-store.ts';
import { firstAnswers } from './queue-summary.ts';
import { describeErrors } from './send-queue.ts';

const COLORS: Record<QueueStatus, string> = {
  pending: 'yellow',
  sent: 'green',
  duplicate: 'teal',
  conflict: 'orange',
  refused: 'red',
};

/**
 * The submissions made in this browser for this project, newest first, each with where it
 * stands: waiting to be sent, sent, duplicate (the service already had it), conflict or refused
 * with the reason per field, and its first two text or choice answers to tell it from the others. A refused or conflicting item stays until the collector edits it
 * back into the form or deletes it; sent ones can be cleared.
 */
export function QueuePanel(props: {
  items: QueueItem[];
  fields: readonly Field[];
  online: boolean;
  sending: boolean;
  stoppedBy: unknown;
  onSend: () => void;
  onEdit: (item: QueueItem) => void;
  onDelete: (item: QueueItem) => void;
}) {
  const { t } = useTranslation('collectPage');
  const when = useFormatInstant();
  const pending = props.items.filter((i) => i.status === 'pending').length;
  if (props.items.length === 0) return null;
  return (
    <Stack gap="sm" component="section" aria-labelledby="queue-heading">
      <Group justify="space-between" wrap="wrap">
        <Title order={2} size="h4" id="queue-heading">
          {t('queue.title')}
        </Title>
        <Button
          size="xs"
          variant="light"
          onClick={props.onSend}
          loading={props.sending}
          disabled={pending === 0 || !props.online}
        >
          {t('queue.send', { count: pending })}
        </Button>
      </Group>
      <Text size="sm" aria-live="polite" data-testid="queue-summary">
        {pending === 0
          ? t('queue.allAnswered')
          : props.online
            ? t('queue.pending', { count: pending })
            : t('queue.offline', { count: pending })}
      </Text>
      {pending > 0 ? <ProblemAlert error={props.stoppedBy} /> : null}
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('queue.label')}>
        {[...props.items].reverse().map((item) => {
          const problems = describeErrors(item.errors, props.fields);
          const keep = item.status === 'refused' || item.status === 'conflict';
          return (
            <Paper component="li" key={item.local_id} withBorder p="xs" data-status={item.status}>
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Stack gap={2}>
                  <Group gap="xs">
                    <Badge color={COLORS[item.status]} variant="light">
                      {t(`queue.status.${item.status}`)}
                    </Badge>
                    <Text size="sm">
                      {item.server_id
                        ? t('queue.serverId', { id: item.server_id })
                        : t('queue.made', { when: when(item.client_updated_at) })}
                    </Text>
                  </Group>
                  {/* The first answers tell the items apart. */}
                  {firstAnswers(props.fields, item.answers).map((a) => (
                    <Text key={a.label} size="sm" data-testid="queue-answer">
                      <Text span c="dimmed" size="sm">
                        {t('queue.answer', { label: a.label })}
                      </Text>{' '}
                      {a.text}
                    </Text>
                  ))}
                  {/* The errors say it all when there are some (the message repeats them). */}
                  {keep && item.message && problems.length === 0 ? (
                    <Text size="sm">{item.message}</Text>
                  ) : null}
                  {keep
                    ? problems.map((p) => (
                        <Text key={p} size="sm" c="red.8">
                          {p}
                        </Text>
                      ))
                    : null}
                </Stack>
                {item.status !== 'pending' ? (
                  <Group gap="xs">
                    {keep ? (
                      <Button size="xs" variant="light" onClick={() => props.onEdit(item)}>
                        {t('queue.edit')}
                      </Button>
                    ) : null}
                    <Button
                      size="xs"
                      variant="subtle"
                      color={keep ? 'red' : 'gray'}
                      onClick={() => props.onDelete(item)}
                    >
                      {keep ? t('queue.delete') : t('queue.clear')}
                    </Button>
                  </Group>
                ) : null}
              </Group>
            </Paper>
          );
        })}
      </Stack>
    </Stack>
  );
}
