import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Button, CopyButton, Group, Stack, Text } from '@mantine/core';
import { IconDownload, IconLink } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { PageLoader } from '../../components/PageLoader.tsx';
import { PagePicker } from '../../components/PagePicker.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { ProjectHeader } from '../collection/ProjectHeader.tsx';
import { useMe } from '../../auth/session.ts';
import { can } from '../collection/roles.ts';
import type { Project } from '../collection/types.ts';
import {
  idParam,
  useProject,
  useProjectStats,
  useVersion,
  useWorkspaceRole,
} from '../collection/use-collection.ts';
import { BulkReviewModal } from './BulkReviewModal.tsx';
import { FiltersBar } from './FiltersBar.tsx';
import { filtersOf, readListState, writeListState, type ListState } from './filters.ts';
import { SelectionBar } from './SelectionBar.tsx';
import { SubmissionDrawer } from './SubmissionDrawer.tsx';
import { SubmissionsTable } from './SubmissionsTable.tsx';
import { mayEditSubmission } from './transitions.ts';
import { useSubmissionsPage } from './use-submissions.ts';

/**
 * `/projects/{id}/submissions`: the project's submissions, newest first (the API's only
 * order), over the paginated API with every spec filter and the full-text search. The whole
 * view (filters, page, size, the open submission) lives in the URL, so a link shares it.
 */
export function SubmissionsPage() {
  const projectId = idParam(useParams().projectId);
  const project = useProject(projectId);
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readListState(params), [params]);
  // The list starts with the project, not after it: on a large project it is the slower read.
  const list = useSubmissionsPage(projectId ?? 0, state, projectId !== undefined);
  if (project.isPending) return <PageLoader />;
  if (project.error) return <ProblemAlert error={project.error} />;
  return <ProjectSubmissions project={project.data} state={state} setParams={setParams} list={list} />;
}

function ProjectSubmissions({
  project,
  state,
  setParams,
  list,
}: {
  project: Project;
  state: ListState;
  setParams: ReturnType<typeof useSearchParams>[1];
  list: ReturnType<typeof useSubmissionsPage>;
}) {
  const { t } = useTranslation('submissions');
  const role = useWorkspaceRole(project.workspace_id);
  const version = useVersion(project.current_version_id);
  const stats = useProjectStats(project.id, can(role, 'stats.view'));
  // React Router's functional `setParams` hands over the params of the last render, so two edits
  // before a re-render (both days cleared at once) lost the first: build on the last state written.
  const latest = useRef(state);
  useEffect(() => {
    latest.current = state;
  }, [state]);
  const update = useCallback(
    (patch: Partial<ListState>) => {
      latest.current = { ...latest.current, ...patch };
      setParams(writeListState(latest.current));
    },
    [setParams],
  );
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [reviewing, setReviewing] = useState<readonly number[] | null>(null);
  const fields = version.data?.fields ?? [];
  const mayReview = can(role, 'submission.review');
  const me = useMe().data;
  const names = useMemo(
    () => new Map((stats.data?.by_collector ?? []).map((c) => [c.collector_id, c.name])),
    [stats.data],
  );
  const userName = (id: number | null) =>
    id === null
      ? t('table.anonymous')
      : (names.get(id) ?? (me && me.id === id ? me.name : t('table.user', { id })));
  const [deleted, setDeleted] = useState<number | null>(null);
  const select = (ids: number[], on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      ids.forEach((id) => (on ? next.add(id) : next.delete(id)));
      return next;
    });

  return (
    <Stack gap="md">
      <ProjectHeader
        project={project}
        actions={
          <Group gap="xs">
            <Button
              component={Link}
              to={`/projects/${project.id}/exports?${writeListState({ ...state, page: 1, submission: undefined }).toString()}`}
              variant="default"
              leftSection={<IconDownload size={16} aria-hidden />}
            >
              {t('share.export')}
            </Button>
            <CopyButton value={window.location.href}>
              {({ copied, copy }) => (
                <Button variant="default" leftSection={<IconLink size={16} aria-hidden />} onClick={copy}>
                  {copied ? t('share.copied') : t('share.copy')}
                </Button>
              )}
            </CopyButton>
          </Group>
        }
      />
      {deleted !== null ? (
        <Text role="status" size="sm">
          {t('delete.done', { id: deleted })}
        </Text>
      ) : null}
      <FiltersBar state={state} collectors={stats.data?.by_collector} onChange={update} />
      {mayReview ? (
        <SelectionBar
          projectId={project.id}
          filters={filtersOf(state)}
          pageIds={list.data?.data.map((s) => s.id) ?? []}
          total={list.data?.pagination.total ?? 0}
          selected={selected}
          onSelect={setSelected}
          onReview={() => setReviewing([...selected].sort((a, b) => b - a))}
        />
      ) : null}
      {list.isPending || version.isLoading ? (
        <PageLoader />
      ) : list.error ? (
        <ProblemAlert error={list.error} />
      ) : list.data.data.length === 0 ? (
        <Text>
          {filtersOf(state).status || state.search || state.date_from || state.date_to || state.collector_id
            ? t('table.noMatch')
            : t('table.empty')}
        </Text>
      ) : (
        <Stack gap="sm" aria-busy={list.isPlaceholderData}>
          <Text size="sm" c="dimmed" aria-live="polite">
            {t('table.count', { count: list.data.pagination.total })}
          </Text>
          <SubmissionsTable
            submissions={list.data.data}
            fields={fields}
            collectorName={userName}
            selectable={mayReview}
            selected={selected}
            onSelect={select}
            onOpen={(id) => update({ submission: id })}
          />
          <PagePicker
            lastPage={list.data.pagination.last_page}
            page={state.page}
            onChange={(page) => update({ page })}
          />
        </Stack>
      )}
      <SubmissionDrawer
        projectId={project.id}
        submissionId={state.submission}
        fields={fields}
        userName={userName}
        mayReview={mayReview}
        mayEdit={(s) => mayEditSubmission(s, role, me?.id, project.settings.allow_edits)}
        mayDelete={can(role, 'submission.delete')}
        onClose={() => update({ submission: undefined })}
        onDeleted={setDeleted}
      />
      <BulkReviewModal
        projectId={project.id}
        ids={reviewing}
        onClose={() => setReviewing(null)}
        onDone={() => setSelected(new Set())}
      />
    </Stack>
  );
}
