import type { Knex } from 'knex';

/**
 * The transaction a use case opened (`ctx.inTransaction(async (tx, outbox) => ...)`): data/
 * functions that write more than one statement take it and never open one themselves.
 */
export type Tx = Knex.Transaction;

/**
 * Where a query runs: the pool (one statement, its own implicit transaction) or a use case's
 * transaction (a `Knex.Transaction` is a `Knex`). The domain sees this type, never the driver's.
 */
export type Db = Knex;
