import '../../app/full-styles.ts';
import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { nextPathOf } from '../../auth/sign-in-path.ts';
import { useRegister } from '../../auth/sign-in.ts';
import { fieldErrorsOf } from '../../components/field-errors.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { AuthCard } from './AuthCard.tsx';
import { NewPasswordFields } from './NewPasswordFields.tsx';
import { confirmationRule, emailRule, MIN_PASSWORD_LENGTH, nameRule, passwordRule } from './rules.ts';

/**
 * `/register`: name, e-mail, password and its confirmation, checked here with the gateway's
 * rules; the gateway's 422 (e-mail taken...) shows under its field with everything typed kept;
 * 403 when the operator turned registration off. Signed in on success, then to `next` or `/`.
 */
export function RegisterPage() {
  const { t } = useTranslation('auth');
  const location = useLocation();
  const navigate = useNavigate();
  const register = useRegister();
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { name: '', email: '', password: '', password_confirmation: '' },
    validate: {
      name: nameRule(t),
      email: emailRule(t),
      password: passwordRule(t, MIN_PASSWORD_LENGTH),
      password_confirmation: confirmationRule(t),
    },
  });

  return (
    <AuthCard title={t('register.title')}>
      <form
        noValidate
        onSubmit={form.onSubmit((values) =>
          register.mutate(values, {
            onSuccess: () => void navigate(nextPathOf(location.search), { replace: true }),
            onError: (err) => form.setErrors(fieldErrorsOf(err)),
          }),
        )}
      >
        <Stack gap="sm">
          <TextInput
            label={t('fields.name')}
            autoComplete="name"
            required
            autoFocus
            key={form.key('name')}
            {...form.getInputProps('name')}
          />
          <TextInput
            label={t('fields.email')}
            type="email"
            autoComplete="email"
            required
            key={form.key('email')}
            {...form.getInputProps('email')}
          />
          <NewPasswordFields form={form} label={t('fields.password')} />
          <Button type="submit" loading={register.isPending} fullWidth>
            {t('register.submit')}
          </Button>
          <ProblemAlert error={register.error} />
          <Text size="sm" ta="center">
            {t('register.haveAccount')}{' '}
            <Anchor component={Link} to={`/sign-in${location.search}`}>
              {t('register.signIn')}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
