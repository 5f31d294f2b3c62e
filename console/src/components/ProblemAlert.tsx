import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/problem.ts';

/**
 * The refusal of one action, shown next to that action: the problem's `detail` (what the
 * service said), with the wait for 429/503 when `Retry-After` came. Renders nothing without an
 * error. `role="alert"` so screen readers announce it.
 */
export function ProblemAlert({ error, title }: { error: unknown; title?: string }) {
  const { t } = useTranslation('common');
  if (!error) return null;
  const api = error instanceof ApiError ? error : undefined;
  const detail = api?.problem.detail ?? api?.problem.title ?? (error as Error).message ?? String(error);
  const heading =
    title ??
    (api?.status === 0
      ? t('errors.network')
      : api?.status === 429
        ? t('errors.tooMany')
        : t('errors.refused', { status: api?.status ?? '' }));
  return (
    <Alert color="red" variant="light" title={heading} role="alert" data-testid="problem">
      {detail}
      {api?.retryAfterSeconds ? ` ${t('errors.retryAfter', { count: api.retryAfterSeconds })}` : ''}
    </Alert>
  );
}
