import { Alert, Button, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/problem.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';

/**
 * A poll that could not be loaded, instead of a blank page: "no such poll" for a 404, else
 * the problem with a button to try again. `ns`: the page's namespace, which has `load.*`.
 */
export function PollLoadError({
  error,
  ns,
  onRetry,
}: {
  error: unknown;
  ns: 'vote' | 'results';
  onRetry: () => void;
}) {
  const { t } = useTranslation(ns);
  if (error instanceof ApiError && error.status === 404)
    return (
      <Alert color="yellow" variant="light" title={t('load.notFoundTitle')} role="alert">
        {t('load.notFound')}
      </Alert>
    );
  return (
    <Stack gap="sm">
      <ProblemAlert error={error} />
      <Button variant="light" onClick={onRetry}>
        {t('load.retry')}
      </Button>
    </Stack>
  );
}
