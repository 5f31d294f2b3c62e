import { useState, type ReactNode } from 'react';
import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCalendarEvent, IconChartBar, IconClipboardList, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useMe } from '../../auth/session.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { UnconfirmedEmailNotice } from '../account/UnconfirmedEmailNotice.tsx';
import { NameDescriptionModal } from '../workspaces/NameDescriptionModal.tsx';
import { useCreateWorkspace } from '../workspaces/use-workspaces.ts';
import { useStartCounts } from './use-start-counts.ts';

/**
 * `/start` (and `/` when signed in): the three first actions (a form, a poll, an event), each
 * with what the user already has (how many, and a link to the list). A form lives in a project
 * of a workspace: without a workspace, "Create a form" creates one first (a dialog), then opens
 * it with the new-project dialog; with one workspace it opens that dialog there; with several,
 * the workspaces. An unconfirmed address shows its notice first (confirming it also applies the
 * invitations waiting for it).
 */
export function StartPage() {
  const { t } = useTranslation('start');
  const me = useMe();
  const counts = useStartCounts();
  const navigate = useNavigate();
  const [creatingWorkspace, setCreatingWorkspace] = useState(false);
  const createWorkspace = useCreateWorkspace();
  const workspaces = counts.workspaces.data;
  const formAction =
    workspaces === undefined ? null : workspaces.total === 0 ? (
      <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreatingWorkspace(true)}>
        {t('collect.create')}
      </Button>
    ) : (
      <Button
        component={Link}
        to={workspaces.total === 1 ? `/workspaces/${workspaces.first}?new=project` : '/workspaces'}
        leftSection={<IconPlus size={16} aria-hidden />}
      >
        {t('collect.create')}
      </Button>
    );
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>{me.data ? t('title', { name: me.data.name }) : t('titleAnonymous')}</Title>
        <Text>{t('lead')}</Text>
      </Stack>
      <UnconfirmedEmailNotice />
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
        <StartCard
          id="collect"
          icon={<IconClipboardList size={24} />}
          title={t('collect.title')}
          text={t('collect.text')}
          action={formAction}
          have={
            <Have
              query={counts.workspaces}
              none={t('collect.none')}
              some={(n) => t('collect.some', { count: n })}
              to="/workspaces"
            />
          }
        />
        <StartCard
          id="polls"
          icon={<IconChartBar size={24} />}
          title={t('polls.title')}
          text={t('polls.text')}
          action={
            <Button component={Link} to="/polls/new" leftSection={<IconPlus size={16} aria-hidden />}>
              {t('polls.create')}
            </Button>
          }
          have={
            <Have
              query={counts.polls}
              none={t('polls.none')}
              some={(n) => t('polls.some', { count: n })}
              to="/polls"
            />
          }
        />
        <StartCard
          id="events"
          icon={<IconCalendarEvent size={24} />}
          title={t('events.title')}
          text={t('events.text')}
          action={
            <Button component={Link} to="/events?new=1" leftSection={<IconPlus size={16} aria-hidden />}>
              {t('events.create')}
            </Button>
          }
          have={
            <Have
              query={counts.events}
              none={t('events.none')}
              some={(n) => t('events.some', { count: n })}
              to="/events"
            />
          }
        />
      </SimpleGrid>
      <NameDescriptionModal
        opened={creatingWorkspace}
        title={t('collect.workspaceTitle')}
        submitLabel={t('collect.workspaceSubmit')}
        pending={createWorkspace.isPending}
        error={createWorkspace.error}
        onSave={(body) =>
          createWorkspace.mutate(body, {
            onSuccess: (ws) => void navigate(`/workspaces/${ws.id}?new=project`),
          })
        }
        onClose={() => (setCreatingWorkspace(false), createWorkspace.reset())}
      />
    </Stack>
  );
}

/** One of the three jobs: what it is, its first action, and what the user already has. */
function StartCard(props: {
  id: string;
  icon: ReactNode;
  title: string;
  text: string;
  action: ReactNode;
  have: ReactNode;
}) {
  return (
    <Card withBorder padding="md" component="section" aria-labelledby={`start-${props.id}`}>
      <Stack gap="sm" h="100%">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon variant="light" size="xl" aria-hidden>
            {props.icon}
          </ThemeIcon>
          <Title order={2} size="h3" id={`start-${props.id}`}>
            {props.title}
          </Title>
        </Group>
        <Text size="sm" style={{ flexGrow: 1 }}>
          {props.text}
        </Text>
        {props.have}
        <div>{props.action}</div>
      </Stack>
    </Card>
  );
}

/** "You have N ..." with a link to the list, "none yet", or the refusal of the count's request. */
function Have(props: {
  query: { data?: { total: number }; error: unknown; isPending: boolean };
  none: string;
  some: (n: number) => string;
  to: string;
}) {
  if (props.query.error) return <ProblemAlert error={props.query.error} />;
  if (props.query.isPending || !props.query.data) return <Text size="sm">&nbsp;</Text>;
  if (props.query.data.total === 0)
    return (
      <Text size="sm" c="dimmed">
        {props.none}
      </Text>
    );
  return (
    <Anchor component={Link} to={props.to} size="sm">
      {props.some(props.query.data.total)}
    </Anchor>
  );
}
