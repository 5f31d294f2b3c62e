import { Alert, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/problem.ts';
import { problemMessage, PROBLEMS_NS } from '../api/problem-message.ts';

/**
 * The refusal of one action, shown next to that action (docs/console.md, "Errors"): the message
 * of the problem's `code` in the user's language (else a message for its status), with the wait
 * for 429/503 when `Retry-After` came. The HTTP status, the code and the service's English
 * `detail` are only in the "Details" disclosure (native `details`/`summary`: a button that
 * screen readers announce as expanded or collapsed, opened by keyboard). Renders nothing without an error. `role="alert"` so screen readers announce it.
 */
export function ProblemAlert({ error, title }: { error: unknown; title?: string }) {
  const { t } = useTranslation('common');
  // Not suspending: the messages load on first use, and the alert shows a message for the
  // status until they are there, then re-renders.
  useTranslation(PROBLEMS_NS, { useSuspense: false });
  if (!error) return null;
  const api = error instanceof ApiError ? error : undefined;
  const heading =
    title ??
    (api?.status === 0
      ? t('errors.network')
      : api?.status === 429
        ? t('errors.tooMany')
        : t('errors.refused'));
  const detail = api?.problem.detail ?? api?.problem.title;
  return (
    <Alert color="red" variant="light" title={heading} role="alert" data-testid="problem">
      <Text size="sm" data-testid="problem-message">
        {problemMessage(error, t)}
        {api?.retryAfterSeconds ? ` ${t('errors.retryAfter', { count: api.retryAfterSeconds })}` : ''}
      </Text>
      {api ? (
        <Text component="details" size="xs" mt={4} data-testid="problem-details">
          <summary style={{ cursor: 'pointer' }}>{t('errors.details')}</summary>
          {t('errors.detailsStatus')}: {api.status || '—'}
          {api.problem.code ? ` · ${t('errors.detailsCode')}: ${api.problem.code}` : ''}
          {detail ? (
            <>
              <br />
              {t('errors.detailsService')}: <span lang="en">{detail}</span>
            </>
          ) : null}
        </Text>
      ) : null}
    </Alert>
  );
}
