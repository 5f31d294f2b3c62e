import { useState } from 'react';
import { Alert, Badge, Button, Grid, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { useFormatInstant } from '../../components/format.ts';
import { PageLoader } from '../../components/PageLoader.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { ProjectHeader } from '../collection/ProjectHeader.tsx';
import { can } from '../collection/roles.ts';
import type { Project } from '../collection/types.ts';
import {
  idParam,
  useProject,
  useVersion,
  useVersions,
  useWorkspaceRole,
} from '../collection/use-collection.ts';
import { FieldModal } from './FieldModal.tsx';
import { FieldsList } from './FieldsList.tsx';
import type { ModelField } from './field-form.ts';
import { childrenOf, subtreeNames } from './field-tree.ts';
import { FormPreview } from './FormPreview.tsx';
import { LanguagesPanel } from './LanguagesPanel.tsx';
import { PublishProjectModal } from './PublishProjectModal.tsx';
import { XlsFormPanel } from './XlsFormPanel.tsx';
import {
  useAddField,
  useCreateVersion,
  useDeleteField,
  usePublishProject,
  usePublishVersion,
  useUpdateField,
  versionLanguages,
  type FieldInput,
} from './use-form-builder.ts';

/**
 * `/projects/{id}/form`: the form builder. Versions (a draft is edited; a published one is
 * read-only, and "new version from the published one" starts a draft with its fields), the
 * fields of the chosen version (add, edit, reorder, remove), a live preview as collectors will
 * see it, and the project's publication with its settings. Roles that may not edit forms see
 * it all read-only, with the reason. A project without a version offers to start the first
 * one; publishing a version (final) asks first, saying what it does.
 */
export function FormBuilderPage() {
  const projectId = idParam(useParams().projectId);
  const project = useProject(projectId);
  if (project.isPending) return <PageLoader />;
  if (project.error) return <ProblemAlert error={project.error} />;
  return <Builder project={project.data} />;
}

function Builder({ project }: { project: Project }) {
  // formLogic: the expression boxes' messages, loaded with the page rather than on first error.
  const { t } = useTranslation(['formBuilder', 'collection', 'formLogic']);
  const when = useFormatInstant();
  const role = useWorkspaceRole(project.workspace_id);
  const mayEdit = can(role, 'form.edit');
  const versions = useVersions(project.id);
  const [params, setParams] = useSearchParams();
  const list = versions.data?.data ?? [];
  const chosenId = idParam(params.get('version') ?? undefined) ?? list[0]?.id;
  const version = useVersion(chosenId);
  const createVersion = useCreateVersion();
  const addField = useAddField();
  const updateField = useUpdateField();
  const deleteField = useDeleteField();
  const publishVersion = usePublishVersion();
  const publishProject = usePublishProject();
  const [editing, setEditing] = useState<ModelField | 'new' | null>(null);
  /** The group or repeat a new field goes in ("add inside"). */
  const [newParent, setNewParent] = useState<string | undefined>(undefined);
  const [removing, setRemoving] = useState<ModelField | null>(null);
  const [publishing, setPublishing] = useState(false);
  const [confirmingPublish, setConfirmingPublish] = useState(false);
  const hasPublished = list.some((v) => v.status === 'published');
  const draft = version.data?.status === 'draft';
  const fields = version.data?.fields ?? [];
  const languages = versionLanguages(version.data);
  const otherLanguages = languages.languages.filter((l) => l !== languages.default_language);
  const add = (parent?: string) => (setNewParent(parent), setEditing('new'));
  const excluded = editing && editing !== 'new' ? subtreeNames(fields, editing.name) : new Set<string>();
  const containers = fields
    .filter((f) => (f.type === 'group' || f.type === 'repeat') && !excluded.has(f.name))
    .map((f) => ({ name: f.name, label: f.label || f.name }));
  const choose = (id: number) => setParams({ version: String(id) }, { replace: true });
  const newVersion = (copy: boolean) =>
    createVersion.mutate({ projectId: project.id, copy }, { onSuccess: (v) => choose(v.id) });
  const closeField = () => {
    setEditing(null);
    addField.reset();
    updateField.reset();
  };
  const fieldMutation = editing === 'new' ? addField : updateField;
  /**
   * Puts a field in `parent` ('' for the top level) at index `to` among its siblings there: they
   * are renumbered 0, 1, 2... in the new order and each whose position (or, for the moved field,
   * parent) changes gets a `PUT` (positions may tie or have gaps; the service orders siblings by
   * position, then id).
   */
  const move = async (versionId: number, field: ModelField, parent: string, to: number) => {
    const order = childrenOf(fields, parent).filter((f) => f.id !== field.id);
    order.splice(to, 0, field);
    try {
      for (const [i, f] of order.entries()) {
        const body: Partial<FieldInput> = {};
        if (f.position !== i) body.position = i;
        if (f.id === field.id && (field.parent ?? '') !== parent) body.parent = parent || null;
        if (Object.keys(body).length) await updateField.mutateAsync({ versionId, fieldId: f.id, body });
      }
    } catch {
      // shown next to the list through updateField.error
    }
  };

  return (
    <Stack gap="md">
      <ProjectHeader
        project={project}
        actions={
          can(role, 'project.manage') ? (
            <Group gap="xs">
              {project.is_published ? (
                <Button
                  variant="default"
                  loading={publishProject.isPending && !publishing}
                  onClick={() => publishProject.mutate({ projectId: project.id, body: null })}
                >
                  {t('publish.unpublish')}
                </Button>
              ) : null}
              <Button onClick={() => setPublishing(true)} disabled={!hasPublished}>
                {project.is_published ? t('publish.settings') : t('publish.open')}
              </Button>
            </Group>
          ) : null
        }
      />
      {!hasPublished && can(role, 'project.manage') ? (
        <Text size="sm" c="dimmed">
          {t('publish.needVersion')}
        </Text>
      ) : null}
      {!publishing ? <ProblemAlert error={publishProject.error} /> : null}
      {!mayEdit && role ? (
        <Alert variant="light" color="gray">
          {t('readOnly', { role: t(`collection:roles.${role}`) })}
        </Alert>
      ) : null}
      {versions.isPending ? (
        <PageLoader />
      ) : versions.error ? (
        <ProblemAlert error={versions.error} />
      ) : (
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Stack gap="md">
              {list.length === 0 ? (
                <EmptyState
                  title={t('versions.none')}
                  text={mayEdit ? t('versions.noneText') : t('versions.noneReadOnly')}
                  action={
                    mayEdit ? (
                      <Button
                        leftSection={<IconPlus size={16} aria-hidden />}
                        onClick={() => newVersion(false)}
                        loading={createVersion.isPending}
                      >
                        {t('versions.start')}
                      </Button>
                    ) : undefined
                  }
                />
              ) : (
                <Group align="flex-end" gap="sm" wrap="wrap">
                  {list.length ? (
                    <NativeSelect
                      label={t('versions.label')}
                      value={chosenId ? String(chosenId) : ''}
                      onChange={(e) => choose(Number(e.currentTarget.value))}
                      data={list.map((v) => ({
                        value: String(v.id),
                        label: t(v.status === 'draft' ? 'versions.draft' : 'versions.published', {
                          number: v.number,
                        }),
                      }))}
                      style={{ flex: '1 1 12rem' }}
                    />
                  ) : (
                    <Text>{t('versions.none')}</Text>
                  )}
                  {mayEdit ? (
                    <>
                      {hasPublished ? (
                        <Button
                          variant="light"
                          onClick={() => newVersion(true)}
                          loading={createVersion.isPending}
                        >
                          {t('versions.copy')}
                        </Button>
                      ) : null}
                      <Button
                        variant="default"
                        onClick={() => newVersion(false)}
                        loading={createVersion.isPending}
                      >
                        {t('versions.new')}
                      </Button>
                    </>
                  ) : null}
                </Group>
              )}
              <ProblemAlert error={createVersion.error} />
              <XlsFormPanel
                projectId={project.id}
                versionId={version.data?.id}
                mayEdit={mayEdit}
                onCreated={(id) => choose(id)}
              />
              {version.data ? (
                <Stack gap="sm" component="section" aria-labelledby="fields-heading">
                  <Group justify="space-between" wrap="wrap">
                    <Group gap="xs">
                      <Title order={2} size="h3" id="fields-heading">
                        {t('fields.title', { number: version.data.number })}
                      </Title>
                      <Badge color={draft ? 'yellow' : 'green'} variant="light">
                        {draft ? t('versions.draftBadge') : t('versions.publishedBadge')}
                      </Badge>
                    </Group>
                    {draft && mayEdit ? (
                      <Group gap="xs">
                        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => add()}>
                          {t('fields.add')}
                        </Button>
                        <Button onClick={() => (publishVersion.reset(), setConfirmingPublish(true))}>
                          {t('versions.publish')}
                        </Button>
                      </Group>
                    ) : null}
                  </Group>
                  {!draft ? (
                    <Text size="sm" c="dimmed">
                      {t('versions.frozen', { when: when(version.data.published_at) })}
                    </Text>
                  ) : null}
                  <ProblemAlert error={updateField.isError && editing === null ? updateField.error : null} />
                  <LanguagesPanel
                    versionId={version.data.id}
                    value={languages}
                    fields={fields}
                    editable={draft && mayEdit}
                  />
                  <FieldsList
                    fields={fields}
                    editable={draft && mayEdit}
                    busy={updateField.isPending}
                    languages={otherLanguages}
                    onEdit={setEditing}
                    onMove={(f, parent, to) => void move(version.data.id, f, parent, to)}
                    onRemove={setRemoving}
                    onAdd={add}
                  />
                </Stack>
              ) : version.error ? (
                <ProblemAlert error={version.error} />
              ) : null}
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <FormPreview fields={fields} languages={languages} />
          </Grid.Col>
        </Grid>
      )}
      <FieldModal
        key={editing === 'new' ? `new-${newParent ?? ''}` : (editing?.id ?? 'none')}
        opened={editing !== null}
        field={editing === 'new' ? null : editing}
        takenNames={fields.filter((f) => editing === 'new' || f.id !== editing?.id).map((f) => f.name)}
        fieldNames={fields.map((f) => f.name)}
        containers={containers}
        parent={newParent}
        otherLanguages={otherLanguages}
        defaultLanguage={languages.default_language}
        pending={fieldMutation.isPending}
        error={fieldMutation.error}
        onSave={(body) => {
          if (!version.data) return;
          if (editing === 'new')
            addField.mutate({ versionId: version.data.id, body }, { onSuccess: closeField });
          else if (editing)
            updateField.mutate(
              { versionId: version.data.id, fieldId: editing.id, body },
              { onSuccess: closeField },
            );
        }}
        onClose={closeField}
      />
      <ConfirmDialog
        opened={removing !== null}
        title={t('fields.removeTitle')}
        message={t('fields.removeConfirm', { label: removing?.label ?? '' })}
        confirmLabel={t('fields.removeButton')}
        cancelLabel={t('field.cancel')}
        closeLabel={t('field.close')}
        pending={deleteField.isPending}
        error={deleteField.error}
        onConfirm={() =>
          removing &&
          version.data &&
          deleteField.mutate(
            { versionId: version.data.id, fieldId: removing.id },
            { onSuccess: () => (setRemoving(null), deleteField.reset()) },
          )
        }
        onClose={() => (setRemoving(null), deleteField.reset())}
      />
      <ConfirmDialog
        opened={confirmingPublish && version.data !== undefined}
        title={t('versions.publishTitle', { number: version.data?.number ?? '' })}
        message={t(hasPublished ? 'versions.publishConfirmNext' : 'versions.publishConfirm')}
        confirmLabel={t('versions.publishButton', { number: version.data?.number ?? '' })}
        confirmColor="blue"
        cancelLabel={t('field.cancel')}
        closeLabel={t('field.close')}
        pending={publishVersion.isPending}
        error={publishVersion.error}
        onConfirm={() =>
          version.data &&
          publishVersion.mutate(version.data.id, { onSuccess: () => setConfirmingPublish(false) })
        }
        onClose={() => (setConfirmingPublish(false), publishVersion.reset())}
      />
      <PublishProjectModal
        project={project}
        opened={publishing}
        pending={publishProject.isPending}
        error={publishProject.error}
        onPublish={(body) =>
          publishProject.mutate({ projectId: project.id, body }, { onSuccess: () => setPublishing(false) })
        }
        onClose={() => (setPublishing(false), publishProject.reset())}
      />
    </Stack>
  );
}
