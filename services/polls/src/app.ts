import type { Express } from 'express';
import type { Db } from 'mongodb';
import { createServiceApp, type Lifecycle } from '@fieldhouse/http';
import { requireGateway, type KeyResolver } from '@fieldhouse/internal-auth';
import type { Logger } from '@fieldhouse/logger';
import {
  mongoWebhookRepository,
  webhookApiSettings,
  webhookEnvDefaults,
  type WebhookApiSettings,
} from '@fieldhouse/webhooks';
import { collections } from './data/collections.ts';
import { CommentsRepo } from './data/comments-repo.ts';
import { mongoInTransaction } from './data/outbox.ts';
import { InviteesRepo } from './data/invitees-repo.ts';
import { PendingRepo } from './data/pending-repo.ts';
import { PollsRepo } from './data/polls-repo.ts';
import { ReactionsRepo } from './data/reactions-repo.ts';
import { RateLimits } from './data/rate-limits.ts';
import { recountFrom } from './data/recount.ts';
import { ResultsStore } from './data/results-inputs.ts';
import type { Redis } from './data/redis.ts';
import { VotesRepo } from './data/votes-repo.ts';
import { DEFAULT_POLLS_SETTINGS, type PollsContext, type PollsSettings } from './domain/context.ts';
import { Counters } from './data/counters.ts';
import { startEndedPollsAnnouncer } from './domain/ended-polls.ts';
import { startVoteReconciler } from './domain/reconcile-votes.ts';
import { PublicParticipantsCache } from './domain/public-participants.ts';
import { ResultsCache } from './domain/results-cache.ts';
import { pollsAsyncApiRoute } from './http/asyncapi-route.ts';
import { pollsDocument } from './http/document.ts';
import { pollsRouter } from './http/router.ts';
import { LiveResults } from './live/live-results.ts';
import { ResultsStreams } from './live/results-streams.ts';

export interface PollsAppDeps {
  logger: Logger;
  mongo: Db;
  /** Counters, caches, rate limits and pub/sub (a subscriber connection is duplicated from it). */
  redis: Redis;
  /** Public keys of the gateway (its JWKS, or fixed keys in tests). */
  keys: KeyResolver;
  issuer: string;
  bodyLimit: string;
  lifecycle?: Lifecycle;
  /** Called after a write that added outbox messages (main.ts kicks its relay, outbox-relay.ts). */
  outboxWritten?: () => void;
  /** Prefix of every Redis key (default `polls:`; tests use a unique one). */
  redisPrefix?: string;
  settings?: Partial<PollsSettings>;
  /** Webhook URL policy and secret overlap (`WEBHOOK_*`); default: https only, no private networks, 24 h. */
  webhooks?: WebhookApiSettings;
  /**
   * A real read of MongoDB through a client of its own with a socket time limit: given, a
   * store watch answers 503 `store_unavailable` at once while it hangs (docs/reliability.md,
   * "When a store hangs"). None: no watch.
   */
  storeProbe?: () => Promise<unknown>;
}

/** The polls service's Express app, built from its dependencies (supertest uses it directly). */
export function createPollsApp(deps: PollsAppDeps): {
  app: Express;
  lifecycle: Lifecycle;
  context: PollsContext;
  /** Stops the background loops and the pub/sub connection (the caller closes Mongo and Redis). */
  close: () => Promise<void>;
} {
  const c = collections(deps.mongo);
  const prefix = deps.redisPrefix ?? 'polls:';
  const settings = { ...DEFAULT_POLLS_SETTINGS, ...deps.settings };
  const polls = new PollsRepo(c, deps.redis, prefix);
  const counters = new Counters(deps.redis, prefix, recountFrom(c));
  const context = {
    logger: deps.logger,
    c,
    polls,
    votes: new VotesRepo(c),
    pending: new PendingRepo(c),
    comments: new CommentsRepo(c),
    reactions: new ReactionsRepo(c),
    invitees: new InviteesRepo(c),
    counters,
    results: new ResultsStore(deps.redis, prefix, {
      poll: (id) => polls.cacheKey(id),
      counters: (id) => counters.key(id),
    }),
    rateLimits: new RateLimits(deps.redis, prefix),
    resultsCache: new ResultsCache(1000, settings.resultsMaxStaleMs),
    participantsCache: new PublicParticipantsCache(
      settings.resultsMaxStaleMs,
      settings.participantsRefreshDuty,
    ),
    live: new LiveResults(deps.redis, prefix, deps.logger),
    inTransaction: mongoInTransaction(c, () => deps.outboxWritten?.()),
    settings,
    webhooks: {
      repo: mongoWebhookRepository(deps.mongo),
      settings: deps.webhooks ?? webhookApiSettings(webhookEnvDefaults),
    },
  } satisfies Omit<PollsContext, 'streams'> as PollsContext;
  // The streams read results through the context they belong to.
  context.streams = new ResultsStreams(context, {
    heartbeatMs: settings.sseHeartbeatMs,
    writesPerSecond: settings.sseWritesPerSecond,
  });
  const stopReconciler =
    context.settings.reconcileIntervalMs > 0
      ? startVoteReconciler(context, {
          intervalMs: context.settings.reconcileIntervalMs,
          graceMs: context.settings.reconcileGraceMs,
        })
      : () => undefined;
  const stopAnnouncer =
    settings.endedPollsIntervalMs > 0
      ? startEndedPollsAnnouncer(context, settings.endedPollsIntervalMs)
      : () => undefined;
  const { app, lifecycle, storeWatch } = createServiceApp({
    logger: deps.logger,
    ...(deps.lifecycle ? { lifecycle: deps.lifecycle } : {}),
    readiness: [
      // `ping`, not the store watch's read: every replica shares the store, so taking them all out
      // of the Service would turn the watch's 503 + Retry-After into the gateway's 502.
      { name: 'mongodb', check: () => deps.mongo.command({ ping: 1 }) },
      { name: 'redis', check: () => deps.redis.ping() },
    ],
    bodyLimit: deps.bodyLimit,
    prefix: '/api/polls',
    authenticate: requireGateway({ audience: 'polls', issuer: deps.issuer, keys: deps.keys }),
    openApi: pollsDocument,
    publicRoutes: pollsAsyncApiRoute(),
    routes: pollsRouter(context, pollsDocument),
    ...(deps.storeProbe ? { stores: [{ name: 'mongodb', probe: deps.storeProbe }] } : {}),
  });
  return {
    app,
    lifecycle,
    context,
    close: async () => {
      storeWatch?.stop();
      stopReconciler();
      stopAnnouncer();
      await context.live.close();
    },
  };
}
