export { createEventsApp, createEventsContext, type EventsAppDeps } from './app.ts';
export { loadEventsConfig, type EventsConfig } from './config.ts';
export { migrations } from './migrations/index.ts';
export { startEventsEmailWorker } from './workers/email.ts';
export { startEventsWebhookWorker } from './workers/webhooks.ts';
export { applyUserEvent } from './domain/users.ts';
export { insertInvitesBulk } from './domain/invites.ts';
export { eventsDocument } from './http/document.ts';
