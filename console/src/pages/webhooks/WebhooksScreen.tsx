import { Anchor, Breadcrumbs, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { DeliveryLog } from './DeliveryLog.tsx';
import type { ProjectChoice } from './WebhookFormModal.tsx';
import { WebhooksList } from './WebhooksList.tsx';
import type { WebhookApi } from './types.ts';
import { useWebhooks } from './use-webhooks.ts';

/** A link of the breadcrumbs above the page (the scope's list, the scope itself). */
export interface Crumb {
  to: string;
  label: string;
}

/**
 * The webhooks of one scope, the same for the three areas: at `basePath` the subscriptions, at
 * `basePath/{webhookId}` one subscription's delivery log. Each area's page is a thin wrapper
 * that gives its {@link WebhookApi}, the way back (`crumbs`) and what the scope's events are.
 */
export function WebhooksScreen(props: {
  api: WebhookApi;
  basePath: string;
  crumbs: Crumb[];
  /** Says whose events these are ("Events of the poll Lunch: …"). */
  scopeText: string;
  projects?: ProjectChoice[];
}) {
  const { t } = useTranslation('webhooks');
  const webhookId = useParams().webhookId;
  // The list gives the delivery log its URL (one request for both views, kept in the cache).
  const list = useWebhooks(props.api, webhookId !== undefined);
  const hook = webhookId ? list.data?.find((w) => w.id === webhookId) : undefined;
  const crumbs = [
    ...props.crumbs.map((c) => (
      <Anchor key={c.to} component={Link} to={c.to}>
        {c.label}
      </Anchor>
    )),
    webhookId ? (
      <Anchor key="webhooks" component={Link} to={props.basePath}>
        {t('breadcrumb')}
      </Anchor>
    ) : (
      <Text key="webhooks" span>
        {t('breadcrumb')}
      </Text>
    ),
  ];
  return (
    <Stack gap="lg" maw={960}>
      <Breadcrumbs separatorMargin={6} style={{ flexWrap: 'wrap' }}>
        {crumbs}
      </Breadcrumbs>
      {webhookId ? (
        <>
          <Stack gap={4}>
            <Title order={1}>{t('log.title')}</Title>
            <Text ff="monospace" size="sm" style={{ wordBreak: 'break-all' }}>
              {hook?.url ?? '…'}
            </Text>
            <Text c="dimmed" size="sm">
              {t('log.intro')}
            </Text>
          </Stack>
          <DeliveryLog api={props.api} webhookId={webhookId} />
        </>
      ) : (
        <>
          <Stack gap={4}>
            <Title order={1}>{t('title')}</Title>
            <Text>{props.scopeText}</Text>
            <Text c="dimmed" size="sm">
              {t('intro')}
            </Text>
          </Stack>
          <WebhooksList
            api={props.api}
            basePath={props.basePath}
            {...(props.projects ? { projects: props.projects } : {})}
          />
        </>
      )}
    </Stack>
  );
}
