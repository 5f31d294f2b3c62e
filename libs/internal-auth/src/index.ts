export * from './claims.ts';
export * from './keys.ts';
export * from './middleware.ts';
