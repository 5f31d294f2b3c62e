import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { call, collectionApi } from '../../api/client.ts';
import { COLLECTION } from '../collection/use-collection.ts';
import type { SubmissionStatus } from '../collection/types.ts';
import { filtersOf, type ListFilters, type ListState } from './filters.ts';

const SUBMISSIONS = [...COLLECTION, 'submissions'] as const;

/** `GET /api/v1/projects/{id}/submissions` for one page of a filter (newest first, the API's only order). */
const fetchPage = (projectId: number, filters: ListFilters, page: number, perPage: number) =>
  call(
    collectionApi.GET('/api/v1/projects/{project_id}/submissions', {
      params: { path: { project_id: String(projectId) }, query: { ...filters, page, per_page: perPage } },
    }),
  );

const pageKey = (projectId: number, filters: ListFilters, page: number, perPage: number) =>
  [...SUBMISSIONS, projectId, 'list', filters, page, perPage] as const;

/**
 * The page of submissions the list state names. The previous page stays on screen while the
 * next one loads, and the page after it is fetched ahead, so "next" usually shows at once.
 */
export function useSubmissionsPage(projectId: number, state: ListState, enabled = true) {
  const filters = filtersOf(state);
  const client = useQueryClient();
  const query = useQuery({
    queryKey: pageKey(projectId, filters, state.page, state.per_page),
    queryFn: () => fetchPage(projectId, filters, state.page, state.per_page),
    placeholderData: keepPreviousData,
    enabled,
  });
  const lastPage = query.data?.pagination.last_page ?? 0;
  const filtersKey = JSON.stringify(filters);
  useEffect(() => {
    if (!enabled || state.page >= lastPage) return;
    const next = JSON.parse(filtersKey) as ListFilters;
    void client.prefetchQuery({
      queryKey: pageKey(projectId, next, state.page + 1, state.per_page),
      queryFn: () => fetchPage(projectId, next, state.page + 1, state.per_page),
    });
  }, [client, projectId, filtersKey, state.page, state.per_page, lastPage, enabled]);
  return query;
}

/**
 * The ids of every submission matching `filters` ("select all matching"): the list read 100 at
 * a time. `onProgress` gets the count so far and the total.
 */
export async function allMatchingIds(
  projectId: number,
  filters: ListFilters,
  onProgress?: (done: number, total: number) => void,
): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const answer = await fetchPage(projectId, filters, page, 100);
    ids.push(...answer.data.map((s) => s.id));
    onProgress?.(ids.length, answer.pagination.total);
    if (page >= answer.pagination.last_page) return ids;
  }
}

/** One submission with its `history` (`GET /api/v1/projects/{id}/submissions/{id}`). */
export const useSubmission = (projectId: number, submissionId: number | undefined) =>
  useQuery({
    queryKey: [...SUBMISSIONS, projectId, 'one', submissionId],
    queryFn: async () =>
      (
        await call(
          collectionApi.GET('/api/v1/projects/{project_id}/submissions/{submission_id}', {
            params: { path: { project_id: String(projectId), submission_id: String(submissionId) } },
          }),
        )
      ).data,
    enabled: submissionId !== undefined,
  });

/** A review: the new status and the comment recorded with it in the history. */
export interface Review {
  status: SubmissionStatus;
  comment: string;
}

/**
 * `PUT /api/v1/projects/{id}/submissions/{id} {status, comment}`: 200 with the submission;
 * 422 `illegal_transition` (not a documented transition from its current status), 403 (not the
 * caller's to make).
 */
export const reviewSubmission = (projectId: number, submissionId: number, review: Review) =>
  call(
    collectionApi.PUT('/api/v1/projects/{project_id}/submissions/{submission_id}', {
      params: { path: { project_id: String(projectId), submission_id: String(submissionId) } },
      body: { status: review.status, ...(review.comment ? { comment: review.comment } : {}) },
    }),
  );

/** {@link reviewSubmission} as a mutation that refreshes the lists, the detail and the counts. */
export function useReview(projectId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, review }: { id: number; review: Review }) => reviewSubmission(projectId, id, review),
    onSuccess: () => client.invalidateQueries({ queryKey: COLLECTION }),
  });
}
