import { expect } from 'chai';
import request from 'supertest';
import { eventually } from '@fieldhouse/testkit';
import { fullLoadSince, newestOf } from '../src/domain/public-participants.ts';
import { ensureIndexes } from '../src/index.ts';
import {
  hideStoredParticipantNames,
  PARTICIPANT_NAMES_MIGRATION,
} from '../src/migrations/participant-names.ts';
import {
  alice,
  countsBy,
  bob,
  carol,
  dave,
  pollBody,
  startHarness,
  votesFor,
  type PollBody,
  type PollsHarness,
} from './harness.ts';

/** `polls_participants_reads_total` by source, from the process registry (what /metrics shows). */
const readsBySource = () =>
  countsBy('polls_participants_reads_total', 'source', ['cache', 'stale', 'joined', 'loaded']);

/** `polls_participants_loads_total` by kind: full (every vote) or recent (a refresh). */
const loadsByKind = () => countsBy('polls_participants_loads_total', 'kind', ['full', 'recent']);

/**
 * Participants shown to voters (issue 37, part 1; docs/polls.md, "Participants shown to
 * voters"): `show_participant_names` lists who voted, with their choices, to everyone who may see
 * the results, and to nobody else; default off, and off for every poll stored before it existed.
 * Real MongoDB/FerretDB and Redis.
 */
