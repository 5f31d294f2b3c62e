import '../../app/full-styles.ts';
import { useEffect, useRef } from 'react';
import { Alert, Button, Loader, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useMe } from '../../auth/session.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { AuthCard } from '../auth/AuthCard.tsx';
import { linkTokenOf, useVerifyEmail } from './use-account.ts';

/**
 * `/verify-email#token=<secret>`, the page of the e-mailed link: confirms the address at once
 * (no sign-in needed: the link may be opened on another device) and says whether it worked. A
 * used or expired link says so; a signed-in user can send a new one from the profile.
 */
export function VerifyEmailPage() {
  const { t } = useTranslation('account');
  const location = useLocation();
  const token = linkTokenOf(location.hash);
  const verify = useVerifyEmail();
  const me = useMe();
  const started = useRef(false);
  const { mutate } = verify;
  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    mutate(token);
  }, [token, mutate]);

  return (
    <AuthCard title={t('verify.title')}>
      <Stack gap="sm">
        {!token ? (
          <Alert color="red" variant="light" role="alert">
            {t('verify.noToken')}
          </Alert>
        ) : verify.isSuccess ? (
          <Alert color="green" variant="light" role="status" data-testid="email-verified">
            {t('verify.done')}
          </Alert>
        ) : verify.error ? (
          <ProblemAlert error={verify.error} />
        ) : (
          <Loader size="sm" aria-label={t('verify.checking')} />
        )}
        {me.data ? (
          <Button component={Link} to={verify.isSuccess ? '/' : '/settings/profile'} variant="light">
            {verify.isSuccess ? t('verify.toConsole') : t('verify.toProfile')}
          </Button>
        ) : (
          <Button component={Link} to="/sign-in" variant="light">
            {t('verify.signIn')}
          </Button>
        )}
      </Stack>
    </AuthCard>
  );
}
