import { runScript, type Redis } from './redis.ts';

/**
 * What a results read needs from Redis, in one atomic step: the cached poll document (JSON),
 * the cached recent comments (JSON), the state of the counter hash (`gen:rev`, see
 * domain/counters.ts) and, only when that state is not the one the caller already has, the
 * whole hash. KEYS: poll, counters, recent comments. ARGV[1]: the state the caller has, or ''.
 */
const READ = `
local poll = redis.call('GET', KEYS[1])
local recent = redis.call('GET', KEYS[3])
local gr = redis.call('HMGET', KEYS[2], 'gen', 'rev')
if not gr[1] then return {poll, recent, false, false} end
local state = gr[1] .. ':' .. (gr[2] or '0')
if state == ARGV[1] then return {poll, recent, state, false} end
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
 * is sent only when it changed since.
 */
export async function fetchResultsInputs(
  redis: Redis,
  keys: { poll: string; counters: string; recent: string },
  knownState: string,
): Promise<ResultsInputs> {
  const out = (await runScript(redis, READ, [keys.poll, keys.counters, keys.recent], [knownState])) as [
    string | null,
    string | null,
    string | null,
    string[] | null,
  ];
  return {
    pollJson: out[0] ?? null,
    recentJson: out[1] ?? null,
    countersState: out[2] ?? null,
    counterPairs: out[3] ?? null,
  };
}
