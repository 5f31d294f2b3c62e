import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, pollsApi } from '../../api/client.ts';

const key = (pollId: string) => ['polls', 'invitees', pollId] as const;

/** Invitees per page of the panel (the API allows 1 to 100). */
export const INVITEES_PER_PAGE = 50;

/** A page of a poll's invitees with the counts of each status: `GET /api/polls/{poll_id}/invitees`. */
export const useInvitees = (pollId: string, page: number) =>
  useQuery({
    queryKey: [...key(pollId), page],
    queryFn: () =>
      call(
        pollsApi.GET('/api/polls/{poll_id}/invitees', {
          params: { path: { poll_id: pollId }, query: { page, per_page: INVITEES_PER_PAGE } },
        }),
      ),
    placeholderData: (previous) => previous,
  });

/** Every change to the invitees refreshes the list. */
function useInviteesMutation<V, R>(pollId: string, mutationFn: (vars: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => client.invalidateQueries({ queryKey: key(pollId) }) });
}

/** `POST /api/polls/{poll_id}/invitees` `{emails}`: each new address gets its personal link by e-mail. */
export const useAddInvitees = (pollId: string) =>
  useInviteesMutation(
    pollId,
    async (emails: string[]) =>
      (
        await call(
          pollsApi.POST('/api/polls/{poll_id}/invitees', {
            params: { path: { poll_id: pollId } },
            body: { emails },
          }),
        )
      ).data,
  );

/** `DELETE /api/polls/{poll_id}/invitees/{invitee_id}`: withdraws an unused invitation. */
export const useRemoveInvitee = (pollId: string) =>
  useInviteesMutation(pollId, async (inviteeId: string) =>
    call(
      pollsApi.DELETE('/api/polls/{poll_id}/invitees/{invitee_id}', {
        params: { path: { poll_id: pollId, invitee_id: inviteeId } },
      }),
    ),
  );

/** `POST /api/polls/{poll_id}/invitees/remind`: a new link to each invitee who has not voted. */
export const useRemindInvitees = (pollId: string) =>
  useInviteesMutation(
    pollId,
    async (_: void) =>
      (
        await call(
          pollsApi.POST('/api/polls/{poll_id}/invitees/remind', { params: { path: { poll_id: pollId } } }),
        )
      ).data,
  );

/**
 * The addresses of a pasted list: split on commas, semicolons, spaces and line breaks, `Name
 * <a@b>` taken as `a@b` (words without `@`, such as names, are left out); `bad` are the pieces
 * with an `@` that are not addresses (shown under the field).
 */
export function parseEmails(text: string): { emails: string[]; bad: string[] } {
  const emails: string[] = [];
  const bad: string[] = [];
  for (const raw of text.split(/[\s,;]+/)) {
    const piece = raw.replace(/^<|>$/g, '').trim();
    if (!piece) continue;
    if (/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(piece)) emails.push(piece.toLowerCase());
    else if (piece.includes('@')) bad.push(piece);
  }
  return { emails: [...new Set(emails)], bad };
}
