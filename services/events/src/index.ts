export { createEventsApp, type EventsAppDeps } from './app.ts';
export { loadEventsConfig, type EventsConfig } from './config.ts';
export { migrations } from './migrations/index.ts';
