import { useEffect, useState } from 'react';
import { Alert, Badge, Box, Button, Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertTriangle } from '@tabler/icons-react';
import { QRCodeSVG } from 'qrcode.react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { CopyValue } from '../../components/CopyValue.tsx';
import { useFormatInstant } from '../../components/format.ts';
import { OneFieldForm } from '../../components/OneFieldForm.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { ProjectHeader } from '../collection/ProjectHeader.tsx';
import type { Project } from '../collection/types.ts';
import { idParam, useProject } from '../collection/use-collection.ts';
import { collectQrText, collectSettings } from './collect-settings.ts';
import {
  useAppUsers,
  useCreateAppUser,
  useRevokeAppUser,
  type AppUser,
  type CreatedAppUser,
} from './use-app-users.ts';

/** The service's rule for an app user's name: 1 to 100 characters after trimming. */
const MAX_NAME = 100;

/**
 * `/projects/{id}/app-users`: the project's app users for ODK Collect and Enketo (owners, admins
 * and managers): create one (its QR code for ODK Collect and its server address, shown once),
 * list them, revoke one (its phones can no longer fetch the form or send).
 */
export function AppUsersPage() {
  const projectId = idParam(useParams().projectId);
  const project = useProject(projectId);
  if (project.isPending) return <PageLoader />;
  if (project.error) return <ProblemAlert error={project.error} />;
  return <ProjectAppUsers project={project.data} />;
}

function ProjectAppUsers({ project }: { project: Project }) {
  const { t } = useTranslation('appUsers');
  const users = useAppUsers(project.id);
  const create = useCreateAppUser(project.id);
  return (
    <Stack gap="md">
      <ProjectHeader project={project} />
      <Paper withBorder p="md" component="section" aria-labelledby="app-users-new">
        <Stack gap="sm">
          <Title order={2} size="h3" id="app-users-new">
            {t('create.title')}
          </Title>
          <Text size="sm">{t('intro')}</Text>
          {project.is_published ? null : (
            <Text size="sm" c="dimmed">
              {t('notCollecting')}
            </Text>
          )}
          <OneFieldForm
            field="display_name"
            label={t('create.name')}
            description={t('create.nameHint')}
            maxLength={MAX_NAME}
            submitLabel={t('create.submit')}
            validate={(v) =>
              !v.trim()
                ? t('errors.nameRequired')
                : v.trim().length > MAX_NAME
                  ? t('errors.nameLong', { max: MAX_NAME })
                  : null
            }
            mutate={create.mutate}
            pending={create.isPending}
            error={create.error}
          />
          {create.data ? (
            <CreatedNotice created={create.data} project={project} onDone={() => create.reset()} />
          ) : null}
        </Stack>
      </Paper>
      <Paper withBorder p="md" component="section" aria-labelledby="app-users-list">
        <Stack gap="sm">
          <Title order={2} size="h3" id="app-users-list">
            {t('list.title')}
          </Title>
          {users.isPending ? (
            <PageLoader />
          ) : users.error ? (
            <ProblemAlert error={users.error} />
          ) : users.data.data.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('list.empty')}
            </Text>
          ) : (
            <AppUsersTable projectId={project.id} users={users.data.data} />
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}

/** The new app user's QR code and server address, shown this once. */
function CreatedNotice(props: { created: CreatedAppUser; project: Project; onDone: () => void }) {
  const { t } = useTranslation('appUsers');
  const { created, project } = props;
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void collectQrText(collectSettings(created.server_url, project.name)).then((text) => live && setQr(text));
    return () => {
      live = false;
    };
  }, [created.server_url, project.name]);
  return (
    <Alert
      color="green"
      variant="light"
      icon={<IconAlertTriangle aria-hidden />}
      title={t('created.title', { name: created.display_name })}
      role="status"
    >
      <Stack gap="sm">
        <Text size="sm" fw={600}>
          {t('created.once')}
        </Text>
        <Text size="sm">{t('created.scan')}</Text>
        {qr ? (
          <QRCodeSVG
            value={qr}
            size={240}
            marginSize={4}
            level="L"
            title={t('created.qrTitle', { name: created.display_name })}
            data-testid="collect-qr"
            data-settings={qr}
            style={{ background: 'white', alignSelf: 'flex-start', maxWidth: '100%', height: 'auto' }}
          />
        ) : null}
        <Text size="sm">{t('created.address')}</Text>
        <CopyValue
          value={created.server_url}
          copyLabel={t('created.copy')}
          copiedLabel={t('created.copied')}
          testId="server-url"
        />
        <Button size="xs" variant="subtle" onClick={props.onDone} style={{ alignSelf: 'flex-start' }}>
          {t('created.done')}
        </Button>
      </Stack>
    </Alert>
  );
}

function AppUsersTable({ projectId, users }: { projectId: number; users: AppUser[] }) {
  const { t } = useTranslation('appUsers');
  const when = useFormatInstant();
  const revoke = useRevokeAppUser(projectId);
  const [asked, setAsked] = useState<AppUser | null>(null);
  // Mantine's `sm` (48 em): the status has a column of its own; below, it goes under the name
  // (a column squeezed by the name and the action cut its badge to "ACT…"), rendered once.
  const wide = useMediaQuery('(min-width: 48em)', true) ?? true;
  const status = (u: AppUser) => (
    <Badge color={u.revoked_at ? 'gray' : 'green'} variant="light">
      {u.revoked_at ? t('list.revoked') : t('list.active')}
    </Badge>
  );
  return (
    <>
      <Table.ScrollContainer minWidth={0}>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('list.name')}</Table.Th>
              {wide ? <Table.Th>{t('list.status')}</Table.Th> : null}
              <Table.Th>
                <VisuallyHidden>{t('list.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {users.map((u) => (
              <Table.Tr key={u.id}>
                <Table.Td>
                  {u.display_name}
                  <Text size="xs" c="dimmed">
                    {t('list.createdAt', { when: when(u.created_at) })}
                  </Text>
                  {wide ? null : <Box mt={4}>{status(u)}</Box>}
                </Table.Td>
                {wide ? <Table.Td>{status(u)}</Table.Td> : null}
                <Table.Td>
                  {u.revoked_at ? null : (
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      aria-label={t('revoke.button', { name: u.display_name })}
                      onClick={() => {
                        revoke.reset();
                        setAsked(u);
                      }}
                    >
                      {t('revoke.short')}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ConfirmDialog
        opened={asked !== null}
        title={t('revoke.title', { name: asked?.display_name ?? '' })}
        message={t('revoke.message')}
        confirmLabel={t('revoke.confirm')}
        cancelLabel={t('revoke.cancel')}
        closeLabel={t('revoke.close')}
        pending={revoke.isPending}
        error={revoke.error}
        onConfirm={() => asked && revoke.mutate(asked.id, { onSuccess: () => setAsked(null) })}
        onClose={() => setAsked(null)}
      />
    </>
  );
}
