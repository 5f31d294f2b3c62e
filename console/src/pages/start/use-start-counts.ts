import { useQuery } from '@tanstack/react-query';
import { call, collectionApi, eventsApi, pollsApi } from '../../api/client.ts';

/**
 * What the signed-in user already has, for the start page: how many workspaces (with the first
 * one's id), polls and events (owned or staffed, past and upcoming). One small request each:
 * `GET /api/v1/workspaces?per_page=1`, `GET /api/polls?per_page=1` (their `pagination.total`)
 * and `GET /api/events?when=all` (its length: the list is not paginated). Cached under the
 * lists' own first keys, so a change to a list (they invalidate `['collection']`, `['polls']`,
 * `['events']`) refreshes these too.
 */
export function useStartCounts() {
  const workspaces = useQuery({
    queryKey: ['collection', 'start-count'],
    queryFn: async () => {
      const body = await call(
        collectionApi.GET('/api/v1/workspaces', { params: { query: { per_page: 1 } } }),
      );
      return { total: body.pagination.total, first: body.data[0]?.id };
    },
  });
  const polls = useQuery({
    queryKey: ['polls', 'start-count'],
    queryFn: async () => ({
      total: (await call(pollsApi.GET('/api/polls', { params: { query: { per_page: 1 } } }))).pagination
        .total,
    }),
  });
  const events = useQuery({
    queryKey: ['events', 'start-count'],
    queryFn: async () => ({
      total: (await call(eventsApi.GET('/api/events', { params: { query: { when: 'all' } } }))).length,
    }),
  });
  return { workspaces, polls, events };
}
