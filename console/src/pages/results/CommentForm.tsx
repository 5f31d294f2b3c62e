import { useState, type FormEvent } from 'react';
import { Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { fieldErrorsOf } from '../../components/field-errors.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { usePostComment } from './use-comments.ts';

/** docs/polls.md, "Comments": 1 to 2,000 characters after trimming. */
const MAX_CONTENT = 2000;

interface Props {
  pollId: string;
  /** The comment replied to, or null for a new thread. */
  parentId: string | null;
  /** Called once the comment was added (a reply form closes). */
  onDone?: () => void;
  onCancel?: () => void;
}

/**
 * A new comment or a reply: the text (1 to 2,000 characters once trimmed, as the service
 * checks; plain text, shown as typed) and an optional name. The service's 422 `errors` show
 * under their fields and what was typed stays; 403 `comments_disabled` and 429 show above the
 * button.
 */
export function CommentForm({ pollId, parentId, onDone, onCancel }: Props) {
  const { t } = useTranslation('results');
  const post = usePostComment(pollId);
  const [content, setContent] = useState('');
  const [authorName, setAuthorName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const server = fieldErrorsOf(post.error);
  const length = content.trim().length;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (length < 1) return setError(t('comments.empty'));
    if (length > MAX_CONTENT) return setError(t('comments.tooLong', { max: MAX_CONTENT }));
    setError(undefined);
    post.mutate(
      { content, parentId, authorName },
      {
        onSuccess: () => {
          setContent('');
          onDone?.();
        },
      },
    );
  };

  const label = parentId ? t('comments.reply') : t('comments.new');
  return (
    <form onSubmit={submit} noValidate aria-label={label}>
      <Stack gap="xs">
        <Textarea
          label={label}
          autosize
          minRows={2}
          maxRows={8}
          value={content}
          onChange={(e) => setContent(e.currentTarget.value)}
          error={error ?? server.content}
          description={t('comments.count', { count: length, max: MAX_CONTENT })}
          data-autofocus={parentId ? true : undefined}
        />
        <TextInput
          label={t('comments.name')}
          maxLength={100}
          autoComplete="name"
          value={authorName}
          onChange={(e) => setAuthorName(e.currentTarget.value)}
          error={server.author_name}
        />
        <ProblemAlert error={post.error} />
        <Group gap="xs">
          <Button type="submit" loading={post.isPending}>
            {parentId ? t('comments.sendReply') : t('comments.send')}
          </Button>
          {onCancel ? (
            <Button variant="subtle" onClick={onCancel}>
              {t('comments.cancel')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </form>
  );
}
