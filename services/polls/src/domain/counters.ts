import { randomBytes } from 'node:crypto';
import { runScript, type Redis } from '../data/redis.ts';

/**
 * Live counters of one poll in one Redis hash (docs/polls.md, "Counters"): `total`, `voters`,
 * `comments`, `o:<option id>`, `r:<reaction type>`, `h:<UTC hour>` (votes per hour) and
 * `t:<seconds>` (histogram of time_spent), plus `gen`, the id of the rebuild that created it,
 * and `rev`, bumped by every change (`gen:rev` names one state of the hash: the results cache
 * checks it).
 */
export type CounterFields = Record<string, number>;

/**
 * Applies deltas only to the generation the writer saw before its MongoDB write. Without a
 * hash, or when another generation replaced it, the change may or may not be in the next
 * rebuild: bump the version (a rebuild in progress retries) and drop a newer hash.
 * ARGV: generation, number of delta pairs n, n (field, delta) pairs, then the fields to read
 * back. Returns their values after the change (HMGET, read in the same atomic step) or nil.
 */
const APPLY = `
local gen = redis.call('HGET', KEYS[1], 'gen')
if gen and gen == ARGV[1] then
  local n = tonumber(ARGV[2])
  for i = 3, 2 + 2 * n, 2 do redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1]) end
  if n > 0 then redis.call('HINCRBY', KEYS[1], 'rev', 1) end
  local fields = {}
  for i = 3 + 2 * n, #ARGV do fields[#fields + 1] = ARGV[i] end
  if #fields == 0 then return {} end
  return redis.call('HMGET', KEYS[1], unpack(fields))
end
if gen then redis.call('DEL', KEYS[1]) end
redis.call('INCR', KEYS[2])
return false`;

/** Writes a rebuilt hash unless one exists (0) or a change happened since the rebuild began (-1). */
const REBUILD = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local v = redis.call('GET', KEYS[2]) or '0'
if v ~= ARGV[1] then return -1 end
redis.call('HSET', KEYS[1], 'gen', ARGV[2])
for i = 3, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
return 1`;

/** A snapshot of a poll's counters. */
export interface CounterSnapshot {
  total: number;
  voters: number;
  comments: number;
  options: Record<string, number>;
  reactions: Record<string, number>;
  hours: Record<string, number>;
  /** time_spent in seconds to how many votes reported it. */
  timeSpent: Record<string, number>;
}

const emptySnapshot = (): CounterSnapshot => ({
  total: 0,
  voters: 0,
  comments: 0,
  options: {},
  reactions: {},
  hours: {},
  timeSpent: {},
});

/** Adds one hash field to a snapshot (`gen`, `rev` and unknown fields are left out). */
function put(s: CounterSnapshot, k: string, n: number): void {
  if (k === 'total' || k === 'voters' || k === 'comments') s[k] = n;
  else if (k.startsWith('o:')) s.options[k.slice(2)] = n;
  else if (k.startsWith('r:')) s.reactions[k.slice(2)] = n;
  else if (k.startsWith('h:')) s.hours[k.slice(2)] = n;
  else if (k.startsWith('t:')) s.timeSpent[k.slice(2)] = n;
}

/** Reads the fields of a counter hash into a snapshot. */
export function snapshotOf(fields: Record<string, string | number>): CounterSnapshot {
  const s = emptySnapshot();
  for (const k in fields) put(s, k, Number(fields[k]));
  return s;
}

/** Reads a counter hash as a raw `HGETALL` reply (field, value, field, value...) into a snapshot. */
export function snapshotOfPairs(pairs: readonly string[]): CounterSnapshot {
  const s = emptySnapshot();
  for (let i = 0; i + 1 < pairs.length; i += 2) put(s, pairs[i]!, Number(pairs[i + 1]));
  return s;
}

/**
 * The counters of every poll. `recount(pollId)` gives the exact values from MongoDB; a read
 * that finds no hash rebuilds it from there, so results never scan votes except after a loss.
 */
export class Counters {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly recount: (pollId: string) => Promise<CounterFields>;

  constructor(redis: Redis, prefix: string, recount: (pollId: string) => Promise<CounterFields>) {
    this.redis = redis;
    this.prefix = prefix;
    this.recount = recount;
  }

  /** Redis key of a poll's counter hash (tests delete it to simulate a loss). */
  key(pollId: string): string {
    return `${this.prefix}c:${pollId}`;
  }

  private versionKey(pollId: string): string {
    return `${this.prefix}cv:${pollId}`;
  }

  /** The generation to pass to {@link apply}; read it BEFORE the MongoDB write it counts. */
  async generation(pollId: string): Promise<string> {
    return (await this.redis.hGet(this.key(pollId), 'gen')) ?? '';
  }

  /**
   * Adds `deltas` after a MongoDB write and reads back the `read` fields (`total`, `o:<option
   * id>`...) in the same atomic step. Resolves with a snapshot holding only those fields (the
   * others are absent: zero), or null when the counters must be rebuilt (the next {@link read}
   * does it). Reading a few fields instead of the whole hash keeps a vote's reply small: the
   * hash also holds a field per hour and per time_spent value.
   */
  async apply(
    pollId: string,
    seenGen: string,
    deltas: CounterFields,
    read: readonly string[],
  ): Promise<CounterSnapshot | null> {
    const pairs: string[] = [];
    for (const [k, v] of Object.entries(deltas)) if (v !== 0) pairs.push(k, String(v));
    const args = [seenGen, String(pairs.length / 2), ...pairs, ...read];
    const out = await runScript(this.redis, APPLY, [this.key(pollId), this.versionKey(pollId)], args);
    if (!Array.isArray(out)) return null;
    const fields: Record<string, string> = {};
    read.forEach((f, i) => {
      if (out[i] != null) fields[f] = String(out[i]);
    });
    return snapshotOf(fields);
  }

  /** The current counters; rebuilds them from MongoDB when the hash is missing. */
  async read(pollId: string): Promise<CounterSnapshot> {
    const fields = await this.redis.hGetAll(this.key(pollId));
    if (fields.gen) return snapshotOf(fields);
    return this.rebuild(pollId);
  }

  /** Recomputes the counters from MongoDB and stores them unless a write raced the recount. */
  async rebuild(pollId: string): Promise<CounterSnapshot> {
    let counted: CounterFields = {};
    for (let attempt = 0; attempt < 5; attempt++) {
      const version = (await this.redis.get(this.versionKey(pollId))) ?? '0';
      counted = await this.recount(pollId);
      const args = [version, randomBytes(8).toString('hex')];
      for (const [k, v] of Object.entries(counted)) args.push(k, String(v));
      const r = Number(
        await runScript(this.redis, REBUILD, [this.key(pollId), this.versionKey(pollId)], args),
      );
      if (r === 1) return snapshotOf(counted);
      if (r === 0) {
        const fields = await this.redis.hGetAll(this.key(pollId));
        if (fields.gen) return snapshotOf(fields);
      }
    }
    // Under a burst of writes: answer the exact recount, the next read tries again.
    return snapshotOf(counted);
  }

  /** Forgets a poll's counters (poll deleted). */
  async drop(pollId: string): Promise<void> {
    await this.redis.del([this.key(pollId), this.versionKey(pollId)]);
  }
}
