import { Anchor, List, NativeSelect, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { PageLoader } from '../../components/PageLoader.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { ProjectHeader } from '../collection/ProjectHeader.tsx';
import { SUBMISSION_STATUSES, type Project, type SubmissionStatus } from '../collection/types.ts';
import { COLLECTION, idParam, useProject, useVersion } from '../collection/use-collection.ts';
import { loadMapPoints, MAX_MAP_SUBMISSIONS } from './map-points.ts';
import { PointsMap } from './PointsMap.tsx';

/**
 * `/projects/{id}/map`: the geopoint answers of the project's submissions (their own location
 * when they have none) on a clustered map; a click on a point opens its submission. The same
 * points are listed below the map as links, the way in for keyboard and screen readers. A review
 * status filter (as on the submissions page) narrows the points; it lives in the query string
 * (`?status=reviewed`), so the view can be shared.
 */
export function MapPage() {
  const projectId = idParam(useParams().projectId);
  const project = useProject(projectId);
  if (project.isPending) return <PageLoader />;
  if (project.error) return <ProblemAlert error={project.error} />;
  return <ProjectMap project={project.data} />;
}

function ProjectMap({ project }: { project: Project }) {
  const { t, i18n } = useTranslation(['projectData', 'projectViews', 'collection']);
  const navigate = useNavigate();
  const version = useVersion(project.current_version_id);
  const geopoints = (version.data?.fields ?? []).filter((f) => f.type === 'geopoint');
  const [search, setSearch] = useSearchParams();
  const asked = search.get('status');
  const status = SUBMISSION_STATUSES.find((s) => s === asked);
  const points = useQuery({
    queryKey: [...COLLECTION, 'map', project.id, geopoints.map((f) => f.uuid), status ?? null],
    queryFn: () => loadMapPoints(project.id, geopoints, status),
    enabled: !version.isLoading,
    placeholderData: (previous) => previous,
  });
  const setStatus = (next: SubmissionStatus | undefined) =>
    setSearch(
      (current) => {
        const params = new URLSearchParams(current);
        if (next) params.set('status', next);
        else params.delete('status');
        return params;
      },
      { replace: true },
    );
  const open = (id: number) =>
    navigate(`/projects/${project.id}/submissions?${status ? `status=${status}&` : ''}submission=${id}`);
  const deg = (n: number) => n.toLocaleString(i18n.resolvedLanguage ?? 'en', { maximumFractionDigits: 5 });
  return (
    <Stack gap="md">
      <ProjectHeader project={project} />
      <NativeSelect
        label={t('projectViews:map.status')}
        value={status ?? ''}
        data={[
          { value: '', label: t('projectViews:map.anyStatus') },
          ...SUBMISSION_STATUSES.map((s) => ({ value: s, label: t(`collection:status.${s}`) })),
        ]}
        onChange={(e) => setStatus((e.currentTarget.value || undefined) as SubmissionStatus | undefined)}
        style={{ maxWidth: '16rem' }}
      />
      {points.isPending ? (
        <PageLoader />
      ) : points.error ? (
        <ProblemAlert error={points.error} />
      ) : (
        <>
          <Text size="sm" aria-live="polite" data-testid="map-summary">
            {t('map.summary', { count: points.data.points.length, read: points.data.read })}
            {points.data.total > points.data.read
              ? ` ${t('map.capped', { max: MAX_MAP_SUBMISSIONS, total: points.data.total })}`
              : ''}
          </Text>
          <PointsMap points={points.data.points} label={t('map.label')} onPointClick={open} />
          {points.data.points.length ? (
            <details>
              <summary>{t('map.list')}</summary>
              <List size="sm" mt="xs" aria-label={t('map.list')}>
                {points.data.points.slice(0, 500).map((p, i) => (
                  <List.Item key={`${p.submissionId}-${i}`}>
                    <Anchor
                      component={Link}
                      to={`/projects/${project.id}/submissions?${status ? `status=${status}&` : ''}submission=${p.submissionId}`}
                    >
                      {t('map.point', {
                        id: p.submissionId,
                        lat: deg(p.latitude),
                        lon: deg(p.longitude),
                        label: p.label ?? t('map.ownLocation'),
                      })}
                    </Anchor>
                  </List.Item>
                ))}
              </List>
            </details>
          ) : null}
        </>
      )}
    </Stack>
  );
}