describe('participants shown to voters (real MongoDB/FerretDB and Redis)', () => {
  let h: PollsHarness;
  before(async () => {
    // No staleness: each read after a new vote shows it (the bound has its own test below).
    h = await startHarness({ resultsMaxStaleMs: 0, participantsRefreshDuty: 0 });
  });
  after(async () => {
    await h?.stop();
  });

  const list = (poll: PollBody, auth: string, query = '') =>
    request(h.app).get(`/api/polls/${poll.id}/participants${query}`).set('Authorization', auth);
  const vote = (poll: PollBody, auth: string, body: object) =>
    request(h.app).post(`/api/polls/${poll.id}/vote`).set('Authorization', auth).send(body).expect(201);
  const shared = (settings: object = {}) =>
    h.createPoll(alice, pollBody({ show_participant_names: true, ...settings }));

  it('off by default: only the owner sees who voted (401 signed out, 403 forbidden)', async () => {
    const poll = await h.createPoll(alice, pollBody());
    expect(poll.settings).to.include({ show_participant_names: false });
    await vote(poll, h.auth(bob), { votes: votesFor(poll), voter_name: 'Bob' });
    expect((await list(poll, h.auth(carol)).expect(403)).body.code).to.equal('forbidden');
    expect((await list(poll, h.auth()).expect(401)).body.code).to.equal('unauthenticated');
    await list(poll, h.auth(alice)).expect(200);
  });

  it('on, results always visible: anyone, signed in or not, sees names and choices, nothing more', async () => {
    const poll = await shared();
    await vote(poll, h.auth(bob), { votes: votesFor(poll, [1, 0, 1]), voter_name: 'Bob B.' });
    await vote(poll, h.auth(undefined, '10.7.7.7'), {
      votes: votesFor(poll, [2, 1, 0]),
      voter_fingerprint: 'fp-guest',
      voter_name: 'Guest',
    });
    for (const auth of [h.auth(), h.auth(carol)]) {
      const res = await list(poll, auth).expect(200);
      expect(res.headers['cache-control']).to.equal('private, no-store');
      expect(res.body.pagination).to.include({ total: 2, current_page: 1 });
      expect(res.body.data.map((r: { voter_name: string }) => r.voter_name)).to.deep.equal([
        'Guest',
        'Bob B.',
      ]);
      expect(res.body.data[1]).to.deep.include({
        vote_id: null,
        user_id: null,
        time_spent: null,
        seq: 1,
        choices_hidden: false,
        votes: votesFor(poll, [1, 0, 1]),
      });
      // Nothing that names the account or the vote: the user id and the vote id are not there.
      const votes = await h.db.collection('votes').find({ poll_id: poll.id }).toArray();
      for (const v of votes) expect(JSON.stringify(res.body)).to.not.contain(String(v._id));
      expect(JSON.stringify(res.body.data)).to.not.match(new RegExp(`\\b${bob}\\b`));
    }
    // The owner still gets the whole row.
    const own = await list(poll, h.auth(alice)).expect(200);
    expect(own.body.data[1]).to.include({ user_id: bob });
    expect(own.body.data[1].vote_id).to.be.a('string');
    // Pages of the shared list.
    const second = await list(poll, h.auth(), '?per_page=1&page=2').expect(200);
    expect(second.body.data.map((r: { voter_name: string }) => r.voter_name)).to.deep.equal(['Bob B.']);
    expect(second.body.pagination).to.include({ total: 2, last_page: 2 });
    expect((await list(poll, h.auth(), '?per_page=0').expect(422)).body.errors).to.have.property('per_page');
  });

  it('after_vote: hidden (participants_hidden) until the reader has voted, by account or fingerprint', async () => {
    const poll = await shared({ results_visibility: 'after_vote' });
    await vote(poll, h.auth(bob), { votes: votesFor(poll), voter_name: 'Bob' });
    for (const [auth, query] of [
      [h.auth(carol), ''],
      [h.auth(), ''],
      [h.auth(undefined, '10.8.8.8'), '?voter_fingerprint=fp-later'],
    ] as const) {
      const refused = await list(poll, auth, query).expect(403);
      expect(refused.body).to.include({ code: 'participants_hidden', until: 'after_vote' });
      expect(refused.headers['content-type']).to.match(/problem\+json/);
    }
    await vote(poll, h.auth(carol), { votes: votesFor(poll) });
    expect((await list(poll, h.auth(carol)).expect(200)).body.pagination.total).to.equal(2);
    await vote(poll, h.auth(undefined, '10.8.8.8'), { votes: votesFor(poll), voter_fingerprint: 'fp-later' });
    await list(poll, h.auth(undefined, '10.8.8.8'), '?voter_fingerprint=fp-later').expect(200);
    await request(h.app)
      .get(`/api/polls/${poll.id}/participants`)
      .set('Authorization', h.auth(undefined, '10.8.8.8'))
      .set('X-Voter-Fingerprint', 'fp-later')
      .expect(200);
    // Still hidden from who has not voted, until the poll closes.
    await list(poll, h.auth(dave)).expect(403);
    await request(h.app).post(`/api/polls/${poll.id}/close`).set('Authorization', h.auth(alice)).expect(200);
    await list(poll, h.auth(dave)).expect(200);
  });

  it('after_close and owner_only: hidden until the close, and from everyone but the owner', async () => {
    const closing = await shared({ results_visibility: 'after_close' });
    await vote(closing, h.auth(bob), { votes: votesFor(closing), voter_name: 'Bob' });
    const early = await list(closing, h.auth(bob)).expect(403);
    expect(early.body).to.include({ code: 'participants_hidden', until: 'after_close' });
    await request(h.app)
      .post(`/api/polls/${closing.id}/close`)
      .set('Authorization', h.auth(alice))
      .expect(200);
    expect((await list(closing, h.auth()).expect(200)).body.data[0].voter_name).to.equal('Bob');

    const ownerOnly = await shared({ results_visibility: 'owner_only' });
    await vote(ownerOnly, h.auth(bob), { votes: votesFor(ownerOnly) });
    const refused = await list(ownerOnly, h.auth(bob)).expect(403);
    expect(refused.body).to.include({ code: 'participants_hidden', until: 'owner_only' });
    await list(ownerOnly, h.auth(alice)).expect(200);
  });

  it('refused where names would say more than voters were told: anonymous polls and polls of invitees (422, nothing changed)', async () => {
    const create = (settings: object) =>
      request(h.app)
        .post('/api/polls')
        .set('Authorization', h.auth(alice))
        .send(pollBody(settings))
        .expect(422);
    for (const settings of [
      { show_participant_names: true, voters: 'invited' },
      { show_participant_names: true, voters: 'invited', anonymous: true },
      { show_participant_names: true, access: 'authenticated', anonymous: true },
    ]) {
      const res = await create(settings);
      expect(res.body.errors).to.have.property('settings.show_participant_names');
    }
    const poll = await shared();
    const res = await request(h.app)
      .patch(`/api/polls/${poll.id}`)
      .set('Authorization', h.auth(alice))
      .send({ settings: { voters: 'invited' } })
      .expect(422);
    expect(res.body.errors).to.have.property('settings.show_participant_names');
    const stored = await h.db.collection('polls').findOne({ _id: poll.id as never });
    expect(stored!.settings).to.include({ voters: 'anyone', show_participant_names: true });
  });

  it('many readers at once cost one load of the votes; while a refresh runs, the others get the list it replaces', async () => {
    const poll = await shared();
    await vote(poll, h.auth(bob), { votes: votesFor(poll), voter_name: 'Bob' });
    const before = await readsBySource();
    const answers = await Promise.all(Array.from({ length: 20 }, () => list(poll, h.auth()).expect(200)));
    for (const a of answers) expect(a.body.pagination.total).to.equal(1);
    const after = await readsBySource();
    expect(after.loaded - before.loaded, 'one load for 20 readers').to.equal(1);
    expect(after.joined + after.cache - before.joined - before.cache).to.equal(19);
    await vote(poll, h.auth(carol), { votes: votesFor(poll), voter_name: 'Carol' });
    const before2 = await readsBySource();
    const again = await Promise.all(Array.from({ length: 20 }, () => list(poll, h.auth()).expect(200)));
    const after2 = await readsBySource();
    expect(after2.loaded - before2.loaded, 'one refresh for 20 readers').to.equal(1);
    expect(after2.stale + after2.cache - before2.stale - before2.cache).to.equal(19);
    const totals = again.map((a) => a.body.pagination.total as number);
    expect(totals, 'the reader who refreshed sees the new vote').to.include(2);
    for (const t of totals) expect(t).to.be.oneOf([1, 2]);
    const next = await list(poll, h.auth()).expect(200);
    expect(next.body.data.map((r: { voter_name: string }) => r.voter_name)).to.deep.equal(['Carol', 'Bob']);
  });

  it('a refresh reads the recent votes only; a vote it missed makes it read every vote again', async () => {
    const poll = await shared();
    const names = async () =>
      (await list(poll, h.auth()).expect(200)).body.data.map((r: { voter_name: string }) => r.voter_name);
    await vote(poll, h.auth(bob), { votes: votesFor(poll), voter_name: 'Bob' });
    let before = await loadsByKind();
    expect(await names()).to.deep.equal(['Bob']);
    let after = await loadsByKind();
    expect(after.full - before.full, 'the first read of the poll reads every vote').to.equal(1);

    await vote(poll, h.auth(carol), { votes: votesFor(poll), voter_name: 'Carol' });
    before = after;
    expect(await names()).to.deep.equal(['Carol', 'Bob']);
    after = await loadsByKind();
    expect(after).to.deep.equal({ full: before.full, recent: before.recent + 1 });

    // A counted vote stored with a time an hour before the newest listed one: the recent read
    // cannot see it, the counters say one more vote than the merged list holds, so the list is
    // read whole again.
    await h.db.collection('votes').insertOne({
      _id: `late-${poll.id}`,
      poll_id: poll.id,
      voter_key: 'f:late',
      seq: 1,
      choices: votesFor(poll),
      option_ids: [],
      voter_name: 'Late Lou',
      time_spent: null,
      user_id: null,
      created_at: new Date(Date.now() - 3_600_000).toISOString(),
      names_shown: true,
    } as never);
    await h.redis.hIncrBy(`${h.prefix}c:${poll.id}`, 'total', 1);
    before = after;
    expect(await names()).to.deep.equal(['Carol', 'Bob', 'Late Lou']);
    after = await loadsByKind();
    expect(after).to.deep.equal({ full: before.full + 1, recent: before.recent + 1 });
  });

  it('holds the newest 1,000 counted votes; at the cap too, a vote a refresh missed makes it read the poll whole', async () => {
    const poll = await shared();
    const t0 = Date.parse('2026-11-01T00:00:00.000Z');
    const stored = (id: string, at: number, name: string) => ({
      _id: id,
      poll_id: poll.id,
      voter_key: `f:${id}`,
      seq: 1,
      choices: votesFor(poll),
      option_ids: [],
      voter_name: name,
      time_spent: 3,
      user_id: null,
      hour: `${new Date(at).toISOString().slice(0, 13)}:00:00Z`,
      created_at: new Date(at).toISOString(),
      names_shown: true,
    });
    await h.db
      .collection('votes')
      .insertMany(
        Array.from({ length: 1005 }, (_, i) =>
          stored(`v-${String(i).padStart(5, '0')}`, t0 + i * 1000, `Voter ${i}`),
        ) as never[],
      );
    // Written to the store directly: the counters are told they are counted.
    await h.redis.hSet(`${h.prefix}c:${poll.id}`, 'total', 1005);
    const first = await list(poll, h.auth(), '?per_page=100').expect(200);
    expect(first.body.pagination).to.include({ total: 1000, last_page: 10 });
    expect(first.body.data[0].voter_name).to.equal('Voter 1004');
    const last = await list(poll, h.auth(), '?per_page=100&page=10').expect(200);
    expect(last.body.data.at(-1).voter_name).to.equal('Voter 5');

    // A counted vote that landed late, timed ten minutes before the newest: the refresh's recent
    // read cannot see it; the counters count one more vote than the list accounts for.
    await h.db.collection('votes').insertOne(stored('v-late', t0 + 994_500, 'Late Lou') as never);
    await h.redis.hIncrBy(`${h.prefix}c:${poll.id}`, 'total', 1);
    const loads = await loadsByKind();
    // The reader who starts the refresh waits 250 ms at most: a whole read of 1,006 votes may
    // take longer, and the readers after it get the list once it is in.
    await eventually(async () => {
      const again = await list(poll, h.auth(), '?per_page=100').expect(200);
      return again.body.data.some((r: { voter_name: string }) => r.voter_name === 'Late Lou');
    });
    expect((await loadsByKind()).full - loads.full, 'read whole again, once').to.equal(1);
  });

  it('lists only votes whose voters were told so: none cast before the owner turned names on, nor an invitee’s once the poll is opened to anyone', async () => {
    const poll = await h.createPoll(alice, pollBody({ voters: 'invited' }));
    // An invitee's ballot as stored (docs/polls.md, "Invited voters"): named by the address.
    await h.db.collection('votes').insertOne({
      _id: `inv-${poll.id}`,
      poll_id: poll.id,
      voter_key: `i:${poll.id}`,
      seq: 1,
      choices: votesFor(poll),
      option_ids: [],
      voter_name: 'ann@example.test',
      time_spent: null,
      user_id: null,
      hour: '2026-11-29T08:00:00Z',
      created_at: new Date(Date.now() - 60_000).toISOString(),
    } as never);
    const patch = (settings: object) =>
      request(h.app).patch(`/api/polls/${poll.id}`).set('Authorization', h.auth(alice)).send({ settings });
    await patch({ voters: 'anyone' }).expect(200);
    await vote(poll, h.auth(bob), { votes: votesFor(poll), voter_name: 'Bob before' });
    await patch({ show_participant_names: true }).expect(200);
    await vote(poll, h.auth(carol), { votes: votesFor(poll), voter_name: 'Carol after' });
    const shown = await list(poll, h.auth()).expect(200);
    expect(shown.body.data.map((r: { voter_name: string }) => r.voter_name)).to.deep.equal(['Carol after']);
    expect(JSON.stringify(shown.body)).to.not.contain('ann@example.test').and.not.contain('Bob before');
    expect(shown.body.pagination.total).to.equal(1);
    // The owner's grid has all three.
    expect((await list(poll, h.auth(alice)).expect(200)).body.data).to.have.length(3);
  });

  it('a vote held for its one-time password is listed as its voter was told when they sent it', async () => {
    const poll = await shared({ require_verification: true });
    const held = await request(h.app)
      .post(`/api/polls/${poll.id}/vote`)
      .set('Authorization', h.auth(bob))
      .send({ votes: votesFor(poll), voter_name: 'Bob', voter_email: 'bob@example.test' })
      .expect(202);
    const pending = await h.db
      .collection('pending_votes')
      .findOne({ code: held.body.data.verification_code });
    expect(pending).to.include({ names_shown: true });
  });

  it('polls stored before the setting could show names are turned off once; a later choice of the owner stays', async () => {
    const poll = await h.createPoll(alice, pollBody());
    const polls = h.db.collection('polls');
    await h.db.collection('migrations').deleteOne({ _id: PARTICIPANT_NAMES_MIGRATION as never });
    await polls.updateOne({ _id: poll.id as never }, { $set: { 'settings.show_participant_names': true } });
    const old = await h.createPoll(alice, pollBody());
    await polls.updateOne({ _id: old.id as never }, { $unset: { 'settings.show_participant_names': '' } });

    // As `npm run migrate` runs it.
    await ensureIndexes(h.db);
    for (const id of [poll.id, old.id])
      expect((await polls.findOne({ _id: id as never }))!.settings.show_participant_names).to.equal(false);
    expect(
      await h.db.collection('migrations').findOne({ _id: PARTICIPANT_NAMES_MIGRATION as never }),
    ).to.not.equal(null);

    await request(h.app)
      .patch(`/api/polls/${poll.id}`)
      .set('Authorization', h.auth(alice))
      .send({ settings: { show_participant_names: true } })
      .expect(200);
    expect(await hideStoredParticipantNames(h.db)).to.equal(0);
    expect((await polls.findOne({ _id: poll.id as never }))!.settings.show_participant_names).to.equal(true);
  });
});

