import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, collectionApi } from '../../api/client.ts';
import type { components } from '../../api/generated/collection.ts';
import { COLLECTION } from '../collection/use-collection.ts';

/** An app user as listed (never its key). */
export type AppUser = components['schemas']['AppUser'];
/** The create answer: the app user with its key and server address, shown once. */
export type CreatedAppUser = components['schemas']['CreatedAppUser'];

const APP_USERS = [...COLLECTION, 'app-users'] as const;

/** The project's app users, newest first (`GET /api/v1/projects/{id}/app-users`, one page of 100). */
export const useAppUsers = (projectId: number) =>
  useQuery({
    queryKey: [...APP_USERS, projectId],
    queryFn: () =>
      call(
        collectionApi.GET('/api/v1/projects/{project_id}/app-users', {
          params: { path: { project_id: String(projectId) }, query: { page: 1, per_page: 100 } },
        }),
      ),
  });

/** `POST /api/v1/projects/{id}/app-users {display_name}` → the app user with its key, once. */
export function useCreateAppUser(projectId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (displayName: string) =>
      (
        await call(
          collectionApi.POST('/api/v1/projects/{project_id}/app-users', {
            params: { path: { project_id: String(projectId) } },
            body: { display_name: displayName },
          }),
        )
      ).data,
    onSuccess: () => client.invalidateQueries({ queryKey: APP_USERS }),
  });
}

/** `POST /api/v1/projects/{id}/app-users/{app_user_id}/revoke`. */
export function useRevokeAppUser(projectId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (appUserId: number) =>
      (
        await call(
          collectionApi.POST('/api/v1/projects/{project_id}/app-users/{app_user_id}/revoke', {
            params: { path: { project_id: String(projectId), app_user_id: String(appUserId) } },
          }),
        )
      ).data,
    onSuccess: () => client.invalidateQueries({ queryKey: APP_USERS }),
  });
}
