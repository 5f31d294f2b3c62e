import { useMemo } from 'react';
import { Alert } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { call, collectionApi } from '../../api/client.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { can } from '../collection/roles.ts';
import { idParam, useWorkspace } from '../collection/use-collection.ts';
import { workspaceWebhookApi } from './workspace-webhooks-api.ts';
import { WebhooksScreen } from './WebhooksScreen.tsx';

/** The workspace's projects offered to limit a webhook (the first 100, the API's largest page). */
const useProjectChoices = (workspaceId: number | undefined) =>
  useQuery({
    queryKey: ['collection', 'webhook-projects', workspaceId],
    queryFn: async () =>
      (
        await call(
          collectionApi.GET('/api/v1/workspaces/{workspace_id}/projects', {
            params: { path: { workspace_id: String(workspaceId) }, query: { page: 1, per_page: 100 } },
          }),
        )
      ).data.map((p) => ({ value: String(p.id), label: p.name })),
    enabled: workspaceId !== undefined,
  });

/**
 * `/workspaces/{id}/webhooks[/{webhookId}]`: a workspace's webhooks (owners, admins, managers),
 * each for the whole workspace or some of its projects. Other members are told who may.
 */
export function WorkspaceWebhooksPage() {
  const { t } = useTranslation(['webhooks', 'common']);
  const workspaceId = idParam(useParams().scopeId);
  const workspace = useWorkspace(workspaceId);
  const projects = useProjectChoices(workspaceId);
  const api = useMemo(() => workspaceWebhookApi(workspaceId ?? 0), [workspaceId]);
  if (workspaceId === undefined) return <ProblemAlert error={new Error(t('errors.badId'))} />;
  if (workspace.error) return <ProblemAlert error={workspace.error} />;
  const ws = workspace.data;
  if (ws && !can(ws.role, 'webhooks.manage'))
    return (
      <Alert color="yellow" variant="light" role="alert">
        {t('errors.notAllowedWorkspace')}
      </Alert>
    );
  const name = ws?.name ?? '…';
  return (
    <WebhooksScreen
      api={api}
      basePath={`/workspaces/${workspaceId}/webhooks`}
      crumbs={[
        { to: '/workspaces', label: t('common:nav.workspaces') },
        { to: `/workspaces/${workspaceId}`, label: name },
      ]}
      scopeText={t('scope.workspace', { name })}
      projects={projects.data ?? []}
    />
  );
}
