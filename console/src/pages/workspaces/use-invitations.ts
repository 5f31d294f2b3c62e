import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, collectionApi } from '../../api/client.ts';
import type { components } from '../../api/generated/collection.ts';
import { COLLECTION } from '../collection/use-collection.ts';
import type { Role } from '../collection/types.ts';

/** An invitation to a workspace by e-mail (`pending`, `expired` or `accepted`). */
export type Invitation = components['schemas']['Invitation'];

/** Query key of a workspace's open invitations (under {@link COLLECTION}: every area A change refreshes it). */
const invitationsKey = (workspaceId: number) => [...COLLECTION, 'invitations', workspaceId] as const;

/**
 * `GET /api/v1/workspaces/{id}/invitations` (owners and admins): the open invitations, pending
 * and expired, last sent first (the first 100: a workspace waiting on more is not expected).
 */
export const useInvitations = (workspaceId: number, enabled: boolean) =>
  useQuery({
    queryKey: invitationsKey(workspaceId),
    queryFn: async () =>
      (
        await call(
          collectionApi.GET('/api/v1/workspaces/{workspace_id}/invitations', {
            params: { path: { workspace_id: String(workspaceId) }, query: { per_page: 100 } },
          }),
        )
      ).data,
    enabled,
  });

function useCollectionMutation<V, R>(mutationFn: (vars: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => client.invalidateQueries({ queryKey: COLLECTION }) });
}

/**
 * `POST /api/v1/workspaces/{id}/invitations {email, role}`: a member at once when the address
 * has an account (`status: accepted`), else a pending invitation e-mailed to it. 422
 * `already_member`, 403 when the caller may not give the role.
 */
export const useInvite = () =>
  useCollectionMutation(
    async ({ workspaceId, ...body }: { workspaceId: number; email: string; role: Role }) =>
      (
        await call(
          collectionApi.POST('/api/v1/workspaces/{workspace_id}/invitations', {
            params: { path: { workspace_id: String(workspaceId) } },
            body,
          }),
        )
      ).data,
  );

/** `POST .../invitations/{id}/resend`: the e-mail again, valid 14 more days. */
export const useResendInvitation = () =>
  useCollectionMutation(
    async ({ workspaceId, id }: { workspaceId: number; id: number }) =>
      (
        await call(
          collectionApi.POST('/api/v1/workspaces/{workspace_id}/invitations/{invitation_id}/resend', {
            params: { path: { workspace_id: String(workspaceId), invitation_id: String(id) } },
          }),
        )
      ).data,
  );

/** `DELETE .../invitations/{id}`: revoke an open invitation. */
export const useRevokeInvitation = () =>
  useCollectionMutation(({ workspaceId, id }: { workspaceId: number; id: number }) =>
    call(
      collectionApi.DELETE('/api/v1/workspaces/{workspace_id}/invitations/{invitation_id}', {
        params: { path: { workspace_id: String(workspaceId), invitation_id: String(id) } },
      }),
    ),
  );
