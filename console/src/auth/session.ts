import { useQuery, useQueryClient } from '@tanstack/react-query';
import { call, gatewayApi } from '../api/client.ts';
import { ApiError } from '../api/problem.ts';
import type { components } from '../api/generated/gateway.ts';
import { ME_KEY } from './me-key.ts';

/** The signed-in user as `GET /api/v1/me` describes it. */
export type Account = components['schemas']['Account'];

export { ME_KEY };

/** `GET /api/v1/me`: the user of this browser session, or null when there is none (401). */
export async function fetchMe(): Promise<Account | null> {
  try {
    return (await call(gatewayApi.GET('/api/v1/me'))).data;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}

/** The signed-in user (`data`: undefined while loading, null when signed out). */
export const useMe = () => useQuery({ queryKey: ME_KEY, queryFn: fetchMe, staleTime: 60_000, retry: false });

/** Forgets everything cached about the previous user and reloads who is signed in. */
export function useSessionChanged() {
  const client = useQueryClient();
  return async () => {
    client.removeQueries({ predicate: (q) => q.queryKey[0] !== ME_KEY[0] });
    await client.invalidateQueries({ queryKey: ME_KEY });
  };
}
