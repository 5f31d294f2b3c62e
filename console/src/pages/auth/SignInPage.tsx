import '../../app/full-styles.ts';
import { useEffect } from 'react';
import { Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { nextPathOf } from '../../auth/sign-in-path.ts';
import { useMe } from '../../auth/session.ts';
import { useSignIn } from '../../auth/sign-in.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { AuthCard } from './AuthCard.tsx';
import { emailRule, passwordRule } from './rules.ts';

/**
 * `/sign-in?next=<path>`: e-mail and password; on success back to `next` (a console path; `/`
 * otherwise). Wrong credentials (401), too many attempts (429, with the wait) and other refusals
 * show under the button, and the typed e-mail stays. Already signed in: straight to `next`.
 */
export function SignInPage() {
  const { t } = useTranslation('auth');
  const location = useLocation();
  const navigate = useNavigate();
  const next = nextPathOf(location.search);
  const me = useMe();
  const signIn = useSignIn();
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { email: '', password: '' },
    validate: { email: emailRule(t), password: passwordRule(t) },
  });

  useEffect(() => {
    if (me.data) void navigate(next, { replace: true });
  }, [me.data, navigate, next]);

  return (
    <AuthCard title={t('signIn.title')}>
      <form
        noValidate
        onSubmit={form.onSubmit((values) =>
          signIn.mutate(values, { onSuccess: () => void navigate(next, { replace: true }) }),
        )}
      >
        <Stack gap="sm">
          <TextInput
            label={t('fields.email')}
            type="email"
            autoComplete="username"
            required
            autoFocus
            key={form.key('email')}
            {...form.getInputProps('email')}
          />
          <PasswordInput
            label={t('fields.password')}
            autoComplete="current-password"
            required
            key={form.key('password')}
            {...form.getInputProps('password')}
          />
          <Anchor component={Link} to="/forgot-password" size="sm" style={{ alignSelf: 'flex-end' }}>
            {t('signIn.forgot')}
          </Anchor>
          <Button type="submit" loading={signIn.isPending} fullWidth>
            {t('signIn.submit')}
          </Button>
          <ProblemAlert error={signIn.error} />
          <Text size="sm" ta="center">
            {t('signIn.noAccount')}{' '}
            <Anchor component={Link} to={`/register${location.search}`}>
              {t('signIn.register')}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
