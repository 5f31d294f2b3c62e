import { expect } from 'chai';
import request from 'supertest';
import {
  alice,
  bob,
  carol,
  dave,
  pollBody,
  startHarness,
  votesFor,
  type PollBody,
  type PollsHarness,
} from './harness.ts';

interface Outboxed {
  message: { data: { to: string[]; text: string } };
}

/**
 * "You have voted" on arrival for polls whose ballots go to `POST .../ballots` (issue 37, part 3;
 * docs/polls.md, "My invitation", "My ballot"): the state of a personal link asked with the token
 * in the body (`POST .../invitation`: unused, used, revoked, unknown), the ballot of a used link
 * on a poll that is not anonymous and none on an anonymous one, and `GET .../my-ballot` reading
 * the register of a poll of signed-in users with anonymous ballots. Real MongoDB/FerretDB and
 * Redis.
 */
describe('my invitation and the anonymous register: "you have voted" on arrival (real MongoDB/FerretDB and Redis)', () => {
  let h: PollsHarness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h?.stop();
  });

  /** The token of the newest link e-mailed to `to` (read from the queued e-mail). */
  const tokenOf = async (to: string) => {
    const docs = (await h.db
      .collection('outbox')
      .find({ 'message.type': 'email.requested', 'message.data.to': to })
      .sort({ created_at: 1 })
      .toArray()) as unknown as Outboxed[];
    const text = docs.at(-1)!.message.data.text;
    const m = /#invite=([A-Za-z0-9_-]+)/.exec(text);
    expect(m, text).to.not.equal(null);
    return m![1]!;
  };
  const invite = (poll: PollBody, emails: string[]) =>
    request(h.app)
      .post(`/api/polls/${poll.id}/invitees`)
      .set('Authorization', h.auth(alice))
      .send({ emails })
      .expect(201);
  const ballot = (poll: PollBody, token: string, pick: number[] = []) =>
    request(h.app)
      .post(`/api/polls/${poll.id}/ballots`)
      .set('Authorization', h.auth())
      .send({ token, votes: votesFor(poll, pick) });
  const state = (poll: PollBody, token: unknown, auth = h.auth()) =>
    request(h.app).post(`/api/polls/${poll.id}/invitation`).set('Authorization', auth).send({ token });

  describe('a poll for invitees, not anonymous', () => {
    let poll: PollBody;
    before(async () => {
      poll = await h.createPoll(alice, pollBody({ voters: 'invited' }));
      await invite(poll, ['ann@example.test', 'ben@example.test']);
    });

    it('unused before the ballot; used after, with the register’s hour and the ballot cast with the link', async () => {
      const token = await tokenOf('ann@example.test');
      const before = await state(poll, token).expect(200);
      expect(before.body.data).to.deep.equal({
        status: 'unused',
        anonymous: false,
        voted_hour: null,
        votes: [],
      });
      expect(before.body.message).to.equal('This invitation takes one ballot.');
      const cast = await ballot(poll, token, [1]).expect(201);
      const after = await state(poll, token).expect(200);
      expect(after.body.data).to.include({ status: 'used', anonymous: false });
      expect(after.body.data.voted_hour).to.equal(cast.body.data.counted_hour);
      expect(after.body.data.votes).to.have.length(1);
      expect(after.body.data.votes[0]).to.deep.include({
        id: cast.body.data.ballot_id,
        votes: votesFor(poll, [1]),
        voter_name: 'ann@example.test',
        status: 'counted',
      });
      expect(after.body.message).to.equal('You have voted with this invitation.');
      // Ben's link is still unused: a used link says nothing of another's ballot.
      const ben = await state(poll, await tokenOf('ben@example.test')).expect(200);
      expect(ben.body.data).to.include({ status: 'unused' });
      expect(ben.body.data.votes).to.deep.equal([]);
    });

    it('revoked once withdrawn; unknown for a token of no invitation (or a withdrawn link invited again)', async () => {
      const token = await tokenOf('ben@example.test');
      const list = await request(h.app)
        .get(`/api/polls/${poll.id}/invitees`)
        .set('Authorization', h.auth(alice))
        .expect(200);
      const ben = list.body.data.find((i: { email: string }) => i.email === 'ben@example.test');
      await request(h.app)
        .delete(`/api/polls/${poll.id}/invitees/${ben.id}`)
        .set('Authorization', h.auth(alice))
        .expect(200);
      const revoked = await state(poll, token).expect(200);
      expect(revoked.body.data).to.deep.equal({
        status: 'revoked',
        anonymous: false,
        voted_hour: null,
        votes: [],
      });
      const unknown = await state(poll, 'no-such-token-at-all').expect(200);
      expect(unknown.body.data).to.include({ status: 'unknown', voted_hour: null });
      await invite(poll, ['ben@example.test']);
      expect((await state(poll, token).expect(200)).body.data.status).to.equal('unknown');
      expect((await state(poll, await tokenOf('ben@example.test')).expect(200)).body.data.status).to.equal(
        'unused',
      );
    });

    it('the same answer signed in or not, and on a closed poll', async () => {
      const token = await tokenOf('ann@example.test');
      const signedIn = await state(poll, token, h.auth(bob)).expect(200);
      expect(signedIn.body.data.status).to.equal('used');
      await request(h.app)
        .post(`/api/polls/${poll.id}/close`)
        .set('Authorization', h.auth(alice))
        .expect(200);
      const closed = await state(poll, token).expect(200);
      expect(closed.body.data.status).to.equal('used');
    });
  });

  describe('a poll for invitees with anonymous ballots', () => {
    it('used, with the hour only: the ballot is not linked to the invitee', async () => {
      const poll = await h.createPoll(alice, pollBody({ voters: 'invited', anonymous: true }));
      await invite(poll, ['cy@example.test']);
      const token = await tokenOf('cy@example.test');
      expect((await state(poll, token).expect(200)).body.data).to.include({
        status: 'unused',
        anonymous: true,
      });
      const cast = await ballot(poll, token, [2]).expect(201);
      const used = await state(poll, token).expect(200);
      expect(used.body.data).to.deep.equal({
        status: 'used',
        anonymous: true,
        voted_hour: cast.body.data.counted_hour,
        votes: [],
      });
      expect(JSON.stringify(used.body)).to.not.include(cast.body.data.ballot_id);
      // The receipt check stays open to the invitee.
      await request(h.app)
        .post(`/api/polls/${poll.id}/ballot-ids/check`)
        .set('Authorization', h.auth())
        .send({ ballot_id: cast.body.data.ballot_id })
        .expect(200);
    });
  });

  describe('refusals', () => {
    it('422 on a poll not for invitees (errors.token), 422 without a token, 404 for an unknown poll', async () => {
      const plain = await h.createPoll(alice);
      const notInvited = await state(plain, 'whatever').expect(422);
      expect(notInvited.body.code).to.equal('validation_failed');
      expect(notInvited.body.errors).to.have.property('token');
      const signedInAnon = await h.createPoll(alice, pollBody({ access: 'authenticated', anonymous: true }));
      expect((await state(signedInAnon, 'whatever').expect(422)).body.errors).to.have.property('token');
      const invited = await h.createPoll(alice, pollBody({ voters: 'invited' }));
      const missing = await request(h.app)
        .post(`/api/polls/${invited.id}/invitation`)
        .set('Authorization', h.auth())
        .send({})
        .expect(422);
      expect(missing.body.errors).to.have.property('token');
      const tooLong = await state(invited, 'x'.repeat(201)).expect(422);
      expect(tooLong.body.errors).to.have.property('token');
      const notString = await state(invited, 42).expect(422);
      expect(notString.body.errors).to.have.property('token');
      const unknownPoll = await request(h.app)
        .post('/api/polls/00000000-0000-4000-8000-000000000000/invitation')
        .set('Authorization', h.auth())
        .send({ token: 'abc' })
        .expect(404);
      expect(unknownPoll.body.code).to.equal('not_found');
    });

    it('writes nothing: no Redis key and no stored document name the token or its caller', async () => {
      const poll = await h.createPoll(alice, pollBody({ voters: 'invited', anonymous: true }));
      await invite(poll, ['dee@example.test']);
      const token = await tokenOf('dee@example.test');
      const keysBefore = (await h.redis.keys(`${h.prefix}*${poll.id}*`)).sort();
      const invitee = await h.db.collection('poll_invitees').findOne({ poll_id: poll.id });
      await state(poll, token, h.auth(dave, '10.20.30.40')).expect(200);
      expect((await h.redis.keys(`${h.prefix}*${poll.id}*`)).sort()).to.deep.equal(keysBefore);
      expect(await h.db.collection('poll_invitees').findOne({ poll_id: poll.id })).to.deep.equal(invitee);
    });
  });

  describe('my ballot on a poll of signed-in users with anonymous ballots', () => {
    it('voted (with the register’s hour, no ballot) after the ballot; not before; others not', async () => {
      const poll = await h.createPoll(alice, pollBody({ access: 'authenticated', anonymous: true }));
      const mine = (auth: string) =>
        request(h.app).get(`/api/polls/${poll.id}/my-ballot`).set('Authorization', auth).expect(200);
      expect((await mine(h.auth(bob))).body.data).to.deep.equal({
        voted: false,
        votes: [],
        remaining_votes: 1,
        max_votes_per_voter: 1,
        identified: true,
        anonymous: true,
        voted_hour: null,
      });
      const cast = await request(h.app)
        .post(`/api/polls/${poll.id}/ballots`)
        .set('Authorization', h.auth(bob))
        .send({ votes: votesFor(poll, [1]) })
        .expect(201);
      const after = await mine(h.auth(bob));
      expect(after.body.data).to.deep.equal({
        voted: true,
        votes: [],
        remaining_votes: 0,
        max_votes_per_voter: 1,
        identified: true,
        anonymous: true,
        voted_hour: cast.body.data.counted_hour,
      });
      expect(after.body.message).to.equal('You have voted.');
      expect(JSON.stringify(after.body)).to.not.include(cast.body.data.ballot_id);
      expect((await mine(h.auth(carol))).body.data).to.include({ voted: false, identified: true });
      // Signed out: nothing can be theirs.
      expect((await mine(h.auth(undefined, '10.1.1.1'))).body.data).to.include({
        voted: false,
        identified: false,
        anonymous: true,
      });
    });

    it('on an anonymous poll for invitees, a signed-in caller is not identified (the link says it)', async () => {
      const poll = await h.createPoll(alice, pollBody({ voters: 'invited', anonymous: true }));
      const res = await request(h.app)
        .get(`/api/polls/${poll.id}/my-ballot`)
        .set('Authorization', h.auth(bob))
        .expect(200);
      expect(res.body.data).to.include({ voted: false, identified: false, anonymous: true });
    });

    it('an ordinary poll says anonymous false and no hour', async () => {
      const poll = await h.createPoll(alice);
      const res = await request(h.app)
        .get(`/api/polls/${poll.id}/my-ballot`)
        .set('Authorization', h.auth(bob))
        .expect(200);
      expect(res.body.data).to.include({ anonymous: false, voted_hour: null, identified: true });
    });
  });
});
