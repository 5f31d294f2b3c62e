import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Express } from 'express';
import type { Knex } from 'knex';
import { createServiceApp, type Lifecycle } from '@fieldhouse/http';
import { requireGateway, type KeyResolver } from '@fieldhouse/internal-auth';
import type { Logger } from '@fieldhouse/logger';
import { FileBlobStore, type BlobStore } from './blob/blob-store.ts';
import { collectionRoutes } from './http/routes.ts';
import { openApi } from './openapi.ts';

export interface CollectionAppDeps {
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
}

/** Bytes of a size like `1mb`, `512kb` or `1000`. */
function bytesOf(limit: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(limit.trim());
  if (!m) return 1024 * 1024;
  const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(m[2] ?? 'b').toLowerCase() as 'b'];
  return Math.floor(Number(m[1]) * unit);
}

/**
 * The collection service's Express app, built from its dependencies (supertest uses it directly).
 * The JSON body limit is at least what one base64 photo of `photoMaxBytes` needs plus 256 KiB.
 */
export function createCollectionApp(deps: CollectionAppDeps): { app: Express; lifecycle: Lifecycle } {
  const photoMaxBytes = deps.photoMaxBytes ?? 5 * 1024 * 1024;
  const jsonLimit = Math.max(bytesOf(deps.bodyLimit), Math.ceil((photoMaxBytes * 4) / 3) + 256 * 1024);
  return createServiceApp({
    logger: deps.logger,
    ...(deps.lifecycle ? { lifecycle: deps.lifecycle } : {}),
    readiness: [{ name: 'postgres', check: () => deps.db.raw('select 1') }],
    bodyLimit: `${jsonLimit}b`,
    prefix: '/api/v1',
    authenticate: requireGateway({ audience: 'collection', issuer: deps.issuer, keys: deps.keys }),
    openApi,
    routes: collectionRoutes({
      db: deps.db,
      logger: deps.logger,
      blobs: deps.blobs ?? new FileBlobStore(join(tmpdir(), 'fieldhouse-blobs')),
      photoMaxBytes,
      outboxWritten: deps.outboxWritten ?? (() => undefined),
    }),
  });
}
