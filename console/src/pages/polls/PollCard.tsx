import { Badge, Button, Card, Group, Menu, Stack, Text, Title } from '@mantine/core';
import {
  IconChartBar,
  IconDots,
  IconEdit,
  IconLock,
  IconLockOpen,
  IconQrcode,
  IconTrash,
  IconWebhook,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormatInstant } from '../../components/format.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { useSetPollOpen, type Poll } from './use-polls.ts';

const STATUS_COLOR = { open: 'green', closed: 'gray', not_open: 'yellow' } as const;

/**
 * One poll of the list: title, status, dates, and its actions (voting page, results, share,
 * edit, close or reopen, delete). Close/reopen refusals show on the card.
 */
export function PollCard(props: { poll: Poll; onShare: (p: Poll) => void; onDelete: (p: Poll) => void }) {
  const { poll } = props;
  const { t } = useTranslation(['polls', 'webhooks']);
  const when = useFormatInstant();
  const setOpen = useSetPollOpen();
  const closed = poll.status === 'closed';
  const headingId = `poll-${poll.id}-title`;
  return (
    <Card withBorder padding="md" component="article" aria-labelledby={headingId}>
      <Stack gap="xs" h="100%">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Title order={2} size="h4" id={headingId} style={{ wordBreak: 'break-word' }}>
            {poll.title}
          </Title>
          <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
            <Badge color={STATUS_COLOR[poll.status]} variant="light">
              {t(`status.${poll.status}`)}
            </Badge>
            <Menu position="bottom-end">
              <Menu.Target>
                <Button
                  size="compact-sm"
                  variant="default"
                  aria-label={t('list.more', { title: poll.title })}
                >
                  <IconDots size={16} aria-hidden />
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item
                  component={Link}
                  to={`/polls/${poll.id}/edit`}
                  leftSection={<IconEdit size={14} aria-hidden />}
                >
                  {t('list.edit')}
                </Menu.Item>
                {poll.settings.voters === 'invited' ? (
                  <Menu.Item component={Link} to={`/polls/${poll.id}/edit#invitees`}>
                    {t('list.invitees')}
                  </Menu.Item>
                ) : null}
                <Menu.Item
                  component={Link}
                  to={`/polls/${poll.id}/webhooks`}
                  leftSection={<IconWebhook size={14} aria-hidden />}
                >
                  {t('webhooks:title')}
                </Menu.Item>
                <Menu.Item
                  leftSection={
                    closed ? <IconLockOpen size={14} aria-hidden /> : <IconLock size={14} aria-hidden />
                  }
                  onClick={() => setOpen.mutate({ pollId: poll.id, open: closed })}
                >
                  {closed ? t('list.reopen') : t('list.close')}
                </Menu.Item>
                <Menu.Item
                  color="red"
                  leftSection={<IconTrash size={14} aria-hidden />}
                  onClick={() => props.onDelete(poll)}
                >
                  {t('list.delete')}
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
        <Text size="sm" c="dimmed">
          {t('list.meta', {
            count: poll.sections.length,
            created: when(poll.created_at),
          })}
        </Text>
        {poll.settings.ends_at ? (
          <Text size="sm" c="dimmed">
            {t('list.ends', { when: when(poll.settings.ends_at) })}
          </Text>
        ) : null}
        <Group gap="xs" mt="auto" wrap="wrap">
          <Button
            component={Link}
            to={`/p/${poll.id}`}
            size="xs"
            variant="light"
            aria-label={t('list.openVote', { title: poll.title })}
          >
            {t('list.vote')}
          </Button>
          <Button
            component={Link}
            to={`/p/${poll.id}/results`}
            size="xs"
            variant="light"
            leftSection={<IconChartBar size={14} aria-hidden />}
            aria-label={t('list.openResults', { title: poll.title })}
          >
            {t('list.results')}
          </Button>
          <Button
            size="xs"
            variant="light"
            leftSection={<IconQrcode size={14} aria-hidden />}
            onClick={() => props.onShare(poll)}
            aria-label={t('list.share', { title: poll.title })}
          >
            {t('list.shareShort')}
          </Button>
        </Group>
        <ProblemAlert error={setOpen.error} />
      </Stack>
    </Card>
  );
}
