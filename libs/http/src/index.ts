export * from './app.ts';
export * from './server.ts';
export * from './health.ts';
export * from './metrics.ts';
export * from './request-id.ts';
export * from './pagination.ts';
export * from './service-app.ts';
export * from './openapi.ts';
