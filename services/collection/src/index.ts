export { createCollectionApp, type CollectionAppDeps } from './app.ts';
export { loadCollectionConfig, type CollectionConfig } from './config.ts';
export { migrations } from './migrations/index.ts';
