import { Button, Loader, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { CommentForm } from './CommentForm.tsx';
import { CommentItem } from './CommentItem.tsx';
import { useComments } from './use-comments.ts';

/**
 * The discussion (`total`: comments and replies, from the results): a form for a new comment (unless the owner turned comments off), then the
 * threads, newest first, with their replies, a page at a time.
 */
export function CommentsSection({
  pollId,
  allowed,
  total,
}: {
  pollId: string;
  allowed: boolean;
  total: number;
}) {
  const { t } = useTranslation('results');
  const comments = useComments(pollId);
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
            <CommentItem key={thread.id} comment={thread} pollId={pollId} depth={0} canReply={allowed} />
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
