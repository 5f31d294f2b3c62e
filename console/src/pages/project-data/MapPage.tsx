import { Anchor, List, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { PageLoader } from '../../components/PageLoader.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { ProjectHeader } from '../collection/ProjectHeader.tsx';
import type { Project } from '../collection/types.ts';
import { COLLECTION, idParam, useProject, useVersion } from '../collection/use-collection.ts';
import { loadMapPoints, MAX_MAP_SUBMISSIONS } from './map-points.ts';
import { PointsMap } from './PointsMap.tsx';

/**
 * `/projects/{id}/map`: the geopoint answers of the project's submissions (their own location
 * when they have none) on a clustered map; a click on a point opens its submission. The same
 * points are listed below the map as links, the way in for keyboard and screen readers.
 */
export function MapPage() {
  const projectId = idParam(useParams().projectId);
  const project = useProject(projectId);
  if (project.isPending) return <PageLoader />;
  if (project.error) return <ProblemAlert error={project.error} />;
  return <ProjectMap project={project.data} />;
}

function ProjectMap({ project }: { project: Project }) {
  const { t, i18n } = useTranslation('projectData');
  const navigate = useNavigate();
  const version = useVersion(project.current_version_id);
  const geopoints = (version.data?.fields ?? []).filter((f) => f.type === 'geopoint');
  const points = useQuery({
    queryKey: [...COLLECTION, 'map', project.id, geopoints.map((f) => f.uuid)],
    queryFn: () => loadMapPoints(project.id, geopoints),
    enabled: !version.isLoading,
  });
  const open = (id: number) => navigate(`/projects/${project.id}/submissions?submission=${id}`);
  const deg = (n: number) => n.toLocaleString(i18n.resolvedLanguage ?? 'en', { maximumFractionDigits: 5 });
  return (
    <Stack gap="md">
      <ProjectHeader project={project} />
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
                      to={`/projects/${project.id}/submissions?submission=${p.submissionId}`}
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
