import type { Knex } from 'knex';
import { installGeneratedTriggers, type WebhookTrigger } from '@fieldhouse/webhooks';
import { changes } from '../domain/changes.ts';

/** An active subscription of workspace `w` takes the kind, for all its projects or project `p`'s. */
const reaches = (w: string, p: string) =>
  `s.workspace_id = ${w} AND (s.project_ids IS NULL OR ${p} = ANY(s.project_ids))`;
/** The scope of a change of project `p` in workspace `w` (domain/changes.ts `webhookScope`). */
const scope = (w: string, p: string) => `jsonb_build_object('workspace_id', ${w}, 'project_id', ${p})`;

/**
 * The triggers that capture area A's webhooks (docs/webhooks.md, "How events are captured") in
 * the transaction of the change, whichever path made it (API, group commit, offline sync,
 * export worker), once per statement: which rows each kind comes from, and its payload SQL
 * generated from the list of changes (domain/changes.ts names the rows `n`, `o`, `p`, `h`, `u`).
 * A trigger stays the fastest way to capture the group commit's many submissions per statement
 * (bench/webhook-capture.ts).
 */
const webhookTriggers: WebhookTrigger[] = [
  {
    name: 'submissions_created_webhooks',
    table: 'submissions',
    on: 'INSERT',
    referencing: 'NEW TABLE AS new_rows',
    emits: [
      {
        kind: 'submission.created',
        from: 'new_rows n JOIN projects p ON p.id = n.project_id',
        reaches: reaches('p.workspace_id', 'p.id'),
        scope: scope('p.workspace_id', 'p.id'),
        data: changes.sql('submission.created'),
        orderBy: 'n.id',
      },
    ],
  },
  {
    name: 'submissions_updated_webhooks',
    table: 'submissions',
    on: 'UPDATE',
    referencing: 'OLD TABLE AS old_rows NEW TABLE AS new_rows',
    emits: [
      {
        kind: 'submission.updated',
        from: 'new_rows n JOIN old_rows o ON o.id = n.id JOIN projects p ON p.id = n.project_id',
        where:
          '(n.data, n.latitude, n.longitude, n.altitude, n.precision) ' +
          'IS DISTINCT FROM (o.data, o.latitude, o.longitude, o.altitude, o.precision)',
        reaches: reaches('p.workspace_id', 'p.id'),
        scope: scope('p.workspace_id', 'p.id'),
        data: changes.sql('submission.updated'),
        orderBy: 'n.id',
      },
    ],
  },
  {
    // A submission deleted with its project or workspace has no project left here: only
    // submissions deleted one by one are announced.
    name: 'submissions_deleted_webhooks',
    table: 'submissions',
    on: 'DELETE',
    referencing: 'OLD TABLE AS old_rows',
    emits: [
      {
        kind: 'submission.deleted',
        from: 'old_rows o JOIN projects p ON p.id = o.project_id',
        reaches: reaches('p.workspace_id', 'p.id'),
        scope: scope('p.workspace_id', 'p.id'),
        data: changes.sql('submission.deleted'),
        orderBy: 'o.id',
      },
    ],
  },
  {
    name: 'submission_history_webhooks',
    table: 'submission_history',
    on: 'INSERT',
    referencing: 'NEW TABLE AS new_rows',
    emits: [
      {
        kind: 'submission.reviewed',
        from:
          'new_rows h JOIN submissions sub ON sub.id = h.submission_id JOIN projects p ON p.id = sub.project_id ' +
          'LEFT JOIN users u ON u.id = h.user_id',
        where: 'h.from_status IS NOT NULL',
        reaches: reaches('p.workspace_id', 'p.id'),
        scope: scope('p.workspace_id', 'p.id'),
        data: changes.sql('submission.reviewed'),
        orderBy: 'h.id',
      },
    ],
  },
  {
    name: 'exports_webhooks',
    table: 'exports',
    on: 'UPDATE',
    referencing: 'OLD TABLE AS old_rows NEW TABLE AS new_rows',
    emits: (['completed', 'failed'] as const).map((status) => ({
      kind: `export.${status}` as const,
      from: 'new_rows n JOIN old_rows o ON o.id = n.id',
      where: `n.status = '${status}' AND o.status IS DISTINCT FROM n.status`,
      reaches: reaches('n.workspace_id', 'n.project_id'),
      scope: scope('n.workspace_id', 'n.project_id'),
      data: changes.sql(`export.${status}`),
    })),
  },
];

/**
 * The repeatable step after the migrations: (re)installs {@link webhookTriggers} when their
 * generated SQL changed (libs/webhooks `installGeneratedTriggers`).
 */
export const webhookTriggersStep = {
  name: 'webhook-triggers',
  repeatable: true,
  async up(knex: Knex): Promise<void> {
    await installGeneratedTriggers(knex, 'webhook-triggers', webhookTriggers);
  },
  async down(): Promise<void> {},
};
