import { randomBytes } from 'node:crypto';
import type { CounterFields, CounterSnapshot, Reservation } from '../domain/types.ts';
import { runScript, type Redis } from './redis.ts';

// The Redis side of the counters (docs/polls.md, "Counters"; their fields: domain/types.ts,
// `CounterFields`): the Lua scripts that keep them exact without transactions, and their calls.

/**
 * Applies deltas only to the generation the writer saw before its MongoDB write. Without a
 * hash, or when another generation replaced it, the change may or may not be in the next
 * rebuild: bump the version (a rebuild in progress retries) and drop a newer hash.
 * KEYS: the hash, its version key, the uncounted-votes set. ARGV: generation, the vote's
 * marker in the uncounted set ('' for changes that have none: comments, reactions), number of
 * delta pairs n, n (field, delta) pairs, then the fields to read back. A marker that is no
 * longer in the set was settled by the reconciler: nothing is applied (exactly once) and the
 * fields are read back. Returns their values after the change (HMGET, read in the same atomic
 * step) or false when the counters must be rebuilt.
 */
const APPLY = `
local marker = ARGV[2]
local n = tonumber(ARGV[3])
local fields = {}
for i = 4 + 2 * n, #ARGV do fields[#fields + 1] = ARGV[i] end
local gen = redis.call('HGET', KEYS[1], 'gen')
if marker ~= '' and redis.call('ZREM', KEYS[3], marker) == 0 then
  if not gen then return false end
  if #fields == 0 then return {} end
  return redis.call('HMGET', KEYS[1], unpack(fields))
end
if gen and gen == ARGV[1] then
  for i = 4, 3 + 2 * n, 2 do redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1]) end
  if n > 0 then redis.call('HINCRBY', KEYS[1], 'rev', 1) end
  if #fields == 0 then return {} end
  return redis.call('HMGET', KEYS[1], unpack(fields))
end
if gen then redis.call('DEL', KEYS[1]) end
redis.call('INCR', KEYS[2])
return false`;

/**
 * Reserves the counting of one vote before its MongoDB write: reads the generation and, when
 * there is one, records `ARGV[1]`..`|<gen>` in the uncounted set scored by `ARGV[2]` (epoch ms).
 * KEYS: the hash, the uncounted set. Returns the generation, or false (no counters: rebuild).
 */
const RESERVE = `
local gen = redis.call('HGET', KEYS[1], 'gen')
if not gen then return false end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1] .. '|' .. gen)
return gen`;

