import type { Knex } from 'knex';

/**
 * The database handle the use cases pass to data/ (a Knex instance or pool): domain/ names it
 * through this type and imports no driver.
 */
export type Db = Knex;

/**
 * A transaction opened by a use case (`ctx.inTransaction`); every data/ function that writes
 * takes it as its first parameter and never opens one itself.
 */
export type Tx = Knex.Transaction;

/** Whether a query failed on a unique index (PostgreSQL SQLSTATE 23505, `unique_violation`). */
export const isUniqueViolation = (err: unknown): boolean =>
  typeof err === 'object' && err !== null && (err as { code?: string }).code === '23505';
