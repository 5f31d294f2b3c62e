import type { Knex } from 'knex';
import { createGeneratedSqlTable } from '@fieldhouse/webhooks';

/**
 * Issue 33: the webhook payloads leave the migrations. Drops the hand-written triggers and
 * payload functions of 004-webhooks and makes the table in which the repeatable step
 * (webhook-triggers.ts) records the generated triggers it installs in their place, built from
 * the list of changes (domain/changes.ts). `webhook_emit` and `webhook_iso` stay.
 */
export const generatedWebhookTriggers = {
  name: '007-generated-webhook-triggers',
  async up(knex: Knex): Promise<void> {
    await knex.raw('DROP TRIGGER attendance_webhooks ON attendance_log');
    await knex.raw('DROP TRIGGER invites_webhooks ON invites');
    await knex.raw('DROP FUNCTION webhook_attendance()');
    await knex.raw('DROP FUNCTION webhook_invites_created()');
    await knex.raw('DROP FUNCTION webhook_invite_links(invites)');
    await knex.raw('DROP FUNCTION webhook_invite(invites)');
    await createGeneratedSqlTable(knex);
  },
  async down(knex: Knex): Promise<void> {
    await knex.raw('DROP TABLE generated_sql');
  },
};
