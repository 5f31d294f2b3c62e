import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/problem.ts';
import { formatTime } from '../poll-public/dates.ts';
import { OTP_TTL_MS, type PendingVote } from './pending-vote.ts';
import { TextField } from '../../components/native/TextField.tsx';
import { VoteProblem } from './VoteProblem.tsx';

interface Props {
  pending: PendingVote;
  verifying: boolean;
  verifyError: unknown;
  onVerify: (password: string) => void;
  resending: boolean;
  resendError: unknown;
  onResend: () => void;
}

/** The 422 codes after which this password can no longer count the vote. */
const DEAD = new Set(['otp_expired', 'otp_used']);

/**
 * The one-time-password step (docs/polls.md, "One-time passwords"): the 6 digits from the
 * e-mail (numeric keyboard, `autocomplete="one-time-code"`), checked as the service does.
 * A wrong password shows the attempts left under the field; a locked, expired or used one
 * explains itself. A new password comes from voting again with the same choices, which the
 * service allows only once this one expired (before that, 403 `otp_required`): the button is
 * enabled then, or at once after 422 `otp_expired`.
 */
export function OtpStep({
  pending,
  verifying,
  verifyError,
  onVerify,
  resending,
  resendError,
  onResend,
}: Props) {
  const { t, i18n } = useTranslation('vote');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const expiresAt = pending.sentAt + OTP_TTL_MS;
  const [expired, setExpired] = useState(() => Date.now() >= expiresAt);
  useEffect(() => {
    const timer = setTimeout(() => setExpired(true), Math.max(0, expiresAt - Date.now()));
    return () => clearTimeout(timer);
  }, [expiresAt]);

  const problem = verifyError instanceof ApiError ? verifyError.problem : undefined;
  const attemptsLeft = problem?.code === 'otp_invalid' ? Number(problem.attempts_left) : undefined;
  // A 404: no pending vote has this code any more (expired and cleaned up): a new one may be asked for.
  const canResend = expired || DEAD.has(problem?.code ?? '') || problem?.status === 404;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(password)) return setError(t('otp.sixDigits'));
    setError(undefined);
    onVerify(password);
  };

  return (
    <Stack gap="md">
      <Title order={2} size="h3">
        {t('otp.title')}
      </Title>
      <Text>{pending.email ? t('otp.sentTo', { email: pending.email }) : t('otp.sentToAccount')}</Text>
      <form onSubmit={submit} noValidate aria-label={t('otp.title')}>
        <Stack gap="md">
          <TextField
            label={t('otp.code')}
            description={t('otp.codeHint')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            style={{ letterSpacing: '0.4em', fontVariantNumeric: 'tabular-nums' }}
            value={password}
            onChange={(typed) => setPassword(typed.replace(/\D/g, '').slice(0, 6))}
            error={
              error ??
              (attemptsLeft !== undefined && Number.isFinite(attemptsLeft)
                ? t('otp.attemptsLeft', { count: attemptsLeft })
                : undefined)
            }
            autoFocus
          />
          <VoteProblem error={verifyError} />
          {problem?.code === 'otp_locked' ? (
            <Text size="sm">
              {t('otp.locked', {
                time: formatTime(new Date(expiresAt).toISOString(), i18n.resolvedLanguage),
              })}
            </Text>
          ) : null}
          <Button type="submit" size="md" loading={verifying} fullWidth>
            {t('otp.verify')}
          </Button>
        </Stack>
      </form>
      <Alert variant="light" color="gray" title={t('otp.noMail')}>
        <Stack gap="xs">
          <Text size="sm">
            {canResend
              ? t('otp.resendNow')
              : t('otp.resendLater', {
                  time: formatTime(new Date(expiresAt).toISOString(), i18n.resolvedLanguage),
                })}
          </Text>
          <VoteProblem error={resendError} />
          <Button variant="default" onClick={onResend} disabled={!canResend} loading={resending}>
            {t('otp.resend')}
          </Button>
        </Stack>
      </Alert>
    </Stack>
  );
}
