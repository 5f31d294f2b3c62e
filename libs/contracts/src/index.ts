export * from './envelope.ts';
export * from './identity.ts';
