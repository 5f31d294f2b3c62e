import { useQuery } from '@tanstack/react-query';
import { call, pollsApi } from '../../api/client.ts';
import type { Results } from '../poll-public/types.ts';
import { voterFingerprint } from '../poll-public/voter.ts';

/** The query key of a poll's results as this reader sees them. */
export const resultsKey = (pollId: string) => ['poll-results', pollId] as const;

/**
 * `GET /api/polls/{poll_id}/results?voter_fingerprint=`: the results as this reader may see
 * them (the fingerprint shows an anonymous reader their own vote when statistics are hidden).
 * The live stream then replaces the cached value with each `results` event.
 */
export const useResults = (pollId: string) =>
  useQuery({
    queryKey: resultsKey(pollId),
    queryFn: async (): Promise<Results> =>
      (
        await call(
          pollsApi.GET('/api/polls/{poll_id}/results', {
            params: { path: { poll_id: pollId }, query: { voter_fingerprint: voterFingerprint() } },
          }),
        )
      ).data,
    meta: { signInOn401: false },
  });
