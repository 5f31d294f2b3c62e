import type { Knex } from 'knex';
import {
  createWebhookEmitter,
  createWebhookTables,
  dropWebhookEmitter,
  dropWebhookTables,
  subscribedSql,
  unlessSubscribedSql,
} from '@fieldhouse/webhooks';

/** Whether an active subscription takes `kind` (an SQL expression) for an event of project `p` in workspace `w`. */
const reaches = (kind: string, w: string, p: string) =>
  subscribedSql(kind, `s.workspace_id = ${w} AND (s.project_ids IS NULL OR ${p} = ANY(s.project_ids))`);

/**
 * Outbound webhooks of area A (docs/webhooks.md): subscriptions per workspace (optionally
 * limited to some projects) and their delivery log, and the triggers that capture
 * `submission.created`, `submission.updated`, `submission.reviewed`, `submission.deleted`,
 * `export.completed` and `export.failed` in the transaction of the change, whichever path made
 * it (API, group commit, offline sync, export worker), once per statement.
 */
export const webhooks = {
  name: '012-webhooks',
  async up(knex: Knex): Promise<void> {
    await createWebhookTables(knex, (t) => {
      t.integer('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE').index();
      t.specificType('project_ids', 'integer[]');
    });
    await createWebhookEmitter(knex, 'collection');
    await knex.raw(`
      CREATE FUNCTION webhook_submission(n submissions) RETURNS jsonb LANGUAGE sql STABLE AS $$
        SELECT jsonb_build_object('id', n.id, 'project_id', n.project_id, 'form_version_id', n.form_version_id,
          'collector_id', n.collector_id, 'status', n.status, 'latitude', n.latitude, 'longitude', n.longitude,
          'altitude', n.altitude, 'precision', n.precision, 'data', n.data, 'consent', n.consent,
          'created_at', webhook_iso(n.created_at), 'updated_at', webhook_iso(n.updated_at),
          'submitted_at', webhook_iso(n.submitted_at))
      $$`);
    await knex.raw(`
      CREATE FUNCTION webhook_submission_links(project_id integer, id bigint) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
        SELECT jsonb_build_object('submission', '/api/v1/projects/' || project_id || '/submissions/' || id,
          'project', '/api/v1/projects/' || project_id)
      $$`);
    const scope = `jsonb_build_object('workspace_id', p.workspace_id, 'project_id', p.id)`;
    await knex.raw(`
      CREATE FUNCTION webhook_submissions_created() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${unlessSubscribedSql(['submission.created'])}
        PERFORM webhook_emit('submission.created', ${scope}, jsonb_build_object('workspace_id', p.workspace_id,
            'submission', webhook_submission(n), 'links', webhook_submission_links(n.project_id, n.id)))
        FROM new_rows n JOIN projects p ON p.id = n.project_id
        WHERE ${reaches("'submission.created'", 'p.workspace_id', 'p.id')}
        ORDER BY n.id;
        RETURN NULL;
      END $$`);
    await knex.raw(`
      CREATE TRIGGER submissions_created_webhooks AFTER INSERT ON submissions REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION webhook_submissions_created()`);
    await knex.raw(`
      CREATE FUNCTION webhook_submissions_updated() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${unlessSubscribedSql(['submission.updated'])}
        PERFORM webhook_emit('submission.updated', ${scope}, jsonb_build_object('workspace_id', p.workspace_id,
            'submission', webhook_submission(n), 'previous', jsonb_build_object('data', o.data,
              'latitude', o.latitude, 'longitude', o.longitude, 'altitude', o.altitude, 'precision', o.precision),
            'links', webhook_submission_links(n.project_id, n.id)))
        FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN projects p ON p.id = n.project_id
        WHERE (n.data, n.latitude, n.longitude, n.altitude, n.precision)
            IS DISTINCT FROM (o.data, o.latitude, o.longitude, o.altitude, o.precision)
          AND ${reaches("'submission.updated'", 'p.workspace_id', 'p.id')}
        ORDER BY n.id;
        RETURN NULL;
      END $$`);
    await knex.raw(`
      CREATE TRIGGER submissions_updated_webhooks AFTER UPDATE ON submissions
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION webhook_submissions_updated()`);
    await knex.raw(`
      CREATE FUNCTION webhook_submissions_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${unlessSubscribedSql(['submission.deleted'])}
        -- A submission deleted with its project or workspace has no project left here: only
        -- submissions deleted one by one are announced.
        PERFORM webhook_emit('submission.deleted', ${scope}, jsonb_build_object('workspace_id', p.workspace_id,
            'submission', webhook_submission(o), 'deleted_at', webhook_iso(clock_timestamp()),
            'links', jsonb_build_object('project', '/api/v1/projects/' || o.project_id)))
        FROM old_rows o JOIN projects p ON p.id = o.project_id
        WHERE ${reaches("'submission.deleted'", 'p.workspace_id', 'p.id')}
        ORDER BY o.id;
        RETURN NULL;
      END $$`);
    await knex.raw(`
      CREATE TRIGGER submissions_deleted_webhooks AFTER DELETE ON submissions REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION webhook_submissions_deleted()`);
    await knex.raw(`
      CREATE FUNCTION webhook_submissions_reviewed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${unlessSubscribedSql(['submission.reviewed'])}
        PERFORM webhook_emit('submission.reviewed', ${scope}, jsonb_build_object('workspace_id', p.workspace_id,
            'submission_id', h.submission_id, 'project_id', p.id, 'from', h.from_status, 'to', h.to_status,
            'comment', h.comment, 'reviewed_at', webhook_iso(h.created_at),
            'reviewer', CASE WHEN h.user_id IS NULL THEN NULL
              ELSE jsonb_build_object('id', h.user_id, 'name', u.name) END,
            'links', webhook_submission_links(p.id, h.submission_id)))
        FROM new_rows h JOIN submissions sub ON sub.id = h.submission_id JOIN projects p ON p.id = sub.project_id
          LEFT JOIN users u ON u.id = h.user_id
        WHERE h.from_status IS NOT NULL AND ${reaches("'submission.reviewed'", 'p.workspace_id', 'p.id')}
        ORDER BY h.id;
        RETURN NULL;
      END $$`);
    await knex.raw(`
      CREATE TRIGGER submission_history_webhooks AFTER INSERT ON submission_history REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION webhook_submissions_reviewed()`);
    await knex.raw(`
      CREATE FUNCTION webhook_exports_finished() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${unlessSubscribedSql(['export.completed', 'export.failed'])}
        PERFORM webhook_emit(k.kind, jsonb_build_object('workspace_id', n.workspace_id, 'project_id', n.project_id),
          jsonb_build_object('workspace_id', n.workspace_id, 'export', jsonb_build_object('id', n.id,
              'project_id', n.project_id, 'format', n.format, 'filters', n.filters, 'status', n.status,
              'rows', n.rows_written, 'error', n.error, 'requested_by', n.requested_by,
              'created_at', webhook_iso(n.created_at), 'finished_at', webhook_iso(n.finished_at),
              'expires_at', webhook_iso(n.expires_at)),
            'links', jsonb_build_object('export', '/api/v1/exports/' || n.id) ||
              CASE WHEN n.status = 'completed' THEN jsonb_build_object('download', '/api/v1/exports/' || n.id || '/download')
                ELSE '{}'::jsonb END))
        FROM new_rows n JOIN old_rows o ON o.id = n.id
        CROSS JOIN LATERAL (SELECT CASE n.status WHEN 'completed' THEN 'export.completed' ELSE 'export.failed' END AS kind) k
        WHERE n.status IN ('completed', 'failed') AND o.status IS DISTINCT FROM n.status
          AND ${reaches('k.kind', 'n.workspace_id', 'n.project_id')};
        RETURN NULL;
      END $$`);
    await knex.raw(`
      CREATE TRIGGER exports_webhooks AFTER UPDATE ON exports REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION webhook_exports_finished()`);
  },
  async down(knex: Knex): Promise<void> {
    for (const [trigger, table] of [
      ['exports_webhooks', 'exports'],
      ['submission_history_webhooks', 'submission_history'],
      ['submissions_deleted_webhooks', 'submissions'],
      ['submissions_updated_webhooks', 'submissions'],
      ['submissions_created_webhooks', 'submissions'],
    ])
      await knex.raw(`DROP TRIGGER ${trigger} ON ${table}`);
    for (const fn of [
      'webhook_exports_finished()',
      'webhook_submissions_reviewed()',
      'webhook_submissions_deleted()',
      'webhook_submissions_updated()',
      'webhook_submissions_created()',
      'webhook_submission_links(integer, bigint)',
      'webhook_submission(submissions)',
    ])
      await knex.raw(`DROP FUNCTION ${fn}`);
    await dropWebhookEmitter(knex);
    await dropWebhookTables(knex);
  },
};
