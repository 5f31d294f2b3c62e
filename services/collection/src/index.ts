export { createCollectionApp, type CollectionAppDeps } from './app.ts';
export { loadCollectionConfig, type CollectionConfig } from './config.ts';
export { migrations } from './migrations/index.ts';
export { FileBlobStore, type BlobStore } from './blob/blob-store.ts';
export { startCollectionEmailWorker } from './workers/email.ts';
export { startUsersProjection } from './workers/user-events.ts';
export { startCollectionWebhookWorker } from './workers/webhooks.ts';
export { startExportWorker, sweepExports, type ExportSettings } from './workers/exports.ts';
export { collectionDocument } from './http/document.ts';
