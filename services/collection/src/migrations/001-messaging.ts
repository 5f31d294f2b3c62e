import type { Knex } from 'knex';
import { defineOutboxTable, defineProcessedMessagesTable } from '@fieldhouse/messaging';

/** The outbox (messages to publish) and the processed-messages record (idempotent consumers). */
export const messaging = {
  name: '001-messaging',
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable('outbox', defineOutboxTable(knex));
    await knex.schema.createTable('processed_messages', defineProcessedMessagesTable(knex));
  },
  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTable('processed_messages');
    await knex.schema.dropTable('outbox');
  },
};
