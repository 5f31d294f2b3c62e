import { useMemo, useState } from 'react';
import {
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Paper,
  Progress,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { useFormatInstant } from '../../components/format.ts';
import { PageLoader } from '../../components/PageLoader.tsx';
import { PagePicker } from '../../components/PagePicker.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { ProjectHeader } from '../collection/ProjectHeader.tsx';
import type { ExportJob, Project } from '../collection/types.ts';
import { idParam, useProject } from '../collection/use-collection.ts';
import { filtersOf, readListState, writeListState } from '../submissions/filters.ts';
import { useExports, useRequestExport, type ExportRequest } from './use-exports.ts';

const FORMATS = ['csv', 'xlsx', 'geojson', 'zip'] as const;
const STATUS_COLORS: Record<ExportJob['status'], string> = {
  queued: 'gray',
  running: 'blue',
  completed: 'green',
  failed: 'red',
};

/**
 * `/projects/{id}/exports`: request an export (CSV, XLSX, GeoJSON, or a ZIP of all data and media:
 * the CSV and each photo under `media/`) of the submissions with
 * the filters of the submissions page (the same query string: "Export this view" links here),
 * and the project's exports with their live status, progress, download link or failure reason.
 */
export function ExportsPage() {
  const projectId = idParam(useParams().projectId);
  const project = useProject(projectId);
  if (project.isPending) return <PageLoader />;
  if (project.error) return <ProblemAlert error={project.error} />;
  return <ProjectExports project={project.data} />;
}

function ProjectExports({ project }: { project: Project }) {
  const { t } = useTranslation(['projectData', 'collection']);
  const when = useFormatInstant();
  const [params] = useSearchParams();
  const filters = useMemo(() => filtersOf(readListState(params)), [params]);
  const [format, setFormat] = useState<ExportRequest['format']>('csv');
  const [labels, setLabels] = useState(false);
  const [choiceColumns, setChoiceColumns] = useState(false);
  const [page, setPage] = useState(1);
  const exports = useExports(project.id, page);
  const request = useRequestExport(project.id);
  const filterText = (f: Record<string, unknown>) =>
    Object.entries(f)
      .map(
        ([k, v]) =>
          `${t(`exports.filter.${k}`)}: ${k === 'status' ? t(`collection:status.${String(v)}`) : String(v)}`,
      )
      .join(', ') || t('exports.allSubmissions');
  return (
    <Stack gap="md">
      <ProjectHeader project={project} />
      <Paper withBorder p="md" component="section" aria-labelledby="new-export">
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            request.mutate({
              format,
              filters,
              options: { header: labels ? 'labels' : 'names', choice_columns: choiceColumns },
            });
          }}
        >
          <Stack gap="sm">
            <Title order={2} size="h4" id="new-export">
              {t('exports.new')}
            </Title>
            <Text size="sm">
              {t('exports.of', { filters: filterText(filters) })}{' '}
              <Anchor
                component={Link}
                to={`/projects/${project.id}/submissions?${writeListState(readListState(params)).toString()}`}
                underline="always"
              >
                {t('exports.changeFilters')}
              </Anchor>
            </Text>
            {/* The format on its own line: its hint says what the file holds (photo links, or the media). */}
            <NativeSelect
              label={t('exports.format')}
              value={format}
              data={FORMATS.map((f) => ({ value: f, label: t(`exports.formats.${f}`) }))}
              onChange={(e) => setFormat(e.currentTarget.value as ExportRequest['format'])}
              description={t(format === 'zip' ? 'exports.formatHint.zip' : 'exports.formatHint.links')}
              maw={480}
            />
            <Group gap="md" align="center" wrap="wrap">
              <Checkbox
                label={t('exports.labels')}
                checked={labels}
                onChange={(e) => setLabels(e.currentTarget.checked)}
              />
              <Checkbox
                label={t('exports.choiceColumns')}
                checked={choiceColumns}
                onChange={(e) => setChoiceColumns(e.currentTarget.checked)}
              />
              <Button type="submit" loading={request.isPending}>
                {t('exports.request')}
              </Button>
            </Group>
            <ProblemAlert error={request.error} />
          </Stack>
        </form>
      </Paper>
      <Title order={2} size="h4">
        {t('exports.list')}
      </Title>
      {exports.isPending ? (
        <PageLoader />
      ) : exports.error ? (
        <ProblemAlert error={exports.error} />
      ) : exports.data.data.length === 0 ? (
        <Text c="dimmed">{t('exports.none')}</Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={0} type="native">
            <Table aria-label={t('exports.list')} verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('exports.requested')}</Table.Th>
                  <Table.Th scope="col">{t('exports.state')}</Table.Th>
                  <Table.Th scope="col">{t('exports.file')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {exports.data.data.map((job) => (
                  <Table.Tr key={job.id} data-export={job.id} data-status={job.status}>
                    {/* Three columns, so the download link stays in view on a phone. */}
                    <Table.Td>
                      <Text size="sm" fw={600}>
                        {t(`exports.formats.${job.format}`)}
                      </Text>
                      <Text size="sm">{when(job.created_at)}</Text>
                      <Text size="xs" c="dimmed">
                        {filterText(job.filters)}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge
                        color={STATUS_COLORS[job.status]}
                        variant="light"
                        style={{ minWidth: 'max-content' }}
                      >
                        {t(`exports.status.${job.status}`)}
                      </Badge>
                      {job.status === 'running' || job.status === 'queued' ? (
                        <Progress
                          mt={6}
                          value={job.progress * 100}
                          aria-label={t('exports.progress', {
                            rows: job.rows_written,
                            total: job.total_rows ?? '?',
                          })}
                        />
                      ) : null}
                      {job.total_rows !== null ? (
                        <Text size="xs" c="dimmed">
                          {t('exports.rows', { rows: job.rows_written, total: job.total_rows })}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      {job.download_url ? (
                        <Anchor href={job.download_url} download>
                          {job.format === 'zip'
                            ? t('exports.downloadZip')
                            : t('exports.download', { format: t(`exports.formats.${job.format}`) })}
                        </Anchor>
                      ) : job.status === 'failed' ? (
                        <Text size="sm" c="red.8">
                          {job.error ?? t('exports.failed')}
                        </Text>
                      ) : job.expired ? (
                        <Text size="sm" c="dimmed">
                          {t('exports.expired')}
                        </Text>
                      ) : (
                        <Text size="sm" c="dimmed">
                          {t('exports.notYet')}
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <PagePicker lastPage={exports.data.pagination.last_page} page={page} onChange={setPage} />
        </>
      )}
    </Stack>
  );
}
