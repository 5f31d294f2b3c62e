import { Badge, Button, Card, Code, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormatInstant } from '../../components/format.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import type { Webhook, WebhookApi } from './types.ts';
import { usePing, useSetWebhookActive } from './use-webhooks.ts';

/**
 * One subscription: its URL, description, kinds, whether it is on (and why it is off), its
 * failure streak, area A's projects, and its actions: deliveries, send a test (ping), edit, turn
 * off or on, new secret, delete. A ping or a switch refused shows on the card, under its buttons.
 */
export function WebhookCard(props: {
  api: WebhookApi;
  webhook: Webhook;
  /** `/polls/{id}/webhooks`: the deliveries page is under it. */
  basePath: string;
  /** Area A: project names by id, to name a webhook's projects. */
  projectNames?: Map<number, string>;
  onEdit: () => void;
  onRotate: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation('webhooks');
  const when = useFormatInstant();
  const { webhook: w } = props;
  const ping = usePing(props.api);
  const toggle = useSetWebhookActive(props.api);
  const headingId = `webhook-${w.id}-url`;
  const streak = w.failure_streak ?? 0;
  return (
    <Card withBorder padding="md" component="article" aria-labelledby={headingId}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
          <Text id={headingId} fw={600} ff="monospace" size="sm" style={{ wordBreak: 'break-all' }}>
            {w.url}
          </Text>
          <Badge color={w.active ? 'green' : 'gray'} variant="light" style={{ flexShrink: 0 }}>
            {w.active ? t('state.active') : t('state.off')}
          </Badge>
        </Group>
        {w.description ? <Text size="sm">{w.description}</Text> : null}
        {!w.active && w.disabled_reason ? (
          <Text size="sm" c={w.disabled_reason === 'by_owner' ? 'dimmed' : 'red'}>
            {t(`reason.${w.disabled_reason}`, { when: when(w.disabled_at) })}
          </Text>
        ) : null}
        {streak > 0 && w.active ? (
          <Text size="sm" c="orange.8">
            {t('streak', { count: streak })}
          </Text>
        ) : null}
        <Group gap={6} wrap="wrap">
          {w.events.map((kind) => (
            <Code key={kind}>{kind}</Code>
          ))}
        </Group>
        {props.projectNames ? (
          <Text size="sm" c="dimmed">
            {w.project_ids?.length
              ? t('projectsSome', {
                  names: w.project_ids.map((id) => props.projectNames?.get(id) ?? `#${id}`).join(', '),
                })
              : t('projectsAll')}
          </Text>
        ) : null}
        <Text size="xs" c="dimmed">
          {t('created', { when: when(w.created_at) })}
        </Text>
        {w.previous_secret_expires_at ? (
          <Text size="xs" c="dimmed">
            {t('overlap', { when: when(w.previous_secret_expires_at) })}
          </Text>
        ) : null}
        <Group gap="xs" wrap="wrap" role="group" aria-label={t('actions.group', { url: w.url })}>
          <Button size="xs" variant="light" component={Link} to={`${props.basePath}/${w.id}`}>
            {t('actions.deliveries')}
          </Button>
          <Button size="xs" variant="default" loading={ping.isPending} onClick={() => ping.mutate(w.id)}>
            {t('actions.ping')}
          </Button>
          <Button size="xs" variant="default" onClick={props.onEdit}>
            {t('actions.edit')}
          </Button>
          <Button
            size="xs"
            variant="default"
            loading={toggle.isPending}
            onClick={() => toggle.mutate({ id: w.id, active: !w.active })}
          >
            {w.active ? t('actions.turnOff') : t('actions.turnOn')}
          </Button>
          <Button size="xs" variant="default" onClick={props.onRotate}>
            {t('actions.rotate')}
          </Button>
          <Button size="xs" color="red" variant="outline" onClick={props.onDelete}>
            {t('actions.delete')}
          </Button>
        </Group>
        {ping.isSuccess ? (
          <Text size="sm" role="status">
            {t('actions.pinged')}
          </Text>
        ) : null}
        <ProblemAlert error={ping.error ?? toggle.error} />
      </Stack>
    </Card>
  );
}