describe('participants shown to voters: the staleness bound (real MongoDB/FerretDB and Redis)', () => {
  let h: PollsHarness;
  before(async () => {
    h = await startHarness({ resultsMaxStaleMs: 60_000 });
  });
  after(async () => {
    await h?.stop();
  });

  it('within RESULTS_MAX_STALE_MS of its load the list is served as loaded, even after a vote', async () => {
    const poll = await h.createPoll(alice, pollBody({ show_participant_names: true }));
    const list = () =>
      request(h.app).get(`/api/polls/${poll.id}/participants`).set('Authorization', h.auth());
    await request(h.app)
      .post(`/api/polls/${poll.id}/vote`)
      .set('Authorization', h.auth(bob))
      .send({ votes: votesFor(poll), voter_name: 'Bob' })
      .expect(201);
    expect((await list().expect(200)).body.pagination.total).to.equal(1);
    await request(h.app)
      .post(`/api/polls/${poll.id}/vote`)
      .set('Authorization', h.auth(carol))
      .send({ votes: votesFor(poll), voter_name: 'Carol' })
      .expect(201);
    // One minute of staleness allowed: the list loaded with one vote is still the answer.
    expect((await list().expect(200)).body.pagination.total).to.equal(1);
    // The owner's grid is read each time.
    const own = await request(h.app)
      .get(`/api/polls/${poll.id}/participants`)
      .set('Authorization', h.auth(alice));
    expect(own.body.pagination.total).to.equal(2);
  });
});

