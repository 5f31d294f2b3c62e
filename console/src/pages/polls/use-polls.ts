import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, pollsApi } from '../../api/client.ts';
import type { components } from '../../api/generated/polls.ts';

export type Poll = components['schemas']['Poll'];
export type PollCreate = components['schemas']['PollCreate'];
export type PollUpdate = components['schemas']['PollUpdate'];

const POLLS = ['polls'] as const;
/** Polls per page of the list (the API allows 1 to 100). */
const PER_PAGE = 12;

/** A page (1-based) of the caller's polls, newest first: `GET /api/polls`. */
export const useMyPolls = (page: number) =>
  useQuery({
    queryKey: [...POLLS, 'mine', page],
    queryFn: () => call(pollsApi.GET('/api/polls', { params: { query: { page, per_page: PER_PAGE } } })),
    placeholderData: (previous) => previous,
  });

/** One poll (`GET /api/polls/{poll_id}`), or nothing while `pollId` is undefined. */
export const usePoll = (pollId: string | undefined) =>
  useQuery({
    queryKey: [...POLLS, 'one', pollId],
    queryFn: async () =>
      (await call(pollsApi.GET('/api/polls/{poll_id}', { params: { path: { poll_id: pollId! } } }))).data,
    enabled: pollId !== undefined,
  });

/** Every change to a poll refreshes the lists and that poll. */
function usePollMutation<V>(mutationFn: (vars: V) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => client.invalidateQueries({ queryKey: POLLS }) });
}

/** `POST /api/polls`: 201 with the poll and its new section and option ids; 422 `errors`. */
export const useCreatePoll = () =>
  usePollMutation(async (body: PollCreate) => (await call(pollsApi.POST('/api/polls', { body }))).data);

/**
 * `PATCH /api/polls/{poll_id}`: `sections` is the complete new list (ids keep sections and
 * options with their votes); 422 when an option with counted votes is left out.
 */
export const useUpdatePoll = () =>
  usePollMutation(
    async ({ pollId, body }: { pollId: string; body: PollUpdate }) =>
      (await call(pollsApi.PATCH('/api/polls/{poll_id}', { params: { path: { poll_id: pollId } }, body })))
        .data,
  );

/** `POST /api/polls/{poll_id}/close` or `/reopen` (owner). */
export const useSetPollOpen = () =>
  usePollMutation(({ pollId, open }: { pollId: string; open: boolean }) =>
    call(
      open
        ? pollsApi.POST('/api/polls/{poll_id}/reopen', { params: { path: { poll_id: pollId } } })
        : pollsApi.POST('/api/polls/{poll_id}/close', { params: { path: { poll_id: pollId } } }),
    ),
  );

/** `DELETE /api/polls/{poll_id}`: the poll, its votes, comments and reactions go. */
export const useDeletePoll = () =>
  usePollMutation((pollId: string) =>
    call(pollsApi.DELETE('/api/polls/{poll_id}', { params: { path: { poll_id: pollId } } })),
  );

/** The public voting page of a poll, on this console's origin. */
export const publicLinkOf = (pollId: string) => `${window.location.origin}/p/${pollId}`;
