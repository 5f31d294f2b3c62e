export * from './broker.ts';
export * from './consumer.ts';
export * from './dead-letters.ts';
export * from './outbox.ts';
export * from './idempotency.ts';
export * from './user-events.ts';
export * from './process.ts';
export * from './changes.ts';
