import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Express } from 'express';
import type { Knex } from 'knex';
import { createServiceApp, type Lifecycle } from '@fieldhouse/http';
import { requireGateway, type KeyResolver } from '@fieldhouse/internal-auth';
import type { Logger } from '@fieldhouse/logger';
import { inTransactionWith } from '@fieldhouse/messaging';
import { webhookApiSettings, webhookEnvDefaults, type WebhookApiSettings } from '@fieldhouse/webhooks';
import { FileBlobStore, type BlobStore } from './blob/blob-store.ts';
import { projectLookups } from './data/projects.ts';
import { submissionGroupCommit } from './data/submission-batch.ts';
import { collectionAsyncApiRoute } from './http/asyncapi-route.ts';
import { collectionDocument } from './http/document.ts';
import { collectionRouter } from './http/router.ts';

export interface CollectionAppDeps {
  /**
   * A real round trip to PostgreSQL on a connection of its own (`postgresProbe` of libs/db):
   * given, a store watch answers 503 `store_unavailable` at once while it fails
   * (docs/reliability.md, "When a store hangs"). None: no watch.
   */
  storeProbe?: () => Promise<unknown>;
  logger: Logger;
  db: Knex;
  /** Public keys of the gateway (its JWKS, or fixed keys in tests). */
  keys: KeyResolver;
  issuer: string;
  bodyLimit: string;
  lifecycle?: Lifecycle;
  /** Photo storage; default a filesystem store in the OS temporary folder (main.ts passes BLOB_DIR). */
  blobs?: BlobStore;
  /** Largest photo in bytes (413 above); default 5 MiB. */
  photoMaxBytes?: number;
  /** Called after a transaction wrote to the outbox (main.ts kicks the relay). */
  outboxWritten?: () => void;
  /** Webhook URL policy and secret overlap (`WEBHOOK_*`); default: https only, no private networks, 24 h. */
  webhooks?: WebhookApiSettings;
  /** The console's public address for links in e-mails (`PUBLIC_URL`); default `http://127.0.0.1:8080`. */
  publicUrl?: string;
}

/**
 * The collection service's Express app, built from its dependencies (supertest uses it directly).
 * JSON bodies (base64 photos included) are limited by `bodyLimit` (BODY_LIMIT); photos larger
 * than that come as multipart uploads, limited by `photoMaxBytes`.
 */
export function createCollectionApp(deps: CollectionAppDeps): { app: Express; lifecycle: Lifecycle } {
  const photoMaxBytes = deps.photoMaxBytes ?? 5 * 1024 * 1024;
  return createServiceApp({
    logger: deps.logger,
    ...(deps.lifecycle ? { lifecycle: deps.lifecycle } : {}),
    readiness: [{ name: 'postgres', check: () => deps.db.raw('select 1') }],
    ...(deps.storeProbe
      ? {
          stores: [{ name: 'postgres', probe: deps.storeProbe }],
          storeWatch: { intervalMs: 500, timeoutMs: 2_000, failuresToTrip: 2 },
        }
      : {}),
    bodyLimit: deps.bodyLimit,
    prefix: '/api/v1',
    authenticate: requireGateway({ audience: 'collection', issuer: deps.issuer, keys: deps.keys }),
    openApi: collectionDocument,
    publicRoutes: collectionAsyncApiRoute(),
    routes: collectionRouter(
      {
        db: deps.db,
        logger: deps.logger,
        blobs: deps.blobs ?? new FileBlobStore(join(tmpdir(), 'fieldhouse-blobs')),
        photoMaxBytes,
        outboxWritten: deps.outboxWritten ?? (() => undefined),
        inTransaction: inTransactionWith(deps.db, 'outbox', deps.outboxWritten),
        inSnapshot: (work) =>
          deps.db.transaction(work, { isolationLevel: 'repeatable read', readOnly: true }),
        webhooks: deps.webhooks ?? webhookApiSettings(webhookEnvDefaults),
        publicUrl: (deps.publicUrl ?? 'http://127.0.0.1:8080').replace(/\/+$/, ''),
        insertSubmission: submissionGroupCommit(deps.db, deps.logger),
        findProjectWithRole: projectLookups(deps.db),
      },
      collectionDocument,
    ),
  });
}
