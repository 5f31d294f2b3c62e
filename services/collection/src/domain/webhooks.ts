import {
  disabledWebhookEmails,
  knexWebhookRepository,
  webhookUseCases,
  type DisabledSubscription,
} from '@fieldhouse/webhooks';
import { projectReach } from '../data/webhook-reach.ts';
import { preferencesByEmail } from '../data/users.ts';
import { projectIdsIn, workspaceOwners } from '../data/workspaces.ts';
import { requireAccess } from './access.ts';
import type { Actor, CollectionContext } from './context.ts';
import { problems } from './problems.ts';
import { changes } from './changes.ts';

/**
 * The event kinds of area A (docs/webhooks.md, "Area A"): a submission created (any path: API,
 * web form, offline sync), its data or location edited, its review status changed, deleted; an
 * export finished or failed: the webhook kinds of the list of changes (changes.ts).
 */
export const WORKSPACE_WEBHOOK_KINDS = changes.webhookKinds;

/** Who manages a workspace's webhooks: its owners, admins and managers (others 403, non-members 404). */
export interface WorkspaceWebhookAccess {
  actor: Actor;
  workspaceId: number;
}

/**
 * The webhook use cases of a workspace (libs/webhooks `WebhookUseCases`); a subscription may be
 * limited to some of the workspace's projects (`project_ids`, null for all); at most
 * `WEBHOOK_MAX_SUBSCRIPTIONS` reach any one project ({@link projectReach}).
 * @throws ProblemError 401 anonymous; 404 not a member; 403 role below manager; 422 a
 * `project_ids` entry that is not a project of the workspace; 422 `webhook_limit_reached`
 * creating (or widening to more projects) one more than the cap of a project.
 */
export const workspaceWebhooks = (ctx: CollectionContext) =>
  webhookUseCases<WorkspaceWebhookAccess>(
    async (a) => {
      const { workspace } = await requireAccess(ctx, {
        actor: a.actor,
        permission: 'webhooks.manage',
        workspaceId: a.workspaceId,
      });
      return {
        repo: knexWebhookRepository(ctx.db, projectReach),
        scope: { workspace_id: workspace.id },
        limitReached: (limit: number) => problems.webhookLimitReached({ limit }),
        settings: ctx.webhooks,
        userId: a.actor.userId,
        columns: async (body) => {
          if (!('project_ids' in body)) return {};
          const ids = body.project_ids as number[] | null;
          if (ids === null) return { project_ids: null };
          const found = new Set(await projectIdsIn(ctx.db, workspace.id, ids));
          const missing = ids.filter((id) => !found.has(id));
          if (missing.length)
            throw problems.validationFailed({
              errors: { project_ids: [`Not projects of this workspace: ${missing.join(', ')}.`] },
            });
          return { project_ids: ids };
        },
      };
    },
    ['workspace_id', 'project_ids'],
  );

/**
 * Tells the workspace's owners that a webhook was disabled by its deliveries: the e-mail jobs
 * (one per language and time zone among the owners, from the users projection; docs/errors.md,
 * "E-mails in the recipient's language") are written to the outbox, with a link to the
 * workspace's webhooks page in the console when `publicUrl` (`PUBLIC_URL`) is given.
 */
export async function noticeDisabledWebhook(
  ctx: Pick<CollectionContext, 'db' | 'inTransaction'> & { publicUrl?: string },
  s: DisabledSubscription,
): Promise<void> {
  const workspaceId = Number(s.scope.workspace_id);
  const owners = await workspaceOwners(ctx.db, workspaceId);
  if (!owners?.emails.length) return;
  const known = new Map((await preferencesByEmail(ctx.db, owners.emails)).map((p) => [p.email, p]));
  const mails = disabledWebhookEmails(
    owners.emails.map((email) => known.get(email.toLowerCase()) ?? { email }),
    s,
    { en: `the workspace "${owners.name}"`, fr: `l’espace de travail « ${owners.name} »` },
    ctx.publicUrl ? { link: `${ctx.publicUrl}/workspaces/${workspaceId}/webhooks` } : {},
  );
  await ctx.inTransaction(async (_trx, outbox) => {
    for (const mail of mails) await changes.append(outbox, 'email.requested', mail);
  });
}
