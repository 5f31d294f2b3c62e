import { useState } from 'react';
import { Button, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { PagePicker } from '../../components/PagePicker.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { ProjectHeader } from '../collection/ProjectHeader.tsx';
import { can } from '../collection/roles.ts';
import type { Analysis, Project } from '../collection/types.ts';
import { idParam, useProject, useVersion, useWorkspaceRole } from '../collection/use-collection.ts';
import { AnalysisCard } from './AnalysisCard.tsx';
import { CreateAnalysisForm } from './CreateAnalysisForm.tsx';
import { useAnalyses, useAnalysisMutations } from './use-analyses.ts';

/**
 * `/projects/{id}/analyses`: the analyses the collection service offers for the project, each
 * chart drawn with vega-embed from the service's Vega-Lite specification made readable (labels,
 * titles and formats in the reader's language, the color scheme), with its SVG to download and
 * its data as a table; creation and deletion for owners, admins
 * and managers.
 */
export function AnalysesPage() {
  const projectId = idParam(useParams().projectId);
  const project = useProject(projectId);
  if (project.isPending) return <PageLoader />;
  if (project.error) return <ProblemAlert error={project.error} />;
  return <ProjectAnalyses project={project.data} />;
}

function ProjectAnalyses({ project }: { project: Project }) {
  const { t } = useTranslation('projectData');
  const role = useWorkspaceRole(project.workspace_id);
  const version = useVersion(project.current_version_id);
  const [page, setPage] = useState(1);
  const analyses = useAnalyses(project.id, page);
  const { remove } = useAnalysisMutations(project.id);
  const [deleting, setDeleting] = useState<Analysis | null>(null);
  const mayManage = can(role, 'analysis.manage');
  const close = () => (setDeleting(null), remove.reset());
  return (
    <Stack gap="md">
      <ProjectHeader project={project} />
      {mayManage ? <CreateAnalysisForm projectId={project.id} fields={version.data?.fields ?? []} /> : null}
      {analyses.isPending ? (
        <PageLoader />
      ) : analyses.error ? (
        <ProblemAlert error={analyses.error} />
      ) : analyses.data.data.length === 0 ? (
        <EmptyState
          title={t('analyses.none')}
          text={mayManage ? t('analyses.noneText') : t('analyses.noneReadOnly')}
          action={
            mayManage ? (
              <Button
                onClick={() =>
                  document
                    .getElementById('new-analysis')
                    ?.closest('form')
                    ?.querySelector<HTMLInputElement>('input')
                    ?.focus()
                }
              >
                {t('analyses.startNew')}
              </Button>
            ) : undefined
          }
        />
      ) : (
        <>
          {analyses.data.data.map((a) => (
            <AnalysisCard
              key={a.id}
              analysis={a}
              fields={version.data?.fields ?? []}
              mayDelete={mayManage}
              onDelete={setDeleting}
            />
          ))}
          <PagePicker lastPage={analyses.data.pagination.last_page} page={page} onChange={setPage} />
        </>
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('analyses.deleteTitle')}
        message={t('analyses.deleteConfirm', { name: deleting?.name ?? '' })}
        confirmLabel={t('analyses.deleteButton')}
        cancelLabel={t('cancel')}
        closeLabel={t('close')}
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: close })}
        onClose={close}
      />
    </Stack>
  );
}
