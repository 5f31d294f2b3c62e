import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, gatewayApi } from '../../api/client.ts';
import type { components } from '../../api/generated/gateway.ts';

export type Token = components['schemas']['Token'];

const TOKENS = ['tokens'] as const;
const SESSIONS = ['sessions'] as const;
/** Tokens and sessions per page (the API allows up to 100). */
export const PER_PAGE = 20;

/** A page (1-based) of the caller's tokens, newest first: `GET /api/v1/tokens`. */
export const useTokens = (page: number) =>
  useQuery({
    queryKey: [...TOKENS, page],
    queryFn: () =>
      call(gatewayApi.GET('/api/v1/tokens', { params: { query: { page, per_page: PER_PAGE } } })),
    placeholderData: (previous) => previous,
  });

/** `POST /api/v1/tokens {name}` → the created token with its plain `id|secret` (shown once). */
export function useCreateToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => call(gatewayApi.POST('/api/v1/tokens', { body: { name } })),
    onSuccess: () => client.invalidateQueries({ queryKey: TOKENS }),
  });
}

/** `DELETE /api/v1/tokens/{token_id}`: refused from its next request on. */
export function useRevokeToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      call(gatewayApi.DELETE('/api/v1/tokens/{token_id}', { params: { path: { token_id: String(id) } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: TOKENS }),
  });
}

/** The caller's signed-in browser sessions: `GET /api/v1/sessions`. */
export const useSessions = () =>
  useQuery({
    queryKey: SESSIONS,
    queryFn: () => call(gatewayApi.GET('/api/v1/sessions', { params: { query: { per_page: 100 } } })),
  });

/** `DELETE /api/v1/sessions/others`: sign out everywhere else. */
export function useEndOtherSessions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call(gatewayApi.DELETE('/api/v1/sessions/others')),
    onSuccess: () => client.invalidateQueries({ queryKey: SESSIONS }),
  });
}
