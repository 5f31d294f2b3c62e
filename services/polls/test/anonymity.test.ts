import { createHash } from 'node:crypto';
import { expect } from 'chai';
import request from 'supertest';
import { readerOf } from '../src/domain/vote-rules.ts';
import {
  alice,
  crowd,
  pollBody,
  startHarness,
  votesFor,
  type PollBody,
  type PollsHarness,
} from './harness.ts';

/**
 * How many anonymous verified ballots the test casts: issue 37's 1,000 (docs/polls.md,
 * "Anonymous but verified": the whole test takes about 20 s on the 2-core machine).
 */
const BALLOTS = 1000;
/** Ballots sent at once. */
const CONCURRENCY = 16;

/** Everything that identifies one voter, as the test gave or the service derived it. */
interface VoterIds {
  email: string;
  inviteeId: string;
  tokens: string[];
  tokenHashes: string[];
  userId: number | null;
  ip: string;
  fingerprint: string;
  /** `u:<user id>` or `f:<hash of fingerprint and IP>`: what an ordinary vote would store. */
  voterKey: string;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
/** The identifier-like words of a text (ids, tokens, hashes, addresses, keys). */
const words = (text: string) => text.split(/[^A-Za-z0-9_\-.@:+]+/).filter((w) => w.length > 0);

/**
 * Issue 37's anonymity bar (docs/polls.md, "Anonymous but verified"), for each kind of poll: after
 * 1,000 anonymous verified ballots (for invitees: half by signed-in users, half by anonymous
 * callers with a fingerprint, half with the invitation's link, half with a reminder's; of
 * signed-in users: each its own user, with a fingerprint too; every voter from its own IP), a dump of the polls
 * database (every collection), of Redis (every key of the service and its value), of the outbox
 * and of every log line the service wrote has no record that joins a ballot to a voter: every
 * voter identifier is looked for in every stored ballot, webhook message, Redis entry and log
 * line, and every receipt in every record that names a voter. Real MongoDB/FerretDB and Redis.
 */
/** The two kinds of anonymous verified polls: for invitees (links), and of signed-in users. */
const MODES = ['invitees', 'signed-in users'] as const;

for (const mode of MODES)
  describe(`anonymous but verified, ${mode}: no stored ballot, message, key or log line joins a ballot to a voter (real MongoDB/FerretDB and Redis)`, function () {
    const invited = mode === 'invitees';
    this.timeout(180_000);
    let h: PollsHarness;
    let poll: PollBody;
    const logLines: string[] = [];
    const voters: VoterIds[] = [];
    const receipts: string[] = [];

    /** Invites BALLOTS addresses and reminds them all: two links each. */
    const inviteAll = async () => {
      const emails = Array.from({ length: BALLOTS }, (_, i) => `voter${i}@example.test`);
      await request(h.app)
        .post(`/api/polls/${poll.id}/invitees`)
        .set('Authorization', h.auth(alice))
        .send({ emails })
        .expect(201);
      const reminded = await request(h.app)
        .post(`/api/polls/${poll.id}/invitees/remind`)
        .set('Authorization', h.auth(alice))
        .expect(200);
      expect(reminded.body.data.reminded + reminded.body.data.remaining).to.equal(BALLOTS);
      // The rest of the reminders (500 per request).
      while (
        (
          await request(h.app)
            .post(`/api/polls/${poll.id}/invitees/remind`)
            .set('Authorization', h.auth(alice))
        ).body.data.remaining > 0
      );

      const mails = await h.db
        .collection('outbox')
        .find({ 'message.type': 'email.requested' })
        .sort({ created_at: 1 })
        .toArray();
      const tokensByEmail = new Map<string, string[]>();
      for (const m of mails) {
        const data = m.message.data as { to: string[]; text: string };
        const token = /#invite=([A-Za-z0-9_-]+)/.exec(data.text)![1]!;
        tokensByEmail.set(data.to[0]!, [...(tokensByEmail.get(data.to[0]!) ?? []), token]);
      }
      const invitees = await h.db.collection('poll_invitees').find({ poll_id: poll.id }).toArray();
      for (const [i, email] of emails.entries()) {
        const inv = invitees.find((d) => d.email === email)!;
        const tokens = tokensByEmail.get(email)!;
        expect(tokens, email).to.have.length.greaterThan(1); // invitation and reminder(s)
        const userId = i % 2 === 0 ? crowd(i) : null;
        const ip = `10.77.${i >> 8}.${i & 255}`;
        const fingerprint = `fp-${i}-${sha256(email).slice(0, 12)}`;
        const reader = readerOf({ userId, name: null, email: null, ip }, fingerprint)!;
        voters.push({
          email,
          inviteeId: String(inv._id),
          tokens,
          tokenHashes: tokens.map(sha256),
          userId,
          ip,
          fingerprint,
          voterKey: reader.key,
        });
      }
    };

    before(async () => {
      h = await startHarness();
      // Every log line the service writes, at every level (the access log included).
      const logger = h.context.logger;
      for (const t of logger.transports) t.silent = !process.env.TEST_LOG_LEVEL;
      logger.silent = false;
      logger.level = 'silly';
      logger.on('data', (info: unknown) => logLines.push(JSON.stringify(info)));

      poll = await h.createPoll(
        alice,
        pollBody(
          invited ? { voters: 'invited', anonymous: true } : { access: 'authenticated', anonymous: true },
        ),
      );
      // A webhook subscription: every counted ballot writes a poll.vote.counted outbox message.
      await request(h.app)
        .post(`/api/polls/${poll.id}/webhooks`)
        .set('Authorization', h.auth(alice))
        .send({ url: 'https://hooks.example.test/votes', events: ['poll.vote.counted'] })
        .expect(201);
      if (invited) await inviteAll();
      else
        for (let i = 0; i < BALLOTS; i++) {
          const userId = crowd(i);
          const ip = `10.78.${i >> 8}.${i & 255}`;
          const fingerprint = `fp-u${i}-${sha256(String(userId)).slice(0, 12)}`;
          const reader = readerOf({ userId, name: null, email: null, ip }, fingerprint)!;
          voters.push({
            email: '',
            inviteeId: `${poll.id}:${userId}`,
            tokens: [],
            tokenHashes: [],
            userId,
            ip,
            fingerprint,
            voterKey: reader.key,
          });
        }

      const started = Date.now();
      let next = 0;
      const worker = async () => {
        while (next < voters.length) {
          const i = next++;
          const v = voters[i]!;
          const res = await request(h.app)
            .post(`/api/polls/${poll.id}/ballots`)
            .set('Authorization', h.auth(v.userId ?? undefined, v.ip))
            .set('X-Voter-Fingerprint', v.fingerprint)
            .set('Idempotency-Key', `key-${v.fingerprint}`)
            .send({
              ...(invited ? { token: v.tokens[i % v.tokens.length]! } : {}),
              votes: votesFor(poll, [i % 3, i % 2, (i >> 1) % 2]),
            });
          expect(res.status, JSON.stringify(res.body)).to.equal(201);
          receipts.push(res.body.data.ballot_id as string);
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      console.log(`      ${BALLOTS} anonymous verified ballots in ${Date.now() - started} ms`);
      // Every voter checks their receipt (the check sends it in a body, never a URL).
      for (const r of receipts.slice(0, 50))
        await request(h.app)
          .post(`/api/polls/${poll.id}/ballot-ids/check`)
          .set('Authorization', h.auth())
          .send({ ballot_id: r })
          .expect(200);
    });
    after(async () => {
      await h?.stop();
    });

    /** Every document of every collection of the polls database, as JSON, by collection. */
    const dumpDatabase = async () => {
      const out: Record<string, string[]> = {};
      for (const { name } of await h.db.listCollections().toArray())
        out[name] = (await h.db.collection(name).find({}).toArray()).map((d) => JSON.stringify(d));
      return out;
    };
    /** Every Redis key of this service (its prefix) with its value, as JSON lines. */
    const dumpRedis = async () => {
      const out: string[] = [];
      for (const key of await h.redis.keys(`${h.prefix}*`)) {
        const type = await h.redis.type(key);
        const value =
          type === 'hash'
            ? await h.redis.hGetAll(key)
            : type === 'set'
              ? await h.redis.sMembers(key)
              : type === 'zset'
                ? await h.redis.zRangeWithScores(key, 0, -1)
                : type === 'list'
                  ? await h.redis.lRange(key, 0, -1)
                  : type === 'string'
                    ? await h.redis.get(key)
                    : `<${type}>`;
        out.push(JSON.stringify({ key, type, value }));
      }
      return out;
    };

    it('counts one ballot per voter, and the published list holds every receipt', async () => {
      expect(new Set(receipts).size).to.equal(BALLOTS);
      const listed: string[] = [];
      let after: string | null = null;
      do {
        const res: request.Response = await request(h.app)
          .get(`/api/polls/${poll.id}/ballot-ids${after ? `?after=${after}` : ''}`)
          .set('Authorization', h.auth())
          .expect(200);
        listed.push(...(res.body.data.ballot_ids as string[]));
        after = res.body.data.next_after as string | null;
      } while (after);
      expect([...listed].sort()).to.deep.equal([...receipts].sort());
      if (invited) {
        const again = await request(h.app)
          .post(`/api/polls/${poll.id}/ballots`)
          .set('Authorization', h.auth())
          .send({ token: voters[0]!.tokens[1]!, votes: votesFor(poll) })
          .expect(403);
        expect(again.body.reason).to.equal('used');
      } else {
        const again = await request(h.app)
          .post(`/api/polls/${poll.id}/ballots`)
          .set('Authorization', h.auth(voters[0]!.userId!))
          .send({ votes: votesFor(poll) })
          .expect(422);
        expect(again.body.code).to.equal('ballot_already_cast');
        expect(await h.db.collection('ballot_register').countDocuments({ poll_id: poll.id })).to.equal(
          BALLOTS,
        );
      }
      const res = await request(h.app)
        .get(`/api/polls/${poll.id}/results`)
        .set('Authorization', h.auth())
        .expect(200);
      expect(res.body.data.total_votes).to.equal(BALLOTS);
    });

    it('stores ballots with no voter field and no time finer than the hour', async () => {
      const ballots = await h.db.collection('votes').find({ poll_id: poll.id }).toArray();
      expect(ballots).to.have.length(BALLOTS);
      const allowed = [
        '_id',
        'poll_id',
        'voter_key',
        'seq',
        'choices',
        'option_ids',
        'voter_name',
        'time_spent',
        'user_id',
        'hour',
        'created_at',
      ];
      for (const b of ballots) {
        expect(Object.keys(b)).to.have.members(allowed);
        expect(b).to.include({
          voter_key: `b:${String(b._id)}`,
          seq: 1,
          voter_name: null,
          user_id: null,
          time_spent: null,
        });
        expect(b.created_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:00:00\.000Z$/);
        expect(b.hour).to.match(/T\d\d:00:00Z$/);
      }
    });

    it('no ballot, message, Redis entry or log line holds any voter identifier; no record naming a voter holds a receipt', async () => {
      const db = await dumpDatabase();
      const redis = await dumpRedis();
      expect(db.votes, 'ballots').to.have.length(BALLOTS);
      const outbox = db.outbox ?? [];
      const webhookMessages = outbox.filter((m) => m.includes('"webhook.poll.vote.counted"'));
      expect(webhookMessages, 'one poll.vote.counted message per ballot').to.have.length(BALLOTS);
      const invitations = outbox.filter((m) => m.includes('"email.requested"'));
      expect(invitations.length).to.be.greaterThanOrEqual(invited ? 2 * BALLOTS : 0);
      expect(redis.length, 'redis keys').to.be.greaterThan(0);
      expect(logLines.length, 'log lines').to.be.greaterThan(BALLOTS);

      // Records that may hold a voter's identity: the registers (invitees, signed-in voters) and
      // the invitation and reminder e-mails. Everything else is checked for every identifier.
      const registers = ['poll_invitees', 'ballot_register'];
      const naming = [...registers.flatMap((name) => db[name] ?? []), ...invitations];
      expect(naming.length, 'register entries').to.be.greaterThanOrEqual(BALLOTS);
      const others = [
        ...Object.entries(db)
          .filter(([name]) => !registers.includes(name))
          .flatMap(([, docs]) => docs)
          .filter((d) => !d.includes('"email.requested"')),
        ...redis,
        ...logLines,
      ];
      const ballotsAndMessages = [...db.votes!, ...webhookMessages];

      const ids = voters
        .flatMap((v) => [
          v.email,
          v.inviteeId,
          ...v.tokens,
          ...v.tokenHashes,
          v.ip,
          v.fingerprint,
          v.voterKey,
          ...(v.userId !== null ? [`u:${v.userId}`] : []),
        ])
        .filter((id) => id !== '');
      // 1. Every identifier in every stored ballot and message, as a substring.
      const ballotText = ballotsAndMessages.join('\n');
      for (const id of ids)
        expect(ballotText.includes(id), `identifier ${id} in a ballot or message`).to.equal(false);
      // ... and no user id in a user-id field of any of them.
      for (const text of ballotsAndMessages) {
        for (const m of text.matchAll(/"(?:user_id|userId)":(\d+)/g))
          expect.fail(`a ballot or message carries a user id: ${m[0]} in ${text.slice(0, 200)}`);
        expect(text).to.not.match(
          /"(?:email|voter_email|fingerprint|voter_fingerprint|ip|token|invitee_id)"/,
        );
      }
      // 2. Every identifier in every other record and log line, word by word.
      const idSet = new Set(ids);
      for (const text of others)
        for (const w of words(text))
          expect(idSet.has(w), `identifier ${w} in ${text.slice(0, 300)}`).to.equal(false);
      // A log line may name a signed-in user (userId) only when it names no ballot.
      const receiptSet = new Set(receipts);
      for (const line of logLines)
        if (/"userId":/.test(line))
          expect(
            words(line).some((w) => receiptSet.has(w)),
            line,
          ).to.equal(false);
      // 3. Every receipt in every record that names a voter.
      const namingText = naming.join('\n');
      for (const r of receipts) expect(namingText.includes(r), `receipt ${r} beside a voter`).to.equal(false);
    });
  });
