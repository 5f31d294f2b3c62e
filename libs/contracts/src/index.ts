export * from './envelope.ts';
export * from './identity.ts';
export * from './email.ts';
