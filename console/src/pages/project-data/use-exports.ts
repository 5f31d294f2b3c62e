import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, collectionApi } from '../../api/client.ts';
import type { operations } from '../../api/generated/collection.ts';
import { COLLECTION } from '../collection/use-collection.ts';
import type { ExportJob } from '../collection/types.ts';

/** The body of `POST /projects/{id}/submissions/export`: format, list filters, file options. */
export type ExportRequest = operations['requestExport']['requestBody']['content']['application/json'];

const EXPORTS = [...COLLECTION, 'exports'] as const;
/** How often the list is read again while a job is queued or running (ms). */
const EXPORT_POLL_MS = 1_500;

const unfinished = (jobs: ExportJob[] | undefined) =>
  (jobs ?? []).some((j) => j.status === 'queued' || j.status === 'running');

/**
 * A page of the project's exports, newest first (`GET /api/v1/projects/{id}/exports`), read
 * again every {@link EXPORT_POLL_MS} while one of them is queued or running, so status,
 * progress, the download link or the failure reason appear without a reload.
 */
export const useExports = (projectId: number, page: number) =>
  useQuery({
    queryKey: [...EXPORTS, projectId, page],
    queryFn: () =>
      call(
        collectionApi.GET('/api/v1/projects/{project_id}/exports', {
          params: { path: { project_id: String(projectId) }, query: { page, per_page: 10 } },
        }),
      ),
    refetchInterval: (query) => (unfinished(query.state.data?.data) ? EXPORT_POLL_MS : false),
    placeholderData: (previous) => previous,
  });

/** `POST /api/v1/projects/{id}/submissions/export` → 202 with the job id; 422 `errors` keyed `filters.<name>`. */
export function useRequestExport(projectId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: ExportRequest) =>
      (
        await call(
          collectionApi.POST('/api/v1/projects/{project_id}/submissions/export', {
            params: { path: { project_id: String(projectId) } },
            body,
          }),
        )
      ).data,
    onSuccess: () => client.invalidateQueries({ queryKey: EXPORTS }),
  });
}
