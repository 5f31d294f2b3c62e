import { useState } from 'react';
import { Button, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { PagePicker } from '../../components/PagePicker.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { can } from '../collection/roles.ts';
import type { Project, Workspace } from '../collection/types.ts';
import { useProjectStats } from '../collection/use-collection.ts';
import { NameDescriptionModal } from './NameDescriptionModal.tsx';
import { ProjectCard } from './ProjectCard.tsx';
import { useCreateProject, useDeleteProject, useProjects, useUpdateProject } from './use-workspaces.ts';

/**
 * A workspace's projects (cards, paginated) with create and edit (owner, admin, manager) and
 * delete (owner, admin) after a confirmation that names how many submissions go with it.
 * `?new=project` (from the start page) opens the creation dialog for those who may create.
 */
export function ProjectsSection({ workspace }: { workspace: Workspace }) {
  const { t } = useTranslation('workspaces');
  const [page, setPage] = useState(1);
  const projects = useProjects(workspace.id, page);
  const [params] = useSearchParams();
  const [creating, setCreating] = useState(
    params.get('new') === 'project' && can(workspace.role, 'project.manage'),
  );
  const [editing, setEditing] = useState<Project | null>(null);
  const [deleting, setDeleting] = useState<Project | null>(null);
  const create = useCreateProject();
  const update = useUpdateProject();
  const remove = useDeleteProject();
  const navigate = useNavigate();
  const doomed = useProjectStats(deleting?.id, can(workspace.role, 'stats.view'));
  const mayManage = can(workspace.role, 'project.manage');
  const closeCreate = () => {
    setCreating(false);
    create.reset();
  };
  const closeEdit = () => {
    setEditing(null);
    update.reset();
  };
  const closeDelete = () => {
    setDeleting(null);
    remove.reset();
  };
  return (
    <Stack gap="sm" component="section" aria-labelledby="projects-heading">
      <Group justify="space-between" wrap="wrap">
        <Title order={2} id="projects-heading">
          {t('projects.title')}
        </Title>
        {mayManage ? (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
            {t('projects.create')}
          </Button>
        ) : (
          <Text size="sm" c="dimmed">
            {t('projects.createNotAllowed')}
          </Text>
        )}
      </Group>
      {projects.isPending ? (
        <PageLoader />
      ) : projects.error ? (
        <ProblemAlert error={projects.error} />
      ) : projects.data.data.length === 0 ? (
        <EmptyState
          title={t('projects.empty')}
          text={mayManage ? t('projects.emptyText') : t('projects.emptyReadOnly')}
          action={
            mayManage ? (
              <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
                {t('projects.createFirst')}
              </Button>
            ) : undefined
          }
        />
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {projects.data.data.map((p) => (
              <ProjectCard
                key={p.id}
                project={p}
                role={workspace.role}
                onEdit={setEditing}
                onDelete={setDeleting}
              />
            ))}
          </SimpleGrid>
          <PagePicker lastPage={projects.data.pagination.last_page} page={page} onChange={setPage} />
        </>
      )}
      <NameDescriptionModal
        opened={creating}
        title={t('projects.createTitle')}
        submitLabel={t('projects.createSubmit')}
        pending={create.isPending}
        error={create.error}
        onSave={(body) =>
          create.mutate(
            { workspaceId: workspace.id, body },
            { onSuccess: (project) => navigate(`/projects/${project.id}/form`) },
          )
        }
        onClose={closeCreate}
      />
      <NameDescriptionModal
        opened={editing !== null}
        title={t('projects.editTitle')}
        submitLabel={t('detail.save')}
        initial={editing ? { name: editing.name, description: editing.description ?? '' } : undefined}
        pending={update.isPending}
        error={update.error}
        onSave={(body) => editing && update.mutate({ id: editing.id, body }, { onSuccess: closeEdit })}
        onClose={closeEdit}
      />
      <ConfirmDialog
        opened={deleting !== null}
        title={t('projects.deleteTitle')}
        message={
          doomed.data
            ? t('projects.deleteConfirmCount', { name: deleting?.name ?? '', count: doomed.data.total })
            : t('projects.deleteConfirm', { name: deleting?.name ?? '' })
        }
        confirmLabel={t('projects.deleteButton')}
        cancelLabel={t('form.cancel')}
        closeLabel={t('form.close')}
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: closeDelete })}
        onClose={closeDelete}
      />
    </Stack>
  );
}
