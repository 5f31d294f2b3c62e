import { Alert, Button, Group, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { fieldErrorsOf } from '../../components/field-errors.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { NewPasswordFields } from '../auth/NewPasswordFields.tsx';
import { confirmationRule, MIN_PASSWORD_LENGTH, passwordRule } from '../auth/rules.ts';
import { useChangePassword } from './use-account.ts';

const FIELDS = ['current_password', 'password', 'password_confirmation'];

/**
 * `/settings/password`: the current password, the new one and its confirmation. On success
 * every other browser session is signed out (this one stays) and personal access tokens stay;
 * a wrong current password shows under its field.
 */
export function PasswordPage() {
  const { t } = useTranslation('account');
  const { t: tAuth } = useTranslation('auth');
  const change = useChangePassword();
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { current_password: '', password: '', password_confirmation: '' },
    validate: {
      current_password: passwordRule(tAuth),
      password: passwordRule(tAuth, MIN_PASSWORD_LENGTH),
      password_confirmation: confirmationRule(tAuth),
    },
  });
  const onField = Object.keys(fieldErrorsOf(change.error)).some((f) => FIELDS.includes(f));
  return (
    <Stack gap="lg" maw={640}>
      <Stack gap={4}>
        <Title order={1}>{t('password.title')}</Title>
        <Text c="dimmed">{t('password.intro')}</Text>
      </Stack>
      <form
        noValidate
        onSubmit={form.onSubmit((values) =>
          change.mutate(values, {
            onSuccess: () => form.reset(),
            onError: (err) => form.setErrors(fieldErrorsOf(err)),
          }),
        )}
      >
        <Stack gap="sm">
          <PasswordInput
            label={t('password.current')}
            autoComplete="current-password"
            required
            key={form.key('current_password')}
            {...form.getInputProps('current_password')}
          />
          <NewPasswordFields form={form} label={t('password.new')} />
          <Group>
            <Button type="submit" loading={change.isPending}>
              {t('password.submit')}
            </Button>
          </Group>
          {change.isSuccess ? (
            <Alert color="green" variant="light" role="status" data-testid="password-changed">
              {t('password.changed')}
            </Alert>
          ) : null}
          {change.error && !onField ? <ProblemAlert error={change.error} /> : null}
        </Stack>
      </form>
    </Stack>
  );
}
