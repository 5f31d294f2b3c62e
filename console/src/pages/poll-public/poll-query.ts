import { useQuery } from '@tanstack/react-query';
import { call, pollsApi } from '../../api/client.ts';
import type { Poll } from './types.ts';

/** The query key of one poll as anyone sees it. */
const pollKey = (pollId: string) => ['poll-public', pollId] as const;

/**
 * `GET /api/polls/{poll_id}` (anyone may read a poll): the poll, or an `ApiError` (404 for an
 * unknown poll). A 401 never leads to sign-in here: the public pages explain it in place.
 */
export const publicPollQuery = (pollId: string) => ({
  queryKey: pollKey(pollId),
  queryFn: async (): Promise<Poll> =>
    (await call(pollsApi.GET('/api/polls/{poll_id}', { params: { path: { poll_id: pollId } } }))).data,
  meta: { signInOn401: false },
  // Fetched ahead by app/warm-up.ts: not fetched again on mount (live results have their stream).
  staleTime: 10_000,
});

/** The poll of a public page (see {@link publicPollQuery}). */
export const usePublicPoll = (pollId: string) => useQuery(publicPollQuery(pollId));
