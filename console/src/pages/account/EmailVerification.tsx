import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconMailExclamation } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { useSendVerification } from './use-account.ts';

/**
 * The notice of an unverified e-mail address, with "send again" (a new link; the gateway limits
 * how often, and its 429 shows here with the wait). It says that confirming the address also
 * applies the workspace invitations waiting for it: only a confirmed address takes one up
 * (docs/collection.md, "Inviting by e-mail"), and the console cannot list them (no endpoint).
 */
export function EmailVerification({ email }: { email: string }) {
  const { t } = useTranslation('account');
  const send = useSendVerification();
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconMailExclamation aria-hidden />}
      title={t('verify.unverifiedTitle')}
    >
      <Stack gap="xs">
        <Text size="sm">{t('verify.unverifiedText', { email })}</Text>
        <Text size="sm">{t('verify.invitationsWaiting')}</Text>
        <Button
          size="xs"
          variant="light"
          color="orange"
          style={{ alignSelf: 'flex-start' }}
          loading={send.isPending}
          onClick={() => send.mutate()}
        >
          {t('verify.sendAgain')}
        </Button>
        {send.isSuccess ? (
          <Text size="sm" role="status" data-testid="verification-sent">
            {t('verify.sent', { email })}
          </Text>
        ) : null}
        <ProblemAlert error={send.error} />
      </Stack>
    </Alert>
  );
}
