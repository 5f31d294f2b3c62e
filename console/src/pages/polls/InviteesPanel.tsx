import { useState } from 'react';
import {
  Badge,
  Button,
  Card,
  Group,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PagePicker } from '../../components/PagePicker.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import {
  INVITEES_PER_PAGE,
  parseEmails,
  useAddInvitees,
  useInvitees,
  useRemindInvitees,
  useRemoveInvitee,
} from './use-invitees.ts';

const STATUS_COLOR = { invited: 'gray', voted: 'green', revoked: 'red' } as const;

/**
 * The owner's invited voters of a poll for invitees (docs/polls.md, "Invited voters"; shown on
 * the poll's edit page, `#invitees`): add addresses by pasting a list (each gets a personal link
 * by e-mail), see who has voted and who has not (never what they chose), withdraw an unused
 * invitation, send a reminder to those who have not voted. Each refusal shows next to its button.
 */
export function InviteesPanel({ pollId, anonymous }: { pollId: string; anonymous: boolean }) {
  const { t, i18n } = useTranslation('invited');
  const [page, setPage] = useState(1);
  const [text, setText] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const list = useInvitees(pollId, page);
  const add = useAddInvitees(pollId);
  const remind = useRemindInvitees(pollId);
  const remove = useRemoveInvitee(pollId);
  const counts = list.data?.counts;
  const total = list.data?.pagination.total ?? 0;

  const submit = () => {
    setAdded(null);
    const { emails, bad } = parseEmails(text);
    if (bad.length) return setFieldError(t('owner.bad', { list: bad.slice(0, 3).join(', ') }));
    if (!emails.length) return setFieldError(t('owner.none'));
    if (emails.length > 1000) return setFieldError(t('owner.tooMany'));
    setFieldError(null);
    add.mutate(emails, {
      onSuccess: (data) => {
        setText('');
        setAdded(t('owner.added', { count: data.added.length, skipped: data.skipped.length }));
      },
    });
  };
  const hour = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

  return (
    <Card withBorder padding="lg" id="invitees" data-testid="invitees-panel" maw={820}>
      <Stack gap="md">
        <Title order={2}>{t('owner.title')}</Title>
        <Text size="sm" c="dimmed">
          {anonymous ? t('owner.introAnonymous') : t('owner.intro')}
        </Text>
        <Stack gap={4}>
          <Textarea
            label={t('owner.paste')}
            description={t('owner.pasteHint')}
            autosize
            minRows={3}
            maxRows={10}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            error={fieldError}
            spellCheck={false}
            autoCapitalize="off"
          />
          <Group>
            <Button onClick={submit} loading={add.isPending}>
              {t('owner.add')}
            </Button>
          </Group>
          {added ? (
            <Text size="sm" role="status">
              {added}
            </Text>
          ) : null}
          {add.error ? <ProblemAlert error={add.error} /> : null}
        </Stack>
        {counts ? (
          <Text size="sm" data-testid="invitee-counts">
            {t('owner.counts', { voted: counts.voted, invited: counts.invited, revoked: counts.revoked })}
          </Text>
        ) : null}
        <Stack gap={4}>
          <Group>
            <Button
              variant="default"
              onClick={() => remind.mutate()}
              loading={remind.isPending}
              disabled={!counts?.invited}
              // A long label wraps on a phone rather than being cut short.
              h="auto"
              py={8}
              styles={{ label: { whiteSpace: 'normal', lineHeight: 1.35 } }}
            >
              {t('owner.remind')}
            </Button>
          </Group>
          {remind.data ? (
            <Text size="sm" role="status">
              {t('owner.reminded', { count: remind.data.reminded })}
            </Text>
          ) : null}
          {remind.error ? <ProblemAlert error={remind.error} /> : null}
        </Stack>
        {list.error ? <ProblemAlert error={list.error} /> : null}
        {total > 0 ? (
          <Table.ScrollContainer minWidth={420}>
            <Table striped data-testid="invitees">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('owner.email')}</Table.Th>
                  <Table.Th>{t('owner.status')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('owner.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data?.data.map((inv) => (
                  <Table.Tr key={inv.id} data-testid="invitee">
                    <Table.Td style={{ wordBreak: 'break-all' }}>{inv.email}</Table.Td>
                    <Table.Td>
                      <Badge color={STATUS_COLOR[inv.status]} variant="light">
                        {t(`owner.statuses.${inv.status}`)}
                      </Badge>
                      {inv.voted_hour ? (
                        <Text size="xs" c="dimmed">
                          {t('owner.votedHour', { hour: hour(inv.voted_hour) })}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      {inv.status === 'invited' ? (
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          color="red"
                          onClick={() => remove.mutate(inv.id)}
                          loading={remove.isPending && remove.variables === inv.id}
                          aria-label={t('owner.withdrawFor', { email: inv.email })}
                        >
                          {t('owner.withdraw')}
                        </Button>
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : null}
        {remove.error ? <ProblemAlert error={remove.error} /> : null}
        <PagePicker lastPage={Math.ceil(total / INVITEES_PER_PAGE)} page={page} onChange={setPage} />
      </Stack>
    </Card>
  );
}
