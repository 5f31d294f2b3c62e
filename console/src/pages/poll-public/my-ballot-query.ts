import { useQuery } from '@tanstack/react-query';
import { call, pollsApi } from '../../api/client.ts';
import { voterFingerprint } from './voter.ts';

/**
 * `GET /api/polls/{poll_id}/my-ballot` (docs/polls.md, "My ballot"): this reader's counted votes
 * on the poll and the votes left, recognised as a vote recognises them (the signed-in user, else
 * this browser's fingerprint with the client IP). Not retried: a page that cannot read it shows
 * its ballot as before.
 */
export const useMyBallot = (pollId: string, enabled = true) =>
  useQuery({
    queryKey: ['my-ballot', pollId],
    queryFn: async () =>
      (
        await call(
          pollsApi.GET('/api/polls/{poll_id}/my-ballot', {
            params: { path: { poll_id: pollId }, query: { voter_fingerprint: voterFingerprint() } },
          }),
        )
      ).data,
    meta: { signInOn401: false },
    retry: false,
    enabled,
  });
