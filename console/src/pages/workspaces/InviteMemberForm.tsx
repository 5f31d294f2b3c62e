import { Alert, Button, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { fieldErrorsOf } from '../../components/field-errors.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import type { Role } from '../collection/types.ts';
import { useFormatDay } from './format-day.ts';
import { useInvite, type Invitation } from './use-invitations.ts';

/** What the service accepts as an e-mail (a sketch of it; the service decides). */
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** What the last invitation did (shown under the form until the next one, or until it is revoked). */
export interface InviteNotice {
  invitation: Invitation;
  /** An open invitation renewed (200) rather than a new one. */
  renewed: boolean;
}

/** The fields of the form: a refusal about them shows under the field, not again below. */
const FIELDS = ['email', 'role'];

/**
 * Invites someone to a workspace by e-mail with one of the roles the caller may give
 * (`POST /api/v1/workspaces/{id}/invitations {email, role}`): an address with an account
 * becomes a member at once, any other gets a pending invitation by e-mail. What happened is
 * said under the form (a polite live region). A refusal about the address or role (e.g.
 * `already_member`) shows under that field only, with the address kept; any other refusal
 * below the form. (It used to show twice: under the field and again in an alert below.)
 */
export function InviteMemberForm({
  workspaceId,
  roles,
  notice: done,
  onNotice: setDone,
}: {
  workspaceId: number;
  roles: Role[];
  notice: InviteNotice | null;
  onNotice: (notice: InviteNotice | null) => void;
}) {
  const { t } = useTranslation(['members', 'workspaces', 'collection']);
  const formatDay = useFormatDay();
  const invite = useInvite();
  const form = useForm({
    initialValues: { email: '', role: 'collector' as Role },
    validate: { email: (v) => (EMAIL.test(v.trim()) ? null : t('workspaces:members.emailInvalid')) },
  });
  const fieldErrors = fieldErrorsOf(invite.error);
  const aboutField = Object.keys(fieldErrors).some((f) => FIELDS.includes(f));
  const outcome = (inv: Invitation, renewed: boolean) => {
    const role = t(`collection:roles.${inv.role}`);
    const values = { email: inv.email, role, date: formatDay(inv.expires_at) };
    if (inv.status === 'accepted') return t('added', values);
    return renewed ? t('reinvited', values) : t('invited', values);
  };
  return (
    <Stack gap="xs">
      <form
        noValidate
        aria-label={t('inviteLabel')}
        onSubmit={form.onSubmit(({ email, role }) => {
          setDone(null);
          invite.mutate(
            { workspaceId, email: email.trim(), role },
            {
              onSuccess: (invitation) => {
                // 200: an open invitation renewed; 201: a new one, or a member at once
                const renewed =
                  invitation.status !== 'accepted' && invitation.created_at !== invitation.sent_at;
                setDone({ invitation, renewed });
                form.reset();
              },
              onError: (err) => form.setErrors(fieldErrorsOf(err)),
            },
          );
        })}
      >
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            type="email"
            label={t('email')}
            required
            autoComplete="off"
            style={{ flex: '1 1 16rem' }}
            {...form.getInputProps('email')}
          />
          <NativeSelect
            label={t('workspaces:members.role')}
            data={roles.map((r) => ({ value: r, label: t(`collection:roles.${r}`) }))}
            {...form.getInputProps('role')}
          />
          <Button type="submit" loading={invite.isPending} mt={25}>
            {t('invite')}
          </Button>
        </Group>
        <Text size="xs" c="dimmed" mt={4}>
          {t('inviteHelp')}
        </Text>
      </form>
      <div aria-live="polite">
        {done ? (
          <Alert
            color={done.invitation.status === 'accepted' ? 'green' : 'blue'}
            variant="light"
            withCloseButton
            closeButtonLabel={t('workspaces:form.close')}
            onClose={() => setDone(null)}
          >
            <Text size="sm">{outcome(done.invitation, done.renewed)}</Text>
          </Alert>
        ) : null}
      </div>
      {aboutField ? null : <ProblemAlert error={invite.error} />}
    </Stack>
  );
}
