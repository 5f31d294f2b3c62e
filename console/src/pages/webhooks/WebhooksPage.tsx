import { useParams } from 'react-router';
import { NotFoundPage } from '../NotFoundPage.tsx';
import { EventWebhooksPage } from './EventWebhooksPage.tsx';
import { PollWebhooksPage } from './PollWebhooksPage.tsx';
import { WorkspaceWebhooksPage } from './WorkspaceWebhooksPage.tsx';

/**
 * `/{area}/{scopeId}/webhooks[/{webhookId}]`: the webhooks pages of the three areas behind one
 * route and one lazy chunk (every byte of the route table counts against the voting page's
 * budget); `area` says which page it is, anything else is not a page.
 */
export function WebhooksPage() {
  const area = useParams().area;
  if (area === 'workspaces') return <WorkspaceWebhooksPage />;
  if (area === 'polls') return <PollWebhooksPage />;
  if (area === 'events') return <EventWebhooksPage />;
  return <NotFoundPage />;
}
