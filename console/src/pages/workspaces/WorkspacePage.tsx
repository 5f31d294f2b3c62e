import { useState } from 'react';
import { Anchor, Badge, Breadcrumbs, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { UnconfirmedEmailNotice } from '../account/UnconfirmedEmailNotice.tsx';
import { can } from '../collection/roles.ts';
import { idParam, useWorkspace } from '../collection/use-collection.ts';
import { MembersSection } from './MembersSection.tsx';
import { NameDescriptionModal } from './NameDescriptionModal.tsx';
import { ProjectsSection } from './ProjectsSection.tsx';
import { useDeleteWorkspace, useUpdateWorkspace } from './use-workspaces.ts';

/**
 * `/workspaces/{id}`: a workspace with its projects and members. Rename (owner, admin) and
 * delete (owner, after a confirmation naming what goes with it) are offered only to the roles
 * the service allows; the sections below do the same for their own actions. When it cannot be
 * opened (not a member: 404) and the user's address is unconfirmed, the notice says that
 * confirming it applies the invitations waiting for it (an invitee who just registered).
 */
export function WorkspacePage() {
  const { t } = useTranslation(['workspaces', 'collection', 'webhooks']);
  const workspaceId = idParam(useParams().workspaceId);
  const workspace = useWorkspace(workspaceId);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const update = useUpdateWorkspace();
  const remove = useDeleteWorkspace();
  const navigate = useNavigate();

  if (workspaceId === undefined) return <ProblemAlert error={new Error(t('detail.badId'))} />;
  if (workspace.isPending) return <PageLoader />;
  if (workspace.error)
    return (
      <Stack gap="md">
        {/* an invitee who registered from the invitation: a member once the address is confirmed */}
        <UnconfirmedEmailNotice />
        <ProblemAlert error={workspace.error} />
      </Stack>
    );
  const ws = workspace.data;
  const closeEdit = () => {
    setEditing(false);
    update.reset();
  };
  const closeDelete = () => {
    setDeleting(false);
    remove.reset();
  };
  return (
    <Stack gap="lg">
      <Breadcrumbs>
        <Anchor component={Link} to="/workspaces">
          {t('list.title')}
        </Anchor>
        <Text span>{ws.name}</Text>
      </Breadcrumbs>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm" wrap="wrap">
          <Title order={1}>{ws.name}</Title>
          {ws.role ? (
            <Badge variant="light">{t('detail.yourRole', { role: t(`collection:roles.${ws.role}`) })}</Badge>
          ) : null}
        </Group>
        <Group gap="xs">
          {can(ws.role, 'webhooks.manage') ? (
            <Button variant="default" component={Link} to={`/workspaces/${ws.id}/webhooks`}>
              {t('webhooks:title')}
            </Button>
          ) : null}
          {can(ws.role, 'workspace.update') ? (
            <Button variant="default" onClick={() => setEditing(true)}>
              {t('detail.rename')}
            </Button>
          ) : null}
          {can(ws.role, 'workspace.delete') ? (
            <Button color="red" variant="light" onClick={() => setDeleting(true)}>
              {t('detail.delete')}
            </Button>
          ) : null}
        </Group>
      </Group>
      {ws.description ? <Text>{ws.description}</Text> : null}
      <ProjectsSection workspace={ws} />
      <MembersSection workspace={ws} />
      <NameDescriptionModal
        opened={editing}
        title={t('detail.renameTitle')}
        submitLabel={t('detail.save')}
        initial={{ name: ws.name, description: ws.description ?? '' }}
        pending={update.isPending}
        error={update.error}
        onSave={(body) => update.mutate({ id: ws.id, body }, { onSuccess: closeEdit })}
        onClose={closeEdit}
      />
      <ConfirmDialog
        opened={deleting}
        title={t('detail.deleteTitle')}
        message={t('detail.deleteConfirm', { name: ws.name })}
        confirmLabel={t('detail.deleteButton')}
        cancelLabel={t('form.cancel')}
        closeLabel={t('form.close')}
        pending={remove.isPending}
        error={remove.error}
        onConfirm={
          () =>
            remove
              .mutateAsync(ws.id)
              .then(() => navigate('/workspaces'))
              .catch(() => undefined) // shown in the dialog through `remove.error`
        }
        onClose={closeDelete}
      />
    </Stack>
  );
}
