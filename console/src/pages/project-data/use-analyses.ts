import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, collectionApi } from '../../api/client.ts';
import type { operations } from '../../api/generated/collection.ts';
import { COLLECTION } from '../collection/use-collection.ts';

/** The body of `POST /projects/{id}/analyses`: `{name, description?, filters?, charts: [{title, kind, field?, split_by?, bins?}]}`. */
export type AnalysisRequest = operations['createAnalysis']['requestBody']['content']['application/json'];

const ANALYSES = [...COLLECTION, 'analyses'] as const;

/** A page of the project's analyses, newest first (roles with stats.view). */
export const useAnalyses = (projectId: number, page: number) =>
  useQuery({
    queryKey: [...ANALYSES, projectId, page],
    queryFn: () =>
      call(
        collectionApi.GET('/api/v1/projects/{project_id}/analyses', {
          params: { path: { project_id: String(projectId) }, query: { page, per_page: 10 } },
        }),
      ),
    placeholderData: (previous) => previous,
  });

/** An analysis's charts: rows, Vega-Lite specification and SVG address each (computed at each request). */
export const useCharts = (analysisId: number) =>
  useQuery({
    queryKey: [...ANALYSES, 'charts', analysisId],
    queryFn: async () =>
      (
        await call(
          collectionApi.GET('/api/v1/analyses/{analysis_id}/charts', {
            params: { path: { analysis_id: String(analysisId) } },
          }),
        )
      ).data,
  });

/** Creating (201; 422 `errors` keyed `charts.<i>.<key>`) and deleting (204) analyses refresh the list. */
export function useAnalysisMutations(projectId: number) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: ANALYSES });
  const create = useMutation({
    mutationFn: async (body: AnalysisRequest) =>
      (
        await call(
          collectionApi.POST('/api/v1/projects/{project_id}/analyses', {
            params: { path: { project_id: String(projectId) } },
            body,
          }),
        )
      ).data,
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (analysisId: number) =>
      call(
        collectionApi.DELETE('/api/v1/analyses/{analysis_id}', {
          params: { path: { analysis_id: String(analysisId) } },
        }),
      ),
    onSuccess: refresh,
  });
  return { create, remove };
}
