export * from './projection.ts';
export * from './caller-sync.ts';
