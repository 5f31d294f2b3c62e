import type { Knex } from 'knex';
import type { SubscriptionReach } from '@fieldhouse/webhooks';

/**
 * The cap of area A counts per project (docs/webhooks.md, "Isolation"): a subscription for
 * every project (`project_ids` null) counts against each, one limited to projects against
 * those. The count for a new or changed subscription is the most any of its projects (any
 * project at all when null) already has; the subscription `except` is left out (the one changed).
 */
export const projectReach: SubscriptionReach = {
  count: async (trx: Knex.Transaction, scope, columns, except) => {
    const ids = (columns.project_ids as number[] | null | undefined) ?? null;
    // A PostgreSQL array literal: knex would spread a JS array into a list of bindings.
    const idList = ids === null ? null : `{${ids.map(Number).join(',')}}`;
    const w = Number(scope.workspace_id);
    const { rows } = (await trx.raw(
      `SELECT (SELECT count(*) FROM webhook_subscriptions
                 WHERE workspace_id = ? AND project_ids IS NULL AND id IS DISTINCT FROM CAST(? AS uuid))
            + coalesce((SELECT max(n) FROM (
                 SELECT count(*) AS n FROM webhook_subscriptions s, unnest(s.project_ids) AS p(id)
                 WHERE s.workspace_id = ? AND s.id IS DISTINCT FROM CAST(? AS uuid)
                   AND (CAST(? AS int[]) IS NULL OR p.id = ANY(CAST(? AS int[])))
                 GROUP BY p.id) x), 0) AS n`,
      [w, except, w, except, idList, idList],
    )) as { rows: Array<{ n: string }> };
    return Number(rows[0]?.n ?? 0);
  },
  changedBy: ['project_ids'],
};
