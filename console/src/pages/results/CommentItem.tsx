import { useState } from 'react';
import { Box, Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../poll-public/dates.ts';
import type { CommentThread } from '../poll-public/types.ts';
import { CommentForm } from './CommentForm.tsx';

/** Deeper replies are not indented further: a phone keeps room for the text. */
const MAX_INDENT = 3;

/**
 * One comment (author or "anonymous", when, the text as typed — React escapes it, line breaks
 * kept), a Reply button opening a reply form in place, and its replies below, indented.
 */
export function CommentItem({
  comment,
  pollId,
  depth,
  canReply,
}: {
  comment: CommentThread;
  pollId: string;
  depth: number;
  canReply: boolean;
}) {
  const { t, i18n } = useTranslation('results');
  const [replying, setReplying] = useState(false);
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
        </Group>
        <Text
          size="sm"
          style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
          data-testid="comment-content"
        >
          {comment.content}
        </Text>
        {canReply && !replying ? (
          <Group>
            <Button
              variant="subtle"
              size="compact-sm"
              onClick={() => setReplying(true)}
              aria-label={t('comments.replyTo', { name: comment.author_name || t('comments.anonymous') })}
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
              />
            ))}
          </Stack>
        ) : null}
      </Stack>
    </Box>
  );
}
