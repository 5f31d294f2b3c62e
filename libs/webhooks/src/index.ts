export * from './address-guard.ts';
export * from './knex-store.ts';
export * from './schedule.ts';
export * from './sender.ts';
export * from './signing.ts';
export * from './tables.ts';
export * from './types.ts';
export * from './worker.ts';