/** Writes a rebuilt hash unless one exists (0) or a change happened since the rebuild began (-1). */
const REBUILD = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local v = redis.call('GET', KEYS[2]) or '0'
if v ~= ARGV[1] then return -1 end
redis.call('HSET', KEYS[1], 'gen', ARGV[2])
for i = 3, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
return 1`;

/** Releases the rebuild lock if this rebuilder still holds it (KEYS[1] lock, ARGV[1] token). */
const UNLOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

const emptySnapshot = (): CounterSnapshot => ({
  total: 0,
  voters: 0,
  comments: 0,
  options: {},
  reactions: {},
  hours: {},
  timeSpent: {},
  tallies: {},
});

/** Adds one hash field to a snapshot (`gen`, `rev` and unknown fields are left out). */
function put(s: CounterSnapshot, k: string, n: number): void {
  if (k === 'total' || k === 'voters' || k === 'comments') s[k] = n;
  else if (k.startsWith('o:')) s.options[k.slice(2)] = n;
  else if (k.startsWith('r:')) s.reactions[k.slice(2)] = n;
  else if (k.startsWith('h:')) s.hours[k.slice(2)] = n;
  else if (k.startsWith('t:')) s.timeSpent[k.slice(2)] = n;
  else if (k.startsWith('k:') || k.startsWith('m:') || k.startsWith('n:')) s.tallies[k] = n;
}

/** Reads the fields of a counter hash into a snapshot. */
function snapshotOf(fields: Record<string, string | number>): CounterSnapshot {
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

/** Timing of rebuilds (ms); tests shorten them. */
export interface RebuildTiming {
  /** Lifetime of the cross-replica rebuild lock (a crashed rebuilder's lock expires). */
  lockMs: number;
  /** How often a replica waiting for another's rebuild looks at the hash. */
  pollMs: number;
  /** How long a reader waits for another replica's rebuild before recounting itself. */
  waitMs: number;
}

const DEFAULT_TIMING: RebuildTiming = { lockMs: 30_000, pollMs: 50, waitMs: 20_000 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The counters of every poll (docs/polls.md, "Counters" and "After a loss of Redis").
 * `recount(pollId)` gives the exact values from MongoDB; a read or write that finds no hash
 * waits for ONE rebuild of that poll: one per process (the others share its promise) and one
 * across replicas (a Redis lock; the other replicas wait for the hash to appear), so a loss of
 * Redis costs one recount per poll, not one per request.
 *
 * Votes are counted in two steps, a MongoDB insert and then {@link apply}; a crash between
 * them is recovered by the uncounted set: {@link reserve} records the vote before its insert,
 * {@link apply} removes it in the same atomic step as the deltas, and {@link settle} (the
 * reconciler) counts what a crashed writer left, exactly once.
 */
export class Counters {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly recount: (pollId: string) => Promise<CounterFields>;
  private readonly timing: RebuildTiming;
  /** Rebuilds in progress in this process, by poll id. */
  private readonly rebuilding = new Map<string, Promise<CounterSnapshot>>();

  constructor(
    redis: Redis,
    prefix: string,
    recount: (pollId: string) => Promise<CounterFields>,
    timing: Partial<RebuildTiming> = {},
  ) {
    this.redis = redis;
    this.prefix = prefix;
    this.recount = recount;
    this.timing = { ...DEFAULT_TIMING, ...timing };
  }

  /** Redis key of a poll's counter hash (tests delete it to simulate a loss). */
  key(pollId: string): string {
    return `${this.prefix}c:${pollId}`;
  }

  private versionKey(pollId: string): string {
    return `${this.prefix}cv:${pollId}`;
  }

  private lockKey(pollId: string): string {
    return `${this.prefix}cl:${pollId}`;
  }

  /** Redis key of the sorted set of votes reserved but not yet counted (score: epoch ms). */
  get uncountedKey(): string {
    return `${this.prefix}uncounted`;
  }

  /**
   * The generation to pass to {@link apply}; read it BEFORE the MongoDB write it counts. When
   * the poll has no counters, waits for their rebuild first (writes made meanwhile would only
   * make the rebuild start over).
   */
  async generation(pollId: string): Promise<string> {
    const gen = await this.redis.hGet(this.key(pollId), 'gen');
    if (gen) return gen;
    await this.rebuild(pollId);
    return (await this.redis.hGet(this.key(pollId), 'gen')) ?? '';
  }

  /**
   * Reserves the counting of vote `voteId` before its MongoDB insert, in one round trip: the
   * generation to count it in, and its marker in the uncounted set. Null when the poll has no
   * counters (nothing is created: the id may name no poll). Pass the reservation to
   * {@link apply} after the insert, or to {@link release} when nothing was inserted.
   */
  async tryReserve(pollId: string, voteId: string): Promise<Reservation | null> {
    const member = `${pollId}|${voteId}`;
    const gen = await runScript(
      this.redis,
      RESERVE,
      [this.key(pollId), this.uncountedKey],
      [member, String(Date.now())],
    );
    return typeof gen === 'string' ? { marker: `${member}|${gen}`, generation: gen } : null;
  }

  /**
   * {@link tryReserve} for a poll known to exist: waits for the rebuild of its counters when
   * they are missing. Without counters even then (rebuilt and lost again), the reservation is
   * empty and {@link apply} asks for a rebuild, which counts the vote.
   */
  async reserve(pollId: string, voteId: string): Promise<Reservation> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const reservation = await this.tryReserve(pollId, voteId);
      if (reservation) return reservation;
      await this.rebuild(pollId);
    }
    return { marker: '', generation: '' };
  }

  /** Forgets a reservation whose vote was not inserted (refused, or a duplicate). */
  async release(reservation: Reservation): Promise<void> {
    if (reservation.marker) await this.redis.zRem(this.uncountedKey, reservation.marker);
  }

  /**
   * Adds `deltas` after a MongoDB write and reads back the `read` fields (`total`, `o:<option
   * id>`...) in the same atomic step. `seen` is the generation read before the write (or the
   * vote's reservation, whose marker is settled in the same step). Resolves with a snapshot
   * holding only those fields (the others are absent: zero), or null when the counters must be
   * rebuilt (the next {@link read} does it). Reading a few fields instead of the whole hash
   * keeps a vote's reply small: the hash also holds a field per hour and per time_spent value.
   */
  async apply(
    pollId: string,
    seen: string | Reservation,
    deltas: CounterFields,
    read: readonly string[],
  ): Promise<CounterSnapshot | null> {
    const pairs: string[] = [];
    for (const [k, v] of Object.entries(deltas)) if (v !== 0) pairs.push(k, String(v));
    const [gen, marker] = typeof seen === 'string' ? [seen, ''] : [seen.generation, seen.marker];
    const args = [gen, marker, String(pairs.length / 2), ...pairs, ...read];
    const out = await runScript(
      this.redis,
      APPLY,
      [this.key(pollId), this.versionKey(pollId), this.uncountedKey],
      args,
    );
    if (!Array.isArray(out)) return null;
    const fields: Record<string, string> = {};
    read.forEach((f, i) => {
      if (out[i] != null) fields[f] = String(out[i]);
    });
    return snapshotOf(fields);
  }

  /**
   * Reservations older than `olderThanMs`, oldest first, from the `offset`-th (at most `limit`),
   * each with when it was made (epoch ms): candidates for {@link settle}.
   */
  async staleReservations(
    olderThanMs: number,
    offset = 0,
    limit = 500,
  ): Promise<Array<Reservation & { reservedAt: number }>> {
    const members = await this.redis.zRangeByScoreWithScores(this.uncountedKey, 0, Date.now() - olderThanMs, {
      LIMIT: { offset, count: limit },
    });
    return members.map(({ value: marker, score }) => ({
      marker,
      generation: marker.slice(marker.lastIndexOf('|') + 1),
      reservedAt: score,
    }));
  }

  /**
   * Settles a reservation a writer left behind (it crashed between its MongoDB insert and
   * {@link apply}). `deltas`: the vote's deltas when it is in MongoDB, or null when it is not
   * (its insert never happened: the marker is just dropped). Exactly once: {@link apply} with
   * the marker counts nothing when the writer or another reconciler settled it first, and when
   * the counters were rebuilt since the reservation, they are dropped to be rebuilt again
   * (the vote may or may not have been in that recount). Resolves whether it counted the vote.
   */
  async settle(reservation: Reservation, deltas: CounterFields | null): Promise<boolean> {
    const pollId = reservation.marker.slice(0, reservation.marker.indexOf('|'));
    if (!deltas) {
      await this.release(reservation);
      return false;
    }
    return (await this.apply(pollId, reservation, deltas, [])) !== null;
  }

  /** The current counters; waits for their rebuild from MongoDB when the hash is missing. */
  async read(pollId: string): Promise<CounterSnapshot> {
    const fields = await this.redis.hGetAll(this.key(pollId));
    if (fields.gen) return snapshotOf(fields);
    return this.rebuild(pollId);
  }

  /**
   * The poll's counted votes (`total`) alone: one `HMGET`, without parsing the whole hash (the
   * shared participants list asks it on every read); the whole {@link read} when the hash is
   * missing (it rebuilds it).
   */
  async total(pollId: string): Promise<number> {
    const [gen, total] = await this.redis.hmGet(this.key(pollId), ['gen', 'total']);
    if (gen) return Number(total ?? 0);
    return (await this.read(pollId)).total;
  }

  /**
   * Rebuilds a poll's counters from MongoDB, once: concurrent callers in this process share
   * one rebuild, and across replicas the holder of the poll's rebuild lock recounts while the
   * others wait for its hash (or recount themselves, without storing, after `waitMs`).
   */
  rebuild(pollId: string): Promise<CounterSnapshot> {
    let running = this.rebuilding.get(pollId);
    if (!running) {
      running = this.rebuildOnce(pollId).finally(() => this.rebuilding.delete(pollId));
      this.rebuilding.set(pollId, running);
    }
    return running;
  }

  private async rebuildOnce(pollId: string): Promise<CounterSnapshot> {
    const deadline = Date.now() + this.timing.waitMs;
    const token = randomBytes(8).toString('hex');
    while (Date.now() < deadline) {
      const fields = await this.redis.hGetAll(this.key(pollId));
      if (fields.gen) return snapshotOf(fields);
      const locked = await this.redis.set(this.lockKey(pollId), token, { NX: true, PX: this.timing.lockMs });
      if (locked === 'OK') {
        try {
          return await this.recountAndStore(pollId);
        } finally {
          await runScript(this.redis, UNLOCK, [this.lockKey(pollId)], [token]).catch(() => undefined);
        }
      }
      await sleep(this.timing.pollMs);
    }
    return snapshotOf(await this.recount(pollId));
  }

  /** Recounts and stores unless a write raced the recount (then recounts again, up to 5 times). */
  private async recountAndStore(pollId: string): Promise<CounterSnapshot> {
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
