import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, collectionApi } from '../../api/client.ts';
import { COLLECTION, keys } from '../collection/use-collection.ts';
import type { Role } from '../collection/types.ts';

/** Projects per page of a workspace's list (the API allows 1 to 100). */
const PROJECTS_PER_PAGE = 20;

/** A workspace's name and description, as created and updated (name 1 to 200 characters). */
export interface NameAndDescription {
  name: string;
  description: string;
}

/** A page (1-based) of a workspace's projects (`GET /api/v1/workspaces/{id}/projects`). */
export const useProjects = (workspaceId: number, page: number) =>
  useQuery({
    queryKey: keys.projects(workspaceId, page),
    queryFn: () =>
      call(
        collectionApi.GET('/api/v1/workspaces/{workspace_id}/projects', {
          params: {
            path: { workspace_id: String(workspaceId) },
            query: { page, per_page: PROJECTS_PER_PAGE },
          },
        }),
      ),
    placeholderData: (previous) => previous,
  });

/** Every change in area A refreshes what the console shows of it. */
function useCollectionMutation<V, R>(mutationFn: (vars: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => client.invalidateQueries({ queryKey: COLLECTION }) });
}

/** `POST /api/v1/workspaces` → 201 with the workspace; the caller becomes its owner. 422 `errors`. */
export const useCreateWorkspace = () =>
  useCollectionMutation(
    async (body: NameAndDescription) => (await call(collectionApi.POST('/api/v1/workspaces', { body }))).data,
  );

/** `PUT /api/v1/workspaces/{id}` (owner, admin): rename or describe. */
export const useUpdateWorkspace = () =>
  useCollectionMutation(
    async ({ id, body }: { id: number; body: NameAndDescription }) =>
      (
        await call(
          collectionApi.PUT('/api/v1/workspaces/{workspace_id}', {
            params: { path: { workspace_id: String(id) } },
            body,
          }),
        )
      ).data,
  );

/** `DELETE /api/v1/workspaces/{id}` (owner): the workspace and everything in it. */
export const useDeleteWorkspace = () =>
  useCollectionMutation((id: number) =>
    call(
      collectionApi.DELETE('/api/v1/workspaces/{workspace_id}', {
        params: { path: { workspace_id: String(id) } },
      }),
    ),
  );

/**
 * `POST /api/v1/workspaces/{id}/members` with `{email, role}` (invite a registered user, 201) or
 * `{user_id, role}` (change a member's role, 200). 422 `unknown_user`, `last_owner`; 403 when the
 * caller's role may not give that role.
 */
export const useSetMember = () =>
  useCollectionMutation(
    ({
      workspaceId,
      ...body
    }: { workspaceId: number; role: Role } & ({ email: string } | { user_id: number })) =>
      call(
        collectionApi.POST('/api/v1/workspaces/{workspace_id}/members', {
          params: { path: { workspace_id: String(workspaceId) } },
          body,
        }),
      ),
  );

/** `DELETE /api/v1/workspaces/{id}/members/{user_id}`: remove a member, or leave (one's own id). */
export const useRemoveMember = () =>
  useCollectionMutation(({ workspaceId, userId }: { workspaceId: number; userId: number }) =>
    call(
      collectionApi.DELETE('/api/v1/workspaces/{workspace_id}/members/{user_id}', {
        params: { path: { workspace_id: String(workspaceId), user_id: String(userId) } },
      }),
    ),
  );

/** `POST /api/v1/workspaces/{id}/projects` (owner, admin, manager) → 201 with the project. */
export const useCreateProject = () =>
  useCollectionMutation(
    async ({ workspaceId, body }: { workspaceId: number; body: NameAndDescription }) =>
      (
        await call(
          collectionApi.POST('/api/v1/workspaces/{workspace_id}/projects', {
            params: { path: { workspace_id: String(workspaceId) } },
            body,
          }),
        )
      ).data,
  );

/** `PUT /api/v1/projects/{id}` (owner, admin, manager): name and description. */
export const useUpdateProject = () =>
  useCollectionMutation(
    async ({ id, body }: { id: number; body: NameAndDescription }) =>
      (
        await call(
          collectionApi.PUT('/api/v1/projects/{project_id}', {
            params: { path: { project_id: String(id) } },
            body,
          }),
        )
      ).data,
  );

/** `DELETE /api/v1/projects/{id}` (owner, admin): the project with its forms, submissions, photos, exports and analyses. */
export const useDeleteProject = () =>
  useCollectionMutation((id: number) =>
    call(
      collectionApi.DELETE('/api/v1/projects/{project_id}', { params: { path: { project_id: String(id) } } }),
    ),
  );
