import { Anchor, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router';
import { ApiError } from '../../api/problem.ts';
import { signInPathFor } from '../../auth/sign-in-path.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';

/**
 * A refused vote or verification, shown next to its button: the service's `detail` (with the
 * wait of a 429), plus what the voter can do — sign in (401: the poll is for signed-in users),
 * look at the results (the poll is not open, no votes remain, the password was used already), read the e-mail already sent
 * (403 `otp_required`). Renders nothing without an error.
 */
export function VoteProblem({ error }: { error: unknown }) {
  const { t } = useTranslation('vote');
  const location = useLocation();
  const { pollId = '' } = useParams();
  if (!error) return null;
  const code = error instanceof ApiError ? error.problem.code : undefined;
  const status = error instanceof ApiError ? error.status : undefined;
  return (
    <Stack gap={4}>
      <ProblemAlert error={error} />
      {status === 401 ? (
        <Anchor component={Link} to={signInPathFor(location)}>
          {t('problem.signIn')}
        </Anchor>
      ) : null}
      {code === 'otp_required' ? <Text size="sm">{t('problem.otpRequired')}</Text> : null}
      {code === 'poll_not_open' || code === 'vote_limit_reached' || code === 'otp_used' ? (
        <Anchor component={Link} to={`/p/${encodeURIComponent(pollId)}/results`}>
          {t('links.results')}
        </Anchor>
      ) : null}
    </Stack>
  );
}
