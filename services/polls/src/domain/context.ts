import type { Logger } from '@fieldhouse/logger';
import type { Collections } from '../data/collections.ts';
import type { OutboxRelay } from '@fieldhouse/messaging';
import type { PendingRepo } from '../data/pending-repo.ts';
import type { PollsRepo } from '../data/polls-repo.ts';
import type { Redis } from '../data/redis.ts';
import type { VotesRepo } from '../data/votes-repo.ts';
import type { Counters } from './counters.ts';
import type { ResultsCache } from './results-cache.ts';
import type { LiveResults } from '../live/live-results.ts';

/** Tunables of the polls service (config.ts gives them from the environment). */
export interface PollsSettings {
  /** Lifetime of a one-time password (seconds). */
  otpTtlSeconds: number;
  /** Wrong passwords allowed before a pending vote is locked. */
  otpMaxAttempts: number;
  /** Comments per voter per poll per minute. */
  commentsPerMinute: number;
  /** Reactions per voter per poll per minute. */
  reactionsPerMinute: number;
  /** Interval of SSE heartbeat comments (ms). */
  sseHeartbeatMs: number;
  /** Live-results stream writes per second and poll one process allows itself (spacing of pushes). */
  sseWritesPerSecond: number;
  /** How often the reconciler counts votes a crashed writer left uncounted (ms; 0: never). */
  reconcileIntervalMs: number;
  /** Age (ms) after which a reserved, uncounted vote is the reconciler's. */
  reconcileGraceMs: number;
}

export const DEFAULT_POLLS_SETTINGS: PollsSettings = {
  otpTtlSeconds: 600,
  otpMaxAttempts: 5,
  commentsPerMinute: 10,
  reactionsPerMinute: 30,
  sseHeartbeatMs: 15_000,
  sseWritesPerSecond: 20_000,
  reconcileIntervalMs: 30_000,
  reconcileGraceMs: 30_000,
};

/** Everything the domain services use, built once by app.ts. */
export interface PollsContext {
  logger: Logger;
  c: Collections;
  redis: Redis;
  /** Prefix of every Redis key of the service (`polls:`). */
  prefix: string;
  polls: PollsRepo;
  votes: VotesRepo;
  pending: PendingRepo;
  counters: Counters;
  /** Parsed results inputs per poll, checked against Redis on every read. */
  resultsCache: ResultsCache;
  live: LiveResults;
  /** Present when a broker is wired: relays the outbox (one-time password e-mails). */
  relay: OutboxRelay | undefined;
  settings: PollsSettings;
}
