import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, collectionApi } from '../../api/client.ts';
import type { components } from '../../api/generated/collection.ts';
import { COLLECTION } from '../collection/use-collection.ts';
import type { DataEntry } from '../collect/answers.ts';

/** One edit of a submission (`GET .../submissions/{id}/versions`): who, when, before → after. */
export type SubmissionVersion = components['schemas']['SubmissionVersion'];

/** Most edits one drawer shows (the API's largest page); older ones are counted, not listed. */
const VERSIONS_SHOWN = 100;

const path = (projectId: number, submissionId: number) => ({
  project_id: String(projectId),
  submission_id: String(submissionId),
});

/**
 * The last {@link VERSIONS_SHOWN} edits of a submission, newest first, with their total
 * (`GET /api/v1/projects/{id}/submissions/{id}/versions`).
 */
export const useSubmissionVersions = (projectId: number, submissionId: number | undefined) =>
  useQuery({
    queryKey: [...COLLECTION, 'submissions', projectId, 'versions', submissionId],
    queryFn: () =>
      call(
        collectionApi.GET('/api/v1/projects/{project_id}/submissions/{submission_id}/versions', {
          params: { path: path(projectId, submissionId!), query: { per_page: VERSIONS_SHOWN } },
        }),
      ),
    enabled: submissionId !== undefined,
  });

/**
 * `PUT /api/v1/projects/{id}/submissions/{id} {data}`: an edit of a submission's answers (kept
 * by the service as a version). 422 names each bad entry (`data.3.value`), 403 when the caller
 * may not edit it. Refreshes the lists, the detail and its versions.
 */
export function useEditSubmission(projectId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, data }: { id: number; data: DataEntry[] }) =>
      call(
        collectionApi.PUT('/api/v1/projects/{project_id}/submissions/{submission_id}', {
          params: { path: path(projectId, id) },
          body: { data },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: COLLECTION }),
  });
}

/**
 * `DELETE /api/v1/projects/{id}/submissions/{id}` (owners, admins, managers): for good, with
 * its history, versions and photos. Refreshes the lists and the counts, not the deleted
 * submission's own detail and versions (they are gone: the drawer closes instead).
 */
export function useDeleteSubmission(projectId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      call(
        collectionApi.DELETE('/api/v1/projects/{project_id}/submissions/{submission_id}', {
          params: { path: path(projectId, id) },
        }),
      ),
    onSuccess: (_done, id) => {
      const own = (key: readonly unknown[]) =>
        key[2] === projectId && (key[3] === 'one' || key[3] === 'versions') && key[4] === id;
      void client.invalidateQueries({ queryKey: COLLECTION, predicate: (q) => !own(q.queryKey) });
    },
  });
}
