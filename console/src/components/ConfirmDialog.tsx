import type { ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { ProblemAlert } from './ProblemAlert.tsx';

/**
 * Asks before an action that cannot be undone (revoke, delete): `message` says what will be lost;
 * the confirm button runs `onConfirm`, and a refusal (`error`) shows inside the dialog, next to
 * it. The close button is named `closeLabel` (a bare × would have no accessible name).
 * `confirmColor` is red unless given (publishing a form version, say, is final but not a loss).
 */
export function ConfirmDialog(props: {
  opened: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  confirmColor?: string;
  cancelLabel: string;
  closeLabel: string;
  pending: boolean;
  error: unknown;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={props.title}
      centered
      closeButtonProps={{ 'aria-label': props.closeLabel }}
    >
      <Stack gap="sm">
        <Text>{props.message}</Text>
        <ProblemAlert error={props.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {props.cancelLabel}
          </Button>
          <Button color={props.confirmColor ?? 'red'} loading={props.pending} onClick={props.onConfirm}>
            {props.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
