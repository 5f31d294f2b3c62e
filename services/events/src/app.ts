import type { Express } from 'express';
import type { Knex } from 'knex';
import { createServiceApp, type Lifecycle } from '@fieldhouse/http';
import { requireGateway, type KeyResolver } from '@fieldhouse/internal-auth';
import type { Logger } from '@fieldhouse/logger';
import { inTransactionWith } from '@fieldhouse/messaging';
import { webhookApiSettings, webhookEnvDefaults, type WebhookApiSettings } from '@fieldhouse/webhooks';
import { gateScanGroupCommit } from './data/gate-scans.ts';
import { OfflineInvitees } from './domain/offline-invitees.ts';
import { scanGroupCommit } from './data/scan-batch.ts';
import type { EventsContext } from './domain/context.ts';
import { createCodeSigner } from './domain/signed-codes.ts';
import { eventsAsyncApiRoute } from './http/asyncapi-route.ts';
import { eventsDocument } from './http/document.ts';
import { eventsRouter } from './http/router.ts';

export interface EventsAppDeps {
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
  /** Base URL of the web console (`PUBLIC_URL`, default `http://localhost:8080`), for scanner devices' setup URLs. */
  publicUrl?: string;
  /** Webhook URL policy and secret overlap (`WEBHOOK_*`); default: https only, no private networks, 24 h. */
  webhooks?: WebhookApiSettings;
  lifecycle?: Lifecycle;
  /** Called after a commit that wrote to the outbox (main.ts kicks its OutboxRelay); optional. */
  outboxWritten?: () => void;
  /**
   * `EVENTS_CODE_SIGNING_SECRET`: the secret every event's Ed25519 key for signed codes is derived
   * from (domain/signed-codes.ts). None: signed codes are off.
   */
  codeSigningSecret?: string;
}

/**
 * The use cases' context: the database, the outbox-bound transaction runner (invitation
 * e-mails are written with their invite, then the relay is kicked) and the scanner group commit.
 */
export function createEventsContext(
  deps: Pick<
    EventsAppDeps,
    'db' | 'logger' | 'outboxWritten' | 'publicUrl' | 'webhooks' | 'codeSigningSecret'
  >,
): EventsContext {
  return {
    db: deps.db,
    logger: deps.logger,
    publicUrl: deps.publicUrl ?? 'http://localhost:8080',
    inTransaction: inTransactionWith(deps.db, 'outbox', deps.outboxWritten),
    webhooks: deps.webhooks ?? webhookApiSettings(webhookEnvDefaults),
    hotScans: scanGroupCommit(deps.db, deps.logger),
    gateScans: gateScanGroupCommit(deps.db, deps.logger),
    offlineInvitees: new OfflineInvitees(),
    codeSigner: deps.codeSigningSecret ? createCodeSigner(deps.codeSigningSecret) : null,
  };
}

/**
 * The events service's Express app, built from its dependencies (supertest uses it directly),
 * with the use cases' context it serves (main.ts hands it to the users-events consumer).
 */
export function createEventsApp(deps: EventsAppDeps): {
  app: Express;
  lifecycle: Lifecycle;
  ctx: EventsContext;
} {
  const ctx = createEventsContext(deps);
  const served = createServiceApp({
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
    prefix: '/api/events',
    authenticate: requireGateway({ audience: 'events', issuer: deps.issuer, keys: deps.keys }),
    openApi: eventsDocument,
    publicRoutes: eventsAsyncApiRoute(),
    routes: eventsRouter(ctx, eventsDocument),
  });
  return { ...served, ctx };
}
