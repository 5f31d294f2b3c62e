import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { useDeletePoll, type Poll } from './use-polls.ts';

/** Asks before deleting a poll, naming what goes with it (votes, comments, reactions). */
export function DeletePollModal({ poll, onClose }: { poll: Poll | null; onClose: () => void }) {
  const { t } = useTranslation('polls');
  const remove = useDeletePoll();
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      opened={poll !== null}
      title={t('delete.title')}
      message={t('delete.confirm', { title: poll?.title ?? '' })}
      confirmLabel={t('delete.confirmButton')}
      cancelLabel={t('delete.cancel')}
      closeLabel={t('delete.close')}
      pending={remove.isPending}
      error={remove.error}
      onConfirm={() => poll && remove.mutate(poll.id, { onSuccess: close })}
      onClose={close}
    />
  );
}
