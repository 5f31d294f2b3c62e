export { createPollsApp, type PollsAppDeps } from './app.ts';
export { pollsOutboxRelay } from './outbox-relay.ts';
export { loadPollsConfig, type PollsConfig } from './config.ts';
export { ensureIndexes } from './migrations/index.ts';
export { startPollsEmailWorker, POLLS_EMAIL_QUEUE } from './workers/email-worker.ts';
export { startPollsWebhookWorker } from './workers/webhooks.ts';
export { pollsDocument } from './http/document.ts';
