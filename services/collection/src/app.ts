import type { Express } from 'express';
import type { Knex } from 'knex';
import { createServiceApp, type Lifecycle } from '@fieldhouse/http';
import { requireGateway, type KeyResolver } from '@fieldhouse/internal-auth';
import type { Logger } from '@fieldhouse/logger';
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
}

/** The collection service's Express app, built from its dependencies (supertest uses it directly). */
export function createCollectionApp(deps: CollectionAppDeps): { app: Express; lifecycle: Lifecycle } {
  return createServiceApp({
    logger: deps.logger,
    ...(deps.lifecycle ? { lifecycle: deps.lifecycle } : {}),
    readiness: [{ name: 'postgres', check: () => deps.db.raw('select 1') }],
    bodyLimit: deps.bodyLimit,
    prefix: '/api/v1',
    authenticate: requireGateway({ audience: 'collection', issuer: deps.issuer, keys: deps.keys }),
    openApi,
    routes: collectionRoutes(),
  });
}
