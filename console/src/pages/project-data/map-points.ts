import { call, collectionApi } from '../../api/client.ts';
import type { DataEntry, Field, Submission, SubmissionStatus } from '../collection/types.ts';

/** A point on the project map: a submission and where it was answered. */
export interface MapPoint {
  submissionId: number;
  latitude: number;
  longitude: number;
  /** The geopoint field's label, or null for the submission's own location. */
  label: string | null;
}

/** The most points the map reads: 50 pages of 100 submissions. */
export const MAX_MAP_SUBMISSIONS = 5_000;

/** The geopoint answers of one submission (or, without any, its own location). */
function pointsOf(s: Submission, geopoints: readonly Field[]): MapPoint[] {
  const points: MapPoint[] = [];
  for (const entry of s.data as DataEntry[]) {
    const field = geopoints.find((f) => f.uuid === entry.field_uuid);
    const v = entry.value;
    if (field && Array.isArray(v) && typeof v[0] === 'number' && typeof v[1] === 'number')
      points.push({ submissionId: s.id, latitude: v[0], longitude: v[1], label: field.label });
  }
  if (!points.length && s.latitude !== null && s.longitude !== null)
    points.push({ submissionId: s.id, latitude: s.latitude, longitude: s.longitude, label: null });
  return points;
}

/**
 * The points of a project's submissions, newest first, read from the submissions list 100 at a
 * time up to {@link MAX_MAP_SUBMISSIONS} (the API has no map endpoint; an analysis of kind
 * `map` would have to be created first), only those of one review `status` when given (the
 * list's own filter). Resolves with the points and how many submissions there are in all.
 */
export async function loadMapPoints(
  projectId: number,
  geopoints: readonly Field[],
  status?: SubmissionStatus,
): Promise<{ points: MapPoint[]; read: number; total: number }> {
  const points: MapPoint[] = [];
  let read = 0;
  for (let page = 1; read < MAX_MAP_SUBMISSIONS; page++) {
    const answer = await call(
      collectionApi.GET('/api/v1/projects/{project_id}/submissions', {
        params: {
          path: { project_id: String(projectId) },
          query: { page, per_page: 100, ...(status ? { status } : {}) },
        },
      }),
    );
    for (const s of answer.data) points.push(...pointsOf(s, geopoints));
    read += answer.data.length;
    if (page >= answer.pagination.last_page) return { points, read, total: answer.pagination.total };
  }
  return { points, read, total: read };
}
