export * from './json-schema.ts';
export * from './route.ts';
export * from './document.ts';
export * from './router.ts';
export * from './conformance.ts';
