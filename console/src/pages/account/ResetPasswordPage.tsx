import '../../app/full-styles.ts';
import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { fieldErrorsOf } from '../../components/field-errors.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { AuthCard } from '../auth/AuthCard.tsx';
import { NewPasswordFields } from '../auth/NewPasswordFields.tsx';
import { confirmationRule, MIN_PASSWORD_LENGTH, passwordRule } from '../auth/rules.ts';
import { linkTokenOf, useResetPassword } from './use-account.ts';

const FIELDS = ['password', 'password_confirmation'];

/**
 * `/reset-password#token=<secret>`, the page of the e-mailed link: a new password and its
 * confirmation. Done: every session of the account was signed out, and the page leads to
 * sign-in. A used, expired or unknown link says so and leads to a new request.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation('account');
  const { t: tAuth } = useTranslation('auth');
  const location = useLocation();
  const token = linkTokenOf(location.hash);
  const reset = useResetPassword();
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { password: '', password_confirmation: '' },
    validate: {
      password: passwordRule(tAuth, MIN_PASSWORD_LENGTH),
      password_confirmation: confirmationRule(tAuth),
    },
  });
  const onField = Object.keys(fieldErrorsOf(reset.error)).some((f) => FIELDS.includes(f));
  if (reset.isSuccess)
    return (
      <AuthCard title={t('reset.title')}>
        <Alert color="green" variant="light" role="status" data-testid="password-reset">
          {t('reset.done')}
        </Alert>
        <Button component={Link} to="/sign-in" fullWidth>
          {t('reset.signIn')}
        </Button>
      </AuthCard>
    );
  return (
    <AuthCard title={t('reset.title')}>
      {token ? (
        <form
          noValidate
          onSubmit={form.onSubmit((values) =>
            reset.mutate({ token, ...values }, { onError: (err) => form.setErrors(fieldErrorsOf(err)) }),
          )}
        >
          <Stack gap="sm">
            <NewPasswordFields form={form} label={t('password.new')} autoFocus />
            <Button type="submit" loading={reset.isPending} fullWidth>
              {t('reset.submit')}
            </Button>
            {reset.error && !onField ? <ProblemAlert error={reset.error} /> : null}
          </Stack>
        </form>
      ) : (
        <Alert color="red" variant="light" role="alert">
          {t('reset.noToken')}
        </Alert>
      )}
      <Text size="sm" ta="center">
        <Anchor component={Link} to="/forgot-password">
          {t('reset.askAgain')}
        </Anchor>
      </Text>
    </AuthCard>
  );
}
