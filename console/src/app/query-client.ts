import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/problem.ts';

/** Where a 401 sends the user: set by the router once it exists. */
let onUnauthenticated: () => void = () => {};
export const setUnauthenticatedHandler = (handler: () => void) => {
  onUnauthenticated = handler;
};

/**
 * Whether a refused call should send the user to the sign-in page: a 401, unless the query or
 * mutation opted out with `meta: { signInOn401: false }` (the login form itself, public pages
 * that explain the 401 in place).
 */
const sendsToSignIn = (err: unknown, meta: Record<string, unknown> | undefined) =>
  err instanceof ApiError && err.status === 401 && meta?.signInOn401 !== false;

/**
 * The console's query client: server state lives here only. 4xx answers are not retried (the
 * user must change something); others are retried twice. A 401 anywhere leads to sign-in.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (err, query) => sendsToSignIn(err, query.meta) && onUnauthenticated(),
    }),
    mutationCache: new MutationCache({
      onError: (err, _vars, _ctx, mutation) => sendsToSignIn(err, mutation.meta) && onUnauthenticated(),
    }),
    defaultOptions: {
      queries: {
        retry: (count, err) =>
          !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2,
        refetchOnWindowFocus: false,
      },
    },
  });
}
