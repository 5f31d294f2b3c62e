import { queryOptions, useQuery } from '@tanstack/react-query';
import { call, collectionApi } from '../../api/client.ts';
import { ApiError } from '../../api/problem.ts';
import { getCachedForm, putCachedForm, type CachedForm } from './offline-store.ts';

/** The form a collector fills: the project and its published version, and where it came from. */
export interface CollectForm extends Omit<CachedForm, 'version'> {
  /** The published version; when the project does not collect, the copy last kept, if any. */
  version: CachedForm['version'] | null;
  /** True when the network failed and this is the copy kept in this browser. */
  offline: boolean;
}

/**
 * The project (`GET /api/v1/projects/{id}`) and its current published version with its fields
 * (`GET /api/v1/projects/{id}/versions/current`), fetched at the same time. Each load is kept in
 * IndexedDB (written in the background: the form shows without waiting for the write); when the
 * network fails (no answer at all), the kept copy is used, so the form opens offline. A refusal
 * (401, 404, a project not published) is shown, not hidden behind an old copy.
 */
export const useCollectForm = (projectId: number | undefined) =>
  useQuery({ ...collectFormQuery(projectId ?? 0), enabled: projectId !== undefined });

/** The query of {@link useCollectForm}, also started ahead of the first render (app/warm-up.ts). */
export const collectFormQuery = (projectId: number) =>
  queryOptions({
    queryKey: ['collect', 'form', projectId],
    retry: false,
    meta: { signInOn401: false },
    queryFn: async (): Promise<CollectForm> => {
      const path = { project_id: String(projectId) };
      try {
        // Asked together (one round trip, not two in a row); used only when the project collects.
        const current = call(
          collectionApi.GET('/api/v1/projects/{project_id}/versions/current', { params: { path } }),
        );
        current.catch(() => undefined); // its refusal matters only when the project collects
        const project = (await call(collectionApi.GET('/api/v1/projects/{project_id}', { params: { path } })))
          .data;
        if (!project.is_published || project.current_version_id === null) {
          // Not collecting: the queue still shows, with the labels of the form last kept here.
          const kept = await getCachedForm(projectId!);
          return {
            project_id: projectId!,
            project,
            version: kept?.version ?? null,
            saved_at: '',
            offline: false,
          };
        }
        const version = (await current).data;
        const form = { project_id: projectId!, project, version, saved_at: new Date().toISOString() };
        putCachedForm(form).catch(() => undefined); // a later visit offline will miss it, nothing else
        return { ...form, offline: false };
      } catch (err) {
        const kept =
          err instanceof ApiError && err.status === 0 ? await getCachedForm(projectId!) : undefined;
        if (kept) return { ...kept, offline: true };
        throw err;
      }
    },
  });
