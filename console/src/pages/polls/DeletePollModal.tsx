import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
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
    <Modal
      opened={poll !== null}
      onClose={close}
      title={t('delete.title')}
      centered
      closeButtonProps={{ 'aria-label': t('delete.close') }}
    >
      <Stack gap="sm">
        <Text>{t('delete.confirm', { title: poll?.title ?? '' })}</Text>
        <ProblemAlert error={remove.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('delete.cancel')}
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            onClick={() => poll && remove.mutate(poll.id, { onSuccess: close })}
          >
            {t('delete.confirmButton')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
