import '../../app/full-styles.ts';
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { fieldErrorsOf } from '../../components/field-errors.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { AuthCard } from '../auth/AuthCard.tsx';
import { emailRule } from '../auth/rules.ts';
import { useForgotPassword } from './use-account.ts';

/**
 * `/forgot-password`: asks for a reset link by e-mail. The answer is the same whether or not an
 * account has the address (the gateway tells nothing either), so the page says "if an account
 * has it, a link is on its way".
 */
export function ForgotPasswordPage() {
  const { t } = useTranslation('account');
  const { t: tAuth } = useTranslation('auth');
  const forgot = useForgotPassword();
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { email: '' },
    validate: { email: emailRule(tAuth) },
  });
  const onField = 'email' in fieldErrorsOf(forgot.error);
  return (
    <AuthCard title={t('forgot.title')}>
      {forgot.isSuccess ? (
        <Alert color="green" variant="light" role="status" data-testid="reset-requested">
          {t('forgot.sent', { email: form.getValues().email.trim() })}
        </Alert>
      ) : (
        <form
          noValidate
          onSubmit={form.onSubmit((values) =>
            forgot.mutate(values.email.trim(), { onError: (err) => form.setErrors(fieldErrorsOf(err)) }),
          )}
        >
          <Stack gap="sm">
            <Text size="sm">{t('forgot.intro')}</Text>
            <TextInput
              label={tAuth('fields.email')}
              type="email"
              autoComplete="username"
              required
              autoFocus
              key={form.key('email')}
              {...form.getInputProps('email')}
            />
            <Button type="submit" loading={forgot.isPending} fullWidth>
              {t('forgot.submit')}
            </Button>
            {forgot.error && !onField ? <ProblemAlert error={forgot.error} /> : null}
          </Stack>
        </form>
      )}
      <Text size="sm" ta="center">
        <Anchor component={Link} to="/sign-in">
          {t('backToSignIn')}
        </Anchor>
      </Text>
    </AuthCard>
  );
}
