import { useState } from 'react';
import { Badge, Box, Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../poll-public/dates.ts';
import type { CommentThread } from '../poll-public/types.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { CommentForm } from './CommentForm.tsx';
import { useModerateComment } from './use-comments.ts';

/** Deeper replies are not indented further: a phone keeps room for the text. */
const MAX_INDENT = 3;

/**
 * The owner's (or the author's) actions on a comment: Hide / Show again (owner: hides it and
 * its replies from everyone else) and Delete, confirmed in place; a refusal shows below them.
 */
function Moderation({
  comment,
  pollId,
  owner,
  name,
}: {
  comment: CommentThread;
  pollId: string;
  owner: boolean;
  name: string;
}) {
  const { t } = useTranslation('results');
  const { hide, remove } = useModerateComment(pollId, comment.id);
  const [confirming, setConfirming] = useState(false);
  return (
    <Stack gap={4}>
      <Group gap="xs">
        {owner ? (
          <Button
            variant="subtle"
            size="compact-sm"
            color="gray"
            loading={hide.isPending}
            onClick={() => hide.mutate(!comment.hidden)}
            aria-label={t(comment.hidden ? 'comments.showLabel' : 'comments.hideLabel', { name })}
          >
            {t(comment.hidden ? 'comments.show' : 'comments.hide')}
          </Button>
        ) : null}
        {confirming ? null : (
          <Button
            variant="subtle"
            size="compact-sm"
            color="red"
            onClick={() => setConfirming(true)}
            aria-label={t('comments.deleteLabel', { name })}
          >
            {t('comments.delete')}
          </Button>
        )}
      </Group>
      {confirming ? (
        <Group gap="xs" role="group" aria-label={t('comments.confirmDelete')}>
          <Text size="sm">{t('comments.confirmDelete')}</Text>
          <Button size="compact-sm" color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
            {t('comments.confirmDeleteYes')}
          </Button>
          <Button size="compact-sm" variant="default" onClick={() => setConfirming(false)}>
            {t('comments.cancel')}
          </Button>
        </Group>
      ) : null}
      <ProblemAlert error={hide.error ?? remove.error} />
    </Stack>
  );
}

/**
 * One comment (author or "anonymous", when, the text as typed — React escapes it, line breaks
 * kept), a Reply button opening a reply form in place, and its replies below, indented. The
 * poll's `owner` sees "Hidden from others" on hidden ones and can hide, show or delete any; an
 * author (`userId`) can delete their own.
 */
export function CommentItem({
  comment,
  pollId,
  depth,
  canReply,
  owner,
  userId,
}: {
  comment: CommentThread;
  pollId: string;
  depth: number;
  canReply: boolean;
  owner: boolean;
  userId: number | undefined;
}) {
  const { t, i18n } = useTranslation('results');
  const [replying, setReplying] = useState(false);
  const name = comment.author_name || t('comments.anonymous');
  const author = userId !== undefined && comment.user_id === userId;
  return (
    <Box
      component="li"
      style={{ listStyle: 'none' }}
      pl={depth > 0 && depth <= MAX_INDENT ? 'sm' : 0}
      ml={depth > 0 && depth <= MAX_INDENT ? 'xs' : 0}
      data-testid="comment"
    >
      <Stack
        gap={4}
        style={
          depth > 0
            ? { borderLeft: '2px solid var(--mantine-color-default-border)', paddingLeft: 10 }
            : undefined
        }
      >
        <Group gap="xs">
          <Text size="sm" fw={600}>
            {comment.author_name || t('comments.anonymous')}
          </Text>
          <Text size="xs" c="dimmed">
            {formatDateTime(comment.created_at, i18n.resolvedLanguage)}
          </Text>
          {comment.hidden ? (
            <Badge color="gray" variant="light" size="sm" data-testid="comment-hidden">
              {t('comments.hidden')}
            </Badge>
          ) : null}
        </Group>
        <Text
          size="sm"
          style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
          data-testid="comment-content"
        >
          {comment.content}
        </Text>
        {owner || author ? <Moderation comment={comment} pollId={pollId} owner={owner} name={name} /> : null}
        {canReply && !replying && !comment.hidden ? (
          <Group>
            <Button
              variant="subtle"
              size="compact-sm"
              onClick={() => setReplying(true)}
              aria-label={t('comments.replyTo', { name })}
            >
              {t('comments.replyButton')}
            </Button>
          </Group>
        ) : null}
        {replying ? (
          <CommentForm
            pollId={pollId}
            parentId={comment.id}
            onDone={() => setReplying(false)}
            onCancel={() => setReplying(false)}
          />
        ) : null}
        {comment.replies.length ? (
          <Stack component="ul" gap="sm" p={0} m={0} mt="xs">
            {comment.replies.map((reply) => (
              <CommentItem
                key={reply.id}
                comment={reply}
                pollId={pollId}
                depth={depth + 1}
                canReply={canReply}
                owner={owner}
                userId={userId}
              />
            ))}
          </Stack>
        ) : null}
      </Stack>
    </Box>
  );
}
