export * from './claims.ts';
export * from './keys.ts';
export * from './middleware.ts';
export * from './whoami.ts';
