import { Button, Group, NativeSelect, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { fieldErrorsOf } from '../../components/field-errors.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import type { Role } from '../collection/types.ts';
import { useSetMember } from './use-workspaces.ts';

/** What the service accepts as an e-mail (a sketch of it; the service decides). */
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * Adds a registered user to a workspace by e-mail with one of the roles the caller may give
 * (`POST /api/v1/workspaces/{id}/members {email, role}`). An e-mail nobody registered with is
 * refused by the service (422 `unknown_user`), shown under the form with the address kept.
 */
export function InviteMemberForm({ workspaceId, roles }: { workspaceId: number; roles: Role[] }) {
  const { t } = useTranslation(['workspaces', 'collection']);
  const add = useSetMember();
  const form = useForm({
    initialValues: { email: '', role: 'collector' as Role },
    validate: { email: (v) => (EMAIL.test(v.trim()) ? null : t('members.emailInvalid')) },
  });
  return (
    <Stack gap="xs">
      <form
        noValidate
        aria-label={t('members.addLabel')}
        onSubmit={form.onSubmit(({ email, role }) =>
          add.mutate(
            { workspaceId, email: email.trim(), role },
            { onSuccess: () => form.reset(), onError: (err) => form.setErrors(fieldErrorsOf(err)) },
          ),
        )}
      >
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            type="email"
            label={t('members.email')}
            required
            autoComplete="off"
            style={{ flex: '1 1 16rem' }}
            {...form.getInputProps('email')}
          />
          <NativeSelect
            label={t('members.role')}
            data={roles.map((r) => ({ value: r, label: t(`collection:roles.${r}`) }))}
            {...form.getInputProps('role')}
          />
          <Button type="submit" loading={add.isPending} mt={25}>
            {t('members.add')}
          </Button>
        </Group>
      </form>
      <ProblemAlert error={add.error} />
    </Stack>
  );
}
