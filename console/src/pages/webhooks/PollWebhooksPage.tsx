import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { usePoll } from '../polls/use-polls.ts';
import { pollWebhookApi } from './poll-webhooks-api.ts';
import { WebhooksScreen } from './WebhooksScreen.tsx';

/** `/polls/{id}/webhooks[/{webhookId}]`: a poll's webhooks and their deliveries (the poll's owner). */
export function PollWebhooksPage() {
  const { t } = useTranslation(['webhooks', 'common']);
  const pollId = useParams().scopeId!;
  const poll = usePoll(pollId);
  const api = useMemo(() => pollWebhookApi(pollId), [pollId]);
  const name = poll.data?.title ?? '…';
  return (
    <WebhooksScreen
      api={api}
      basePath={`/polls/${pollId}/webhooks`}
      crumbs={[
        { to: '/polls', label: t('common:nav.polls') },
        { to: `/polls/${pollId}/edit`, label: name },
      ]}
      scopeText={t('scope.poll', { name })}
    />
  );
}
