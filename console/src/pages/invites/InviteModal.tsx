import { useEffect } from 'react';
import { Button, Group, Modal, NativeSelect, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { looksLikeEmail } from '../../components/email.ts';
import { fieldErrorsOf } from '../../components/field-errors.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import {
  INVITE_TYPES,
  useCreateInvite,
  useUpdateInvite,
  type Invite,
  type InviteType,
} from './use-invites.ts';

/**
 * Adds an invitee (`invite` null; the invitation e-mail with the QR code goes out) or edits one:
 * name, e-mail, type. The service's 422 (an e-mail already invited: `email_taken`) shows under
 * its field; anything else under the form.
 */
export function InviteModal(props: {
  eventId: string;
  opened: boolean;
  invite: Invite | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('invites');
  const create = useCreateInvite(props.eventId);
  const update = useUpdateInvite(props.eventId);
  const pending = create.isPending || update.isPending;
  const error = create.error ?? update.error;
  const form = useForm({
    initialValues: { nom: '', email: '', type_invite: 'standard' as InviteType, seats: 1 as number | string },
    validate: {
      nom: (v) => (v.trim() ? null : t('errors.required')),
      email: (v) => (looksLikeEmail(v) ? null : t('errors.email')),
    },
  });
  const { setValues, resetDirty } = form;
  const { reset: resetCreate } = create;
  const { reset: resetUpdate } = update;
  useEffect(() => {
    if (!props.opened) return;
    const v = props.invite
      ? {
          nom: props.invite.nom,
          email: props.invite.email,
          type_invite: props.invite.type_invite,
          seats: props.invite.seats as number | string,
        }
      : { nom: '', email: '', type_invite: 'standard' as InviteType, seats: 1 as number | string };
    setValues(v);
    resetDirty(v);
    resetCreate();
    resetUpdate();
  }, [props.opened, props.invite, setValues, resetDirty, resetCreate, resetUpdate]);

  const done = { onSuccess: props.onClose, onError: (err: Error) => form.setErrors(fieldErrorsOf(err)) };
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={props.invite ? t('edit.title', { nom: props.invite.nom }) : t('add.title')}
      centered
      closeButtonProps={{ 'aria-label': t('add.close') }}
    >
      <form
        noValidate
        onSubmit={form.onSubmit((v) => {
          const seats = typeof v.seats === 'number' && v.seats >= 1 ? v.seats : 1;
          const body = { nom: v.nom.trim(), email: v.email.trim(), type_invite: v.type_invite, seats };
          if (props.invite) update.mutate({ inviteId: props.invite.id, patch: body }, done);
          else create.mutate(body, done);
        })}
      >
        <Stack gap="sm">
          <TextInput label={t('fields.nom')} required maxLength={255} {...form.getInputProps('nom')} />
          <TextInput
            label={t('fields.email')}
            type="email"
            required
            maxLength={320}
            {...form.getInputProps('email')}
          />
          <NativeSelect
            label={t('fields.type')}
            data={INVITE_TYPES.map((v) => ({ value: v, label: t(`types.${v}`) }))}
            {...form.getInputProps('type_invite')}
          />
          <NumberInput
            label={t('fields.seats')}
            description={t('fields.seatsHint')}
            min={1}
            max={100}
            allowDecimal={false}
            allowNegative={false}
            {...form.getInputProps('seats')}
            data-testid="invite-seats"
          />
          {props.invite ? null : (
            <Text size="sm" c="dimmed">
              {t('add.emailNote')}
            </Text>
          )}
          <ProblemAlert error={Object.keys(fieldErrorsOf(error)).length ? null : error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              {t('add.cancel')}
            </Button>
            <Button type="submit" loading={pending}>
              {props.invite ? t('edit.submit') : t('add.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
