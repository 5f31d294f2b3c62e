import type { Express } from 'express';
import type { Db } from 'mongodb';
import { createServiceApp, type Lifecycle } from '@fieldhouse/http';
import { requireGateway, type KeyResolver } from '@fieldhouse/internal-auth';
import type { Logger } from '@fieldhouse/logger';
import type { RedisClientType } from 'redis';
import { pollsRoutes } from './http/routes.ts';
import { openApi } from './openapi.ts';

export interface PollsAppDeps {
  logger: Logger;
  mongo: Db;
  redis: Pick<RedisClientType, 'ping'>;
  /** Public keys of the gateway (its JWKS, or fixed keys in tests). */
  keys: KeyResolver;
  issuer: string;
  bodyLimit: string;
  lifecycle?: Lifecycle;
}

/** The polls service's Express app, built from its dependencies (supertest uses it directly). */
export function createPollsApp(deps: PollsAppDeps): { app: Express; lifecycle: Lifecycle } {
  return createServiceApp({
    logger: deps.logger,
    ...(deps.lifecycle ? { lifecycle: deps.lifecycle } : {}),
    readiness: [
      { name: 'mongodb', check: () => deps.mongo.command({ ping: 1 }) },
      { name: 'redis', check: () => deps.redis.ping() },
    ],
    bodyLimit: deps.bodyLimit,
    prefix: '/api/polls',
    authenticate: requireGateway({ audience: 'polls', issuer: deps.issuer, keys: deps.keys }),
    openApi,
    routes: pollsRoutes(),
  });
}
