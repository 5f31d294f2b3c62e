import type { Knex } from 'knex';
import { createGeneratedSqlTable } from '@fieldhouse/webhooks';

/**
 * Issue 33: the webhook payloads leave the migrations. Drops the hand-written triggers and
 * payload functions of 012-webhooks and makes the table in which the repeatable step
 * (webhook-triggers.ts) records the generated triggers it installs in their place, built from
 * the list of changes (domain/changes.ts). `webhook_emit` and `webhook_iso` stay.
 */
export const generatedWebhookTriggers = {
  name: '016-generated-webhook-triggers',
  async up(knex: Knex): Promise<void> {
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
    await createGeneratedSqlTable(knex);
  },
  async down(knex: Knex): Promise<void> {
    await knex.raw('DROP TABLE generated_sql');
  },
};
