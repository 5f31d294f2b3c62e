import { useEffect, useRef } from 'react';
import { Button, Loader, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { CommentForm } from './CommentForm.tsx';
import { CommentItem } from './CommentItem.tsx';
import { useMe } from '../../auth/session.ts';
import { commentsKey, useComments } from './use-comments.ts';

/**
 * The discussion (`total`: comments and replies, from the results): a form for a new comment (unless the owner turned comments off), then the
 * threads, newest first, with their replies, a page at a time. Live: when the live results
 * bring another `total` or another newest comment (`latest`: someone commented, deleted, or the
 * owner hid or showed one), the threads are read again, so new comments appear without a
 * reload. The poll's `owner` sees hidden comments, marked, and can hide, show or delete any.
 */
export function CommentsSection({
  pollId,
  allowed,
  total,
  latest,
  owner,
}: {
  pollId: string;
  allowed: boolean;
  total: number;
  latest: string | undefined;
  owner: boolean;
}) {
  const { t } = useTranslation('results');
  const comments = useComments(pollId);
  const me = useMe();
  const client = useQueryClient();
  const seen = useRef(`${total}|${latest}`);
  useEffect(() => {
    const now = `${total}|${latest}`;
    if (seen.current === now) return;
    seen.current = now;
    void client.invalidateQueries({ queryKey: commentsKey(pollId) });
  }, [client, pollId, total, latest]);
  return (
    <Stack gap="md" component="section" aria-labelledby="comments-title" id="comments">
      <Title order={2} size="h3" id="comments-title">
        {t('comments.title')}
        {` (${total})`}
      </Title>
      {allowed ? (
        <CommentForm pollId={pollId} parentId={null} />
      ) : (
        <Text size="sm" c="dimmed">
          {t('comments.disabled')}
        </Text>
      )}
      {comments.isPending ? <Loader size="sm" role="status" aria-label={t('comments.loading')} /> : null}
      {comments.error ? <ProblemAlert error={comments.error} /> : null}
      {comments.data && !comments.data.threads.length ? (
        <Text size="sm" c="dimmed">
          {t('comments.none')}
        </Text>
      ) : null}
      {comments.data?.threads.length ? (
        <Stack component="ul" gap="lg" p={0} m={0}>
          {comments.data.threads.map((thread) => (
            <CommentItem
              key={thread.id}
              comment={thread}
              pollId={pollId}
              depth={0}
              canReply={allowed}
              owner={owner}
              userId={me.data?.id}
            />
          ))}
        </Stack>
      ) : null}
      {comments.hasNextPage ? (
        <Button
          variant="default"
          onClick={() => void comments.fetchNextPage()}
          loading={comments.isFetchingNextPage}
        >
          {t('comments.more')}
        </Button>
      ) : null}
    </Stack>
  );
}
