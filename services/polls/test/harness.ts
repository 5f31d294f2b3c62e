import { randomBytes } from 'node:crypto';
import { get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { MongoClient, type Db } from 'mongodb';
import type { Redis } from '../src/data/redis.ts';
import { createPollsRedis } from '../src/data/redis.ts';
import request from 'supertest';
import { registry } from '@fieldhouse/http';
import {
  backingUrl,
  createTestIssuer,
  onServerSentEvents,
  testLogger,
  type TestIssuer,
} from '@fieldhouse/testkit';
import { createPollsApp, ensureIndexes } from '../src/index.ts';
import type { PollsContext, PollsSettings } from '../src/domain/context.ts';

export interface PollsHarness {
  app: Express;
  db: Db;
  redis: Redis;
  prefix: string;
  context: PollsContext;
  issuer: TestIssuer;
  /** `Authorization` header value for a user (or anonymous with `ip`). */
  auth: (userId?: number, ip?: string) => string;
  createPoll: (userId: number, body?: object) => Promise<PollBody>;
  stop: () => Promise<void>;
}

export interface PollBody {
  id: string;
  sections: Array<{ id: string; title: string; options: Array<{ id: string; label: string }> }>;
  settings: Record<string, unknown>;
}

/**
 * The named users of the tests (their user ids in the gateway's JWT, for `auth` and
 * `createPoll`): alice usually owns the poll, the others vote, react, comment or are strangers.
 */
export const alice = 1;
export const bob = 2;
export const carol = 3;
export const dave = 4;
export const erin = 5;
export const frank = 6;
export const grace = 7;
export const heidi = 8;
export const ivan = 9;
export const judy = 10;
export const mallory = 11;
export const niaj = 12;
export const olivia = 13;
export const peggy = 14;
export const rupert = 15;
export const sybil = 16;
export const trent = 17;

/** The user id of the `i`-th voter of a crowd (`group` keeps two crowds of one test apart). */
export const crowd = (i: number, group = 0): number => 1000 * (group + 1) + i;

/** A three-section poll body. */
export const pollBody = (settings: object = {}) => ({
  title: 'Team lunch',
  description: 'Where and when',
  sections: [
    { title: 'Place', options: [{ label: 'Pizza' }, { label: 'Sushi' }, { label: 'Tacos' }] },
    { title: 'Day', options: [{ label: 'Monday' }, { label: 'Friday' }] },
    { title: 'Time', options: [{ label: 'Noon' }, { label: 'One' }] },
  ],
  settings,
});

/** The polls app on a fresh MongoDB database and a unique Redis key prefix. */
export async function startHarness(
  settings: Partial<PollsSettings> = {},
  opts: { redisUrl?: string } = {},
): Promise<PollsHarness> {
  const mongo = await MongoClient.connect(await backingUrl('mongo'));
  const db = mongo.db(`t_polls_${randomBytes(4).toString('hex')}`);
  await ensureIndexes(db);
  const redis = createPollsRedis(opts.redisUrl ?? (await backingUrl('redis')), testLogger('redis'));
  await redis.connect();
  const prefix = `t:${randomBytes(4).toString('hex')}:`;
  const issuer = createTestIssuer();
  const made = createPollsApp({
    logger: testLogger('polls'),
    mongo: db,
    redis,
    keys: issuer.keys,
    issuer: issuer.issuer,
    bodyLimit: '1mb',
    redisPrefix: prefix,
    settings,
  });
  const auth = (userId?: number, ip = '10.0.0.1') =>
    `Bearer ${issuer.sign('polls', userId === undefined ? undefined : { id: userId }, { ip })}`;
  return {
    app: made.app,
    db,
    redis,
    prefix,
    context: made.context,
    issuer,
    auth,
    createPoll: async (userId, body = pollBody()) => {
      const res = await request(made.app)
        .post('/api/polls')
        .set('Authorization', auth(userId))
        .send(body)
        .expect(201);
      return res.body.data as PollBody;
    },
    stop: async () => {
      await made.close();
      if (redis.isReady) {
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length) await redis.del(keys);
      }
      await redis.close().catch(() => undefined);
      await db.dropDatabase().catch(() => undefined);
      await mongo.close();
    },
  };
}

/** A vote body choosing the option at `pick[i]` in section i. */
export const votesFor = (poll: PollBody, pick: number[] = []) =>
  Object.fromEntries(poll.sections.map((s, i) => [s.id, s.options[pick[i] ?? 0]!.id]));

/** A live-results stream open on a listening app: its `results` events so far, and its response. */
export interface ResultsViewer<T = Record<string, unknown>> {
  events: T[];
  res: IncomingMessage;
}

/**
 * Listens on a free loopback port for tests that need real sockets (live streams): the base URL
 * and `close()` (ends open streams first).
 */
export async function listenOn(app: Express): Promise<{ base: string; close: () => Promise<void> }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** Opens a live-results stream (`path` under `base`) as `authorization` and collects its `results` events. */
export function viewResults<T = Record<string, unknown>>(
  base: string,
  path: string,
  authorization: string,
): Promise<ResultsViewer<T>> {
  return new Promise((resolve, reject) => {
    const events: T[] = [];
    get(`${base}${path}`, { headers: { authorization } }, (res) => {
      onServerSentEvents(res, (e) => {
        if (e.event === 'results') events.push(JSON.parse(e.data) as T);
      });
      resolve({ events, res });
    }).on('error', reject);
  });
}

/**
 * A counter of this process's metrics registry (what /metrics shows) by the values of one label:
 * each of `values` present, 0 when not counted yet.
 */
export async function countsBy<K extends string>(
  name: string,
  label: string,
  values: readonly K[],
): Promise<Record<K, number>> {
  const metric = registry.getSingleMetric(name);
  const counted = metric ? (await metric.get()).values : [];
  return Object.fromEntries(
    values.map((v) => [v, counted.find((c) => c.labels[label] === v)?.value ?? 0]),
  ) as Record<K, number>;
}
