import { useState } from 'react';
import { Button, Radio, Stack, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import type { Submission, SubmissionStatus } from '../collection/types.ts';
import { REVIEW_TRANSITIONS } from './transitions.ts';
import { useReview } from './use-submissions.ts';

/** Comments are kept with the status change; the service takes up to 2,000 characters. */
const MAX_COMMENT = 2000;

/**
 * Reviews one submission: the documented transitions from its current status (only those) as
 * radio buttons, an optional comment, and the service's refusal shown under the button.
 * Renders a line saying why when the status offers no transition.
 */
export function ReviewForm({ submission }: { submission: Submission }) {
  const { t } = useTranslation(['submissions', 'collection']);
  const review = useReview(submission.project_id);
  const targets = REVIEW_TRANSITIONS[submission.status];
  const [status, setStatus] = useState<SubmissionStatus | ''>('');
  const [comment, setComment] = useState('');
  if (targets.length === 0)
    return <p>{t('review.none', { status: t(`collection:status.${submission.status}`) })}</p>;
  return (
    <form
      noValidate
      aria-label={t('review.label')}
      onSubmit={(e) => {
        e.preventDefault();
        if (!status) return;
        review.mutate(
          { id: submission.id, review: { status, comment: comment.trim() } },
          { onSuccess: () => (setStatus(''), setComment('')) },
        );
      }}
    >
      <Stack gap="sm">
        <Radio.Group
          label={t('review.status')}
          value={status}
          onChange={(v) => setStatus(v as SubmissionStatus)}
        >
          <Stack gap={6} mt={6}>
            {targets.map((s) => (
              <Radio key={s} value={s} label={t(`collection:status.${s}`)} />
            ))}
          </Stack>
        </Radio.Group>
        <Textarea
          label={t('review.comment')}
          autosize
          minRows={2}
          maxLength={MAX_COMMENT}
          value={comment}
          onChange={(e) => setComment(e.currentTarget.value)}
        />
        <Button
          type="submit"
          disabled={!status}
          loading={review.isPending}
          style={{ alignSelf: 'flex-start' }}
        >
          {t('review.submit')}
        </Button>
        <ProblemAlert error={review.error} />
      </Stack>
    </form>
  );
}
