import type { Logger } from '@fieldhouse/logger';
import type { WebhookApiSettings, WebhookRepository } from '@fieldhouse/webhooks';
import type { Collections } from '../data/collections.ts';
import type { CommentsRepo } from '../data/comments-repo.ts';
import type { InviteesRepo } from '../data/invitees-repo.ts';
import type { MongoInTransaction } from '../data/outbox.ts';
import type { PendingRepo } from '../data/pending-repo.ts';
import type { ReactionsRepo } from '../data/reactions-repo.ts';
import type { PollsRepo } from '../data/polls-repo.ts';
import type { RateLimits } from '../data/rate-limits.ts';
import type { ResultsStore } from '../data/results-inputs.ts';
import type { VotesRepo } from '../data/votes-repo.ts';
import type { Counters } from '../data/counters.ts';
import type { ResultsCache } from './results-cache.ts';
import type { PublicParticipantsCache } from './public-participants.ts';
import type { LiveResults } from '../live/live-results.ts';
import type { ParticipantView, Voter } from './types.ts';

/**
 * Where one live-results stream goes: the HTTP edge adapts its Server-Sent Events answer to it
 * (http/results-routes.ts), so the streams know nothing of sockets.
 */
export interface ResultsSink {
  /** Writes one event or comment, complete (`event: results\ndata: ...\n\n`). */
  write(chunk: string | Buffer): void;
  /** Ends the stream, after `last` when given. */
  close(last?: string): void;
  /** Whether the stream ended (closed here, or the client went away). */
  readonly closed: boolean;
  /** Whether the client is behind: a write now would queue (wait for {@link onDrain}). */
  readonly full: boolean;
  /** Calls `listener` once the client went away. */
  onClose(listener: () => void): void;
  /** Calls `listener` each time a full sink can take writes again. */
  onDrain(listener: () => void): void;
}

/** The live-results streams of this process (live/results-streams.ts, `ResultsStreams`). */
export interface ResultsStreamsPort {
  /**
   * Adds a stream whose answer has started: it gets the current results at once, then every
   * change, until the client goes away or the poll is deleted.
   */
  open(pollId: string, reader: Voter | null, sink: ResultsSink): Promise<void>;
}

export type { BodyReader } from '@fieldhouse/http';

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
  /** How often polls whose `ends_at` passed are announced to webhooks (ms; 0: never). */
  endedPollsIntervalMs: number;
  /**
   * Largest age (ms) of the full results a reader is given while this process recomputes them
   * (docs/polls.md, "Freshness while votes arrive"; 0: every reader waits for or makes a fresh count).
   */
  resultsMaxStaleMs: number;
  /**
   * A refresh of a shared participants list waits this many times its last load's duration
   * (domain/public-participants.ts; 0: none). Not an environment setting: tests set it.
   */
  participantsRefreshDuty: number;
  /** The console's public address (`PUBLIC_URL`, no trailing slash): invitation links. */
  publicUrl: string;
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
  endedPollsIntervalMs: 15_000,
  resultsMaxStaleMs: 250,
  participantsRefreshDuty: 4,
  publicUrl: 'http://localhost:8080',
};

/** Everything the use cases use (and the routes get), built once by app.ts. */
export interface PollsContext {
  logger: Logger;
  /** The collections themselves: for repositories and tests; use cases go through the repositories. */
  c: Collections;
  polls: PollsRepo;
  votes: VotesRepo;
  pending: PendingRepo;
  comments: CommentsRepo;
  reactions: ReactionsRepo;
  /** Invitees, the register of who voted, and the published ballot ids (docs/polls.md, "Invited voters"). */
  invitees: InviteesRepo;
  counters: Counters;
  /** The Redis side of results reads: their inputs, recent comments, the milestones lock. */
  results: ResultsStore;
  /** Comments and reactions per voter and poll and minute. */
  rateLimits: RateLimits;
  /** Parsed results inputs per poll, checked against Redis on every read. */
  resultsCache: ResultsCache;
  /** The shared participants lists (docs/polls.md, "Participants shown to voters"), per poll. */
  participantsCache: PublicParticipantsCache<ParticipantView>;
  live: LiveResults;
  streams: ResultsStreamsPort;
  /**
   * Runs a use case with the outbox messages it adds (one-time password e-mails): documents
   * first, messages once the work resolved, undo steps when they cannot be written
   * (data/outbox.ts, `mongoInTransaction`, says why and what it guarantees without MongoDB
   * transactions). Kicks the outbox relay when a message was written.
   */
  inTransaction: MongoInTransaction;
  settings: PollsSettings;
  /** The polls' webhook subscriptions and delivery log (MongoDB), and the URL policy. */
  webhooks: { repo: WebhookRepository; settings: WebhookApiSettings };
}
