import { useQuery } from '@tanstack/react-query';
import { call, collectionApi } from '../../api/client.ts';
import type { Role } from './types.ts';

/**
 * Query keys of area A. Every mutation of area A invalidates {@link COLLECTION} (or a narrower
 * key below it), so lists, details and counts never show what a change made stale.
 */
export const COLLECTION = ['collection'] as const;
export const keys = {
  workspaces: (page: number) => [...COLLECTION, 'workspaces', page] as const,
  workspace: (id: number) => [...COLLECTION, 'workspace', id] as const,
  projects: (workspaceId: number, page: number) => [...COLLECTION, 'projects', workspaceId, page] as const,
  project: (id: number) => [...COLLECTION, 'project', id] as const,
  stats: (projectId: number) => [...COLLECTION, 'stats', projectId] as const,
  versions: (projectId: number) => [...COLLECTION, 'versions', projectId] as const,
  version: (id: number) => [...COLLECTION, 'version', id] as const,
};

/** A page (1-based, 20 per page) of the workspaces the caller is a member of, each with `role`. */
export const useWorkspaces = (page: number) =>
  useQuery({
    queryKey: keys.workspaces(page),
    queryFn: () =>
      call(collectionApi.GET('/api/v1/workspaces', { params: { query: { page, per_page: 20 } } })),
    placeholderData: (previous) => previous,
  });

/** The query of one workspace: `GET /api/v1/workspaces/{id}`, with the caller's `role` and its `members`. */
const workspaceQuery = (workspaceId: number | undefined) => ({
  queryKey: keys.workspace(workspaceId ?? 0),
  queryFn: async () =>
    (
      await call(
        collectionApi.GET('/api/v1/workspaces/{workspace_id}', {
          params: { path: { workspace_id: String(workspaceId) } },
        }),
      )
    ).data,
  enabled: workspaceId !== undefined,
});

/** `GET /api/v1/workspaces/{id}`: the workspace with the caller's `role` and its `members`. */
export const useWorkspace = (workspaceId: number | undefined) => useQuery(workspaceQuery(workspaceId));

/** `GET /api/v1/projects/{id}`: members see it; so do callers a public or authenticated project admits. */
export const useProject = (projectId: number | undefined) =>
  useQuery({
    queryKey: keys.project(projectId ?? 0),
    queryFn: async () =>
      (
        await call(
          collectionApi.GET('/api/v1/projects/{project_id}', {
            params: { path: { project_id: String(projectId) } },
          }),
        )
      ).data,
    enabled: projectId !== undefined,
  });

/**
 * The caller's role in the workspace of a project, or undefined while loading and for callers
 * who are not members (a public project's collectors): the workspace answers them 404, which is
 * not shown as an error here.
 */
export function useWorkspaceRole(workspaceId: number | undefined): Role | undefined {
  const workspace = useQuery({ ...workspaceQuery(workspaceId), retry: false, meta: { signInOn401: false } });
  return workspace.data?.role;
}

/** Every form version of a project, newest first (`GET /api/v1/projects/{id}/versions`, one page of 100). */
export const useVersions = (projectId: number | undefined) =>
  useQuery({
    queryKey: keys.versions(projectId ?? 0),
    queryFn: () =>
      call(
        collectionApi.GET('/api/v1/projects/{project_id}/versions', {
          params: { path: { project_id: String(projectId) }, query: { per_page: 100 } },
        }),
      ),
    enabled: projectId !== undefined,
  });

/** One form version with its fields in form order (`GET /api/v1/versions/{id}`). */
export const useVersion = (versionId: number | null | undefined) =>
  useQuery({
    queryKey: keys.version(versionId ?? 0),
    queryFn: async () =>
      (
        await call(
          collectionApi.GET('/api/v1/versions/{version_id}', {
            params: { path: { version_id: String(versionId) } },
          }),
        )
      ).data,
    enabled: versionId != null,
  });

/** `GET /api/v1/projects/{id}/stats` (owner, admin, manager, viewer): totals by status, day and collector. */
export const useProjectStats = (projectId: number | undefined, enabled = true) =>
  useQuery({
    queryKey: keys.stats(projectId ?? 0),
    queryFn: async () =>
      (
        await call(
          collectionApi.GET('/api/v1/projects/{project_id}/stats', {
            params: { path: { project_id: String(projectId) } },
          }),
        )
      ).data,
    enabled: projectId !== undefined && enabled,
  });

/** A route's numeric id parameter, or undefined when it is not a positive integer. */
export const idParam = (raw: string | undefined): number | undefined => {
  const n = Number(raw);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
};
