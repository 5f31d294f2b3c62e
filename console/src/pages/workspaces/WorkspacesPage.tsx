import { useState } from 'react';
import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { PagePicker } from '../../components/PagePicker.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { useWorkspaces } from '../collection/use-collection.ts';
import { NameDescriptionModal } from './NameDescriptionModal.tsx';
import { useCreateWorkspace } from './use-workspaces.ts';

/**
 * `/workspaces`: the workspaces the user is a member of (name, description, their role), as
 * cards (one column on a phone), and the creation of a new one (its creator becomes its owner).
 */
export function WorkspacesPage() {
  const { t } = useTranslation(['workspaces', 'collection']);
  const [page, setPage] = useState(1);
  const workspaces = useWorkspaces(page);
  const [creating, setCreating] = useState(false);
  const create = useCreateWorkspace();
  const navigate = useNavigate();
  const close = () => {
    setCreating(false);
    create.reset();
  };
  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{t('list.title')}</Title>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
          {t('list.create')}
        </Button>
      </Group>
      {workspaces.isPending ? (
        <PageLoader />
      ) : workspaces.error ? (
        <ProblemAlert error={workspaces.error} />
      ) : workspaces.data.data.length === 0 ? (
        <EmptyState
          title={t('list.empty')}
          text={t('list.emptyText')}
          action={
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
              {t('list.createFirst')}
            </Button>
          }
        />
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {workspaces.data.data.map((ws) => (
              <Card key={ws.id} withBorder padding="md" component="article" aria-labelledby={`ws-${ws.id}`}>
                <Stack gap="xs">
                  <Group justify="space-between" wrap="nowrap" align="flex-start">
                    <Title order={2} size="h4" id={`ws-${ws.id}`}>
                      {ws.name}
                    </Title>
                    {ws.role ? (
                      <Badge variant="light" style={{ flexShrink: 0 }}>
                        {t(`collection:roles.${ws.role}`)}
                      </Badge>
                    ) : null}
                  </Group>
                  {ws.description ? (
                    <Text size="sm" c="dimmed" lineClamp={3}>
                      {ws.description}
                    </Text>
                  ) : null}
                  <Button
                    component={Link}
                    to={`/workspaces/${ws.id}`}
                    variant="light"
                    aria-label={t('list.open', { name: ws.name })}
                    style={{ alignSelf: 'flex-start' }}
                  >
                    {t('list.openShort')}
                  </Button>
                </Stack>
              </Card>
            ))}
          </SimpleGrid>
          <PagePicker lastPage={workspaces.data.pagination.last_page} page={page} onChange={setPage} />
        </>
      )}
      <NameDescriptionModal
        opened={creating}
        title={t('list.createTitle')}
        submitLabel={t('list.createSubmit')}
        pending={create.isPending}
        error={create.error}
        onSave={(body) => create.mutate(body, { onSuccess: (ws) => navigate(`/workspaces/${ws.id}`) })}
        onClose={close}
      />
    </Stack>
  );
}
