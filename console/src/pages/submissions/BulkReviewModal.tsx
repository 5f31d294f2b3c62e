import { useState } from 'react';
import {
  Alert,
  Button,
  Group,
  List,
  Modal,
  NativeSelect,
  Progress,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { COLLECTION } from '../collection/use-collection.ts';
import type { SubmissionStatus } from '../collection/types.ts';
import { bulkReview, type BulkOutcome } from './bulk-review.ts';
import { REVIEW_TARGETS } from './transitions.ts';

/**
 * Sets one status with one comment on the selected submissions. Each is reviewed on its own
 * (a refused transition does not undo the others); a progress bar follows, then the result:
 * how many changed and, for each refused one, the service's reason.
 */
export function BulkReviewModal(props: {
  projectId: number;
  ids: readonly number[] | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation(['submissions', 'collection']);
  const client = useQueryClient();
  const [status, setStatus] = useState<SubmissionStatus>('reviewed');
  const [comment, setComment] = useState('');
  const [progress, setProgress] = useState<[number, number] | null>(null);
  const [outcomes, setOutcomes] = useState<BulkOutcome[] | null>(null);
  const running = progress !== null && outcomes === null;
  const close = () => {
    if (running) return;
    setProgress(null);
    setOutcomes(null);
    setComment('');
    props.onClose();
  };
  const run = async () => {
    const ids = props.ids ?? [];
    setProgress([0, ids.length]);
    const result = await bulkReview(
      props.projectId,
      ids,
      { status, comment: comment.trim() },
      (done, total) => setProgress([done, total]),
    );
    setOutcomes(result);
    props.onDone();
    await client.invalidateQueries({ queryKey: COLLECTION });
  };
  const refused = outcomes?.filter((o): o is Extract<BulkOutcome, { ok: false }> => !o.ok) ?? [];
  return (
    <Modal
      opened={props.ids !== null}
      onClose={close}
      title={t('bulk.title', { count: props.ids?.length ?? 0 })}
      centered
      closeButtonProps={{ 'aria-label': t('bulk.closeDialog') }}
    >
      {outcomes ? (
        <Stack gap="sm" role="status">
          <Alert color={refused.length ? 'orange' : 'green'} variant="light" title={t('bulk.doneTitle')}>
            {t('bulk.changed', { count: outcomes.length - refused.length })}
            {refused.length ? ` ${t('bulk.refused', { count: refused.length })}` : ''}
          </Alert>
          {refused.length ? (
            <List size="sm" aria-label={t('bulk.refusedList')} data-testid="bulk-refused">
              {refused.map((o) => (
                <List.Item key={o.id}>{t('bulk.refusedItem', { id: o.id, reason: o.reason })}</List.Item>
              ))}
            </List>
          ) : null}
          <Button onClick={close} style={{ alignSelf: 'flex-end' }}>
            {t('bulk.close')}
          </Button>
        </Stack>
      ) : (
        <Stack gap="sm">
          <NativeSelect
            label={t('bulk.status')}
            value={status}
            disabled={running}
            data={REVIEW_TARGETS.map((s) => ({ value: s, label: t(`collection:status.${s}`) }))}
            onChange={(e) => setStatus(e.currentTarget.value as SubmissionStatus)}
          />
          <Textarea
            label={t('review.comment')}
            autosize
            minRows={2}
            maxLength={2000}
            disabled={running}
            value={comment}
            onChange={(e) => setComment(e.currentTarget.value)}
          />
          <Text size="sm" c="dimmed">
            {t('bulk.note')}
          </Text>
          {progress ? (
            <Progress
              value={(100 * progress[0]) / Math.max(progress[1], 1)}
              aria-label={t('bulk.progress', { done: progress[0], total: progress[1] })}
            />
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={running}>
              {t('bulk.cancel')}
            </Button>
            <Button onClick={() => void run()} loading={running}>
              {t('bulk.apply', { count: props.ids?.length ?? 0 })}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
