import type { Knex } from 'knex';

/** Columns of a processed-messages table (consumer, message id, time), for a service's migration. */
export const defineProcessedMessagesTable =
  (knex: Knex) =>
  (t: Knex.CreateTableBuilder): void => {
    t.string('consumer', 100).notNullable();
    t.string('message_id', 200).notNullable();
    t.timestamp('processed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['consumer', 'message_id']);
  };

/**
 * Runs `effect` at most once per (consumer, message id): the id is recorded in the same
 * transaction as the effect, so a redelivered message is skipped and a failed effect leaves
 * no record. Resolves true when the effect ran, false for a duplicate.
 */
export async function processOnce(
  knex: Knex,
  table: string,
  consumer: string,
  messageId: string,
  effect: (trx: Knex.Transaction) => Promise<void>,
): Promise<boolean> {
  return knex.transaction(async (trx) => {
    const inserted = await trx(table)
      .insert({ consumer, message_id: messageId })
      .onConflict(['consumer', 'message_id'])
      .ignore()
      .returning('message_id');
    if (!inserted.length) return false;
    await effect(trx);
    return true;
  });
}