describe('participants shown to voters: choosing the newest votes', () => {
  it('newestOf keeps the newest, by time then id, whatever the order they stream in', async () => {
    const votes = Array.from({ length: 2_500 }, (_, i) => ({
      _id: `v${String(i % 7).padStart(2, '0')}-${i}`,
      created_at: new Date(Date.UTC(2026, 10, 1) + Math.floor(i / 3) * 1000).toISOString(),
    }));
    const shuffled = [...votes].sort((a, b) => ((a._id.length * 31 + b._id.charCodeAt(4)) % 3) - 1);
    async function* stream() {
      yield* shuffled;
    }
    const kept = await newestOf(stream(), 1000);
    const expected = [...votes]
      .sort((a, b) =>
        a.created_at === b.created_at ? (a._id < b._id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1,
      )
      .slice(0, 1000);
    expect(kept.map((v) => v._id)).to.deep.equal(expected.map((v) => v._id));
  });

  it('fullLoadSince starts at the latest hour from which the newest votes hold the cap', () => {
    const hours = { '2026-11-29T06:00:00Z': 700, '2026-11-29T08:00:00Z': 200, '2026-11-29T09:00:00Z': 150 };
    expect(fullLoadSince(hours, 1000)).to.equal('2026-11-29T06:00:00.000Z');
    expect(fullLoadSince(hours, 350)).to.equal('2026-11-29T08:00:00.000Z');
    expect(fullLoadSince(hours, 150)).to.equal('2026-11-29T09:00:00.000Z');
    expect(fullLoadSince(hours, 1051)).to.equal(null);
    expect(fullLoadSince({}, 1000)).to.equal(null);
  });
});

describe('participants shown to voters: the pause between refreshes (real MongoDB/FerretDB and Redis)', () => {
  let h: PollsHarness;
  before(async () => {
    // A refresh waits a million times the last load's duration: none comes within this test.
    h = await startHarness({ resultsMaxStaleMs: 0, participantsRefreshDuty: 1_000_000 });
  });
  after(async () => {
    await h?.stop();
  });

  it('until the pause after the last load is over, readers get the last list and the store is not read', async () => {
    const poll = await h.createPoll(alice, pollBody({ show_participant_names: true }));
    const cast = (user: number, name: string) =>
      request(h.app)
        .post(`/api/polls/${poll.id}/vote`)
        .set('Authorization', h.auth(user))
        .send({ votes: votesFor(poll), voter_name: name })
        .expect(201);
    const names = async () =>
      (
        await request(h.app)
          .get(`/api/polls/${poll.id}/participants`)
          .set('Authorization', h.auth())
          .expect(200)
      ).body.data.map((r: { voter_name: string }) => r.voter_name);
    await cast(bob, 'Bob');
    expect(await names()).to.deep.equal(['Bob']);
    await cast(carol, 'Carol');
    const before = { reads: await readsBySource(), loads: await loadsByKind() };
    expect(await names()).to.deep.equal(['Bob']);
    expect(await names()).to.deep.equal(['Bob']);
    const reads = await readsBySource();
    expect(reads.stale - before.reads.stale).to.equal(2);
    expect(await loadsByKind()).to.deep.equal(before.loads);
    // The owner's grid is read each time.
    const own = await request(h.app)
      .get(`/api/polls/${poll.id}/participants`)
      .set('Authorization', h.auth(alice));
    expect(own.body.pagination.total).to.equal(2);
  });
});
