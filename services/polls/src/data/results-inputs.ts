import type { CounterSnapshot } from '../domain/types.ts';
import { snapshotOfPairs } from './counters.ts';
import { runScript, type Redis } from './redis.ts';

/**
 * What a results read needs from Redis, in one atomic step: the cached poll document (JSON),
 * the cached recent comments (JSON), the state of the counter hash (`gen:rev`, see
^ * data/counters.ts) and, only when that state is not the one the caller already has, the
 * whole hash. KEYS: poll, counters, recent comments. ARGV[1]: the state the caller has, or '';
 * ARGV[2]: '0' when the caller wants the state only, never the hash.
 */
const READ = `
local poll = redis.call('GET', KEYS[1])
local recent = redis.call('GET', KEYS[3])
local gr = redis.call('HMGET', KEYS[2], 'gen', 'rev')
if not gr[1] then return {poll, recent, false, false} end
local state = gr[1] .. ':' .. (gr[2] or '0')
if state == ARGV[1] or ARGV[2] == '0' then return {poll, recent, state, false} end
return {poll, recent, state, redis.call('HGETALL', KEYS[2])}`;

/** The raw inputs of a results read; null where Redis has no value. */
export interface ResultsInputs {
  /** The poll as cached by PollsRepo (JSON), null when not cached. */
  pollJson: string | null;
  /** The five newest comments as cached (JSON), null when not cached. */
  recentJson: string | null;
  /** `gen:rev` of the counter hash; null when the hash is missing (to be rebuilt). */
  countersState: string | null;
  /** The hash as `HGETALL` pairs; null when missing or when its state is `knownState`. */
  counterPairs: string[] | null;
}

/**
 * Reads the inputs of a results read in one Redis round trip (docs/polls.md, "Results cache").
 * `knownState` is the counters state the caller holds a snapshot of ('' for none): the hash
 * is sent only when it changed since, and never when `withHash` is false (the state alone).
 */
export async function fetchResultsInputs(
  redis: Redis,
  keys: { poll: string; counters: string; recent: string },
  knownState: string,
  withHash = true,
): Promise<ResultsInputs> {
  const out = (await runScript(
    redis,
    READ,
    [keys.poll, keys.counters, keys.recent],
    [knownState, withHash ? '1' : '0'],
  )) as [string | null, string | null, string | null, string[] | null];
  return {
    pollJson: out[0] ?? null,
    recentJson: out[1] ?? null,
    countersState: out[2] ?? null,
    counterPairs: out[3] ?? null,
  };
}

/** What {@link ResultsStore.read} answers: {@link ResultsInputs} with the hash as a snapshot. */
export interface ResultsRead {
  pollJson: string | null;
  recentJson: string | null;
  countersState: string | null;
  /** The counters; null when missing or when their state is the caller's `knownState`. */
  counters: CounterSnapshot | null;
}

/**
 * The Redis side of results reads (docs/polls.md, "Results cache"): the one-round-trip read of
 * their inputs, the cache of a poll's recent comments (`<prefix>rc:<poll id>`, 5 minutes), and
 * the lock of whoever records missing milestones (`<prefix>ml:<poll id>`, 5 s).
 */
export class ResultsStore {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly keys: { poll: (pollId: string) => string; counters: (pollId: string) => string };

  /** `keys`: where PollsRepo caches a poll and where Counters keeps its hash. */
  constructor(
    redis: Redis,
    prefix: string,
    keys: { poll: (pollId: string) => string; counters: (pollId: string) => string },
  ) {
    this.redis = redis;
    this.prefix = prefix;
    this.keys = keys;
  }

  /** Redis key of a poll's cached recent comments (JSON). */
  recentKey(pollId: string): string {
    return `${this.prefix}rc:${pollId}`;
  }

  /**
   * The inputs of one results read ({@link fetchResultsInputs}), the hash parsed (none when
   * `withHash` is false: the counters' state alone). One round trip.
   */
  async read(pollId: string, knownState: string, withHash = true): Promise<ResultsRead> {
    const raw = await fetchResultsInputs(
      this.redis,
      { poll: this.keys.poll(pollId), counters: this.keys.counters(pollId), recent: this.recentKey(pollId) },
      knownState,
      withHash,
    );
    return {
      pollJson: raw.pollJson,
      recentJson: raw.recentJson,
      countersState: raw.countersState,
      counters: raw.counterPairs ? snapshotOfPairs(raw.counterPairs) : null,
    };
  }

  /** Caches a poll's recent comments (the JSON of their views) for 5 minutes. */
  async storeRecent(pollId: string, json: string): Promise<void> {
    await this.redis.set(this.recentKey(pollId), json, { EX: 300 });
  }

  /** Drops a poll's cached recent comments (a comment was added or deleted). */
  async dropRecent(pollId: string): Promise<void> {
    await this.redis.del(this.recentKey(pollId));
  }

  /** Whether this reader may record a poll's missing milestones now (one at a time, 5 s at most). */
  async claimMilestones(pollId: string): Promise<boolean> {
    return (await this.redis.set(`${this.prefix}ml:${pollId}`, '1', { NX: true, PX: 5_000 })) === 'OK';
  }
}
