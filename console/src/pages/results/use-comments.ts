import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { call, pollsApi } from '../../api/client.ts';
import type { CommentThread } from '../poll-public/types.ts';
import { voterFingerprint } from '../poll-public/voter.ts';
import { resultsKey } from './use-results.ts';

/** Top-level comments per page. */
const PER_PAGE = 10;

/** The query key of a poll's comment threads. */
export const commentsKey = (pollId: string) => ['poll-comments', pollId] as const;

/**
 * `GET /api/polls/{poll_id}/comments`: top-level comments newest first, each with its whole
 * thread in `replies`, a page at a time ("Load more" asks for the next).
 */
export const useComments = (pollId: string) =>
  useInfiniteQuery({
    queryKey: commentsKey(pollId),
    initialPageParam: 1,
    meta: { signInOn401: false },
    queryFn: async ({ pageParam }) =>
      call(
        pollsApi.GET('/api/polls/{poll_id}/comments', {
          params: { path: { poll_id: pollId }, query: { page: pageParam, per_page: PER_PAGE } },
        }),
      ),
    getNextPageParam: (last) =>
      last.pagination.current_page < last.pagination.last_page ? last.pagination.current_page + 1 : undefined,
    select: (data) => ({
      threads: data.pages.flatMap((p): CommentThread[] => p.data),
      total: data.pages[0]?.pagination.total ?? 0,
    }),
  });

/** What a comment form sends. */
export interface NewComment {
  content: string;
  parentId: string | null;
  authorName: string;
}

/**
 * `POST /api/polls/{poll_id}/comment` `{content, parent_id, author_name?, voter_fingerprint}`;
 * on success the threads and the results (`comments_total`, recent comments) are read again.
 * Refusals throw `ApiError` (422 with `errors.content`..., 403 `comments_disabled`, 429).
 */
export function usePostComment(pollId: string) {
  const client = useQueryClient();
  return useMutation({
    meta: { signInOn401: false },
    mutationFn: async (c: NewComment) => {
      const name = c.authorName.trim();
      return (
        await call(
          pollsApi.POST('/api/polls/{poll_id}/comment', {
            params: { path: { poll_id: pollId } },
            body: {
              content: c.content,
              parent_id: c.parentId,
              voter_fingerprint: voterFingerprint(),
              ...(name ? { author_name: name } : {}),
            },
          }),
        )
      ).data;
    },
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: commentsKey(pollId) }),
        client.invalidateQueries({ queryKey: resultsKey(pollId) }),
      ]);
    },
  });
}

/** Reads the threads and the results again after a change of the comments. */
const refreshComments = async (client: ReturnType<typeof useQueryClient>, pollId: string) => {
  await Promise.all([
    client.invalidateQueries({ queryKey: commentsKey(pollId) }),
    client.invalidateQueries({ queryKey: resultsKey(pollId) }),
  ]);
};

/**
 * The owner's moderation of one comment: `PATCH /api/polls/{poll_id}/comments/{comment_id}`
 * `{hidden}` (hides it and its replies from everyone else, or shows them again) and `DELETE`
 * (the owner, or the comment's author; with its replies). Refusals throw `ApiError`.
 */
export function useModerateComment(pollId: string, commentId: string) {
  const client = useQueryClient();
  const hide = useMutation({
    mutationFn: async (hidden: boolean) =>
      (
        await call(
          pollsApi.PATCH('/api/polls/{poll_id}/comments/{comment_id}', {
            params: { path: { poll_id: pollId, comment_id: commentId } },
            body: { hidden },
          }),
        )
      ).data,
    onSuccess: () => refreshComments(client, pollId),
  });
  const remove = useMutation({
    mutationFn: async () =>
      call(
        pollsApi.DELETE('/api/polls/{poll_id}/comments/{comment_id}', {
          params: { path: { poll_id: pollId, comment_id: commentId } },
        }),
      ),
    onSuccess: () => refreshComments(client, pollId),
  });
  return { hide, remove };
}
