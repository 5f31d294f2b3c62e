import { expect } from 'chai';
import request from 'supertest';
import {
  alice,
  bob,
  carol,
  pollBody,
  startHarness,
  votesFor,
  type PollBody,
  type PollsHarness,
} from './harness.ts';

interface Outboxed {
  message: { type: string; data: { to: string[]; subject: string; text: string; reason: string } };
}

/**
 * Invited voters and anonymous but verified ballots (issue 37, parts 4 and 5; docs/polls.md,
 * "Invited voters", "Anonymous but verified"). Real MongoDB/FerretDB and Redis.
 */
describe('invited voters: invitations, one ballot per link, reminders, receipts (real MongoDB/FerretDB and Redis)', () => {
  let h: PollsHarness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h?.stop();
  });

  /** The invitation and reminder e-mails to `to` queued in the outbox, oldest first. */
  const mailsTo = async (to: string) =>
    (
      (await h.db
        .collection('outbox')
        .find({ 'message.type': 'email.requested', 'message.data.to': to })
        .sort({ created_at: 1 })
        .toArray()) as unknown as Outboxed[]
    ).map((d) => d.message.data);
  /** The token of the newest link e-mailed to `to`. */
  const tokenOf = async (to: string, nth = -1) => {
    const mails = await mailsTo(to);
    const text = mails.at(nth)!.text;
    const m = /\/p\/[^#\s]+#invite=([A-Za-z0-9_-]+)/.exec(text);
    expect(m, text).to.not.equal(null);
    return m![1]!;
  };
  const invite = (poll: PollBody, emails: string[], lang = 'en') =>
    request(h.app)
      .post(`/api/polls/${poll.id}/invitees`)
      .set('Authorization', h.auth(alice))
      .set('Accept-Language', lang)
      .send({ emails });
  const ballot = (poll: PollBody, token: string, pick: number[] = []) =>
    request(h.app)
      .post(`/api/polls/${poll.id}/ballots`)
      .set('Authorization', h.auth())
      .send({ token, votes: votesFor(poll, pick) });
  const invitees = (poll: PollBody) =>
    request(h.app).get(`/api/polls/${poll.id}/invitees?per_page=100`).set('Authorization', h.auth(alice));

  it('settings: voters and anonymous shown with their defaults; anonymous needs invitees or signed-in voters (422)', async () => {
    const plain = await h.createPoll(alice);
    expect(plain.settings).to.include({ voters: 'anyone', anonymous: false });
    const res = await request(h.app)
      .post('/api/polls')
      .set('Authorization', h.auth(alice))
      .send(pollBody({ anonymous: true }))
      .expect(422);
    expect(res.body.code).to.equal('validation_failed');
    expect(res.body.errors).to.have.property('settings.anonymous');
    const bad = await request(h.app)
      .post('/api/polls')
      .set('Authorization', h.auth(alice))
      .send(pollBody({ voters: 'friends' }))
      .expect(422);
    expect(bad.body.errors).to.have.property('settings.voters');
  });

  describe('a poll for invitees (not anonymous)', () => {
    let poll: PollBody;
    before(async () => {
      poll = await h.createPoll(alice, pollBody({ voters: 'invited' }));
    });

    it('invites by e-mail: one link each, only the hash of its token stored, repeats skipped; owner only', async () => {
      const res = await invite(poll, ['Ann@Example.test', 'ben@example.test', 'ann@example.test']).expect(
        201,
      );
      expect(res.body.data.added.map((i: { email: string }) => i.email)).to.deep.equal([
        'ann@example.test',
        'ben@example.test',
      ]);
      const again = await invite(poll, ['ben@example.test', 'cy@example.test'], 'fr').expect(201);
      expect(again.body.data.skipped).to.deep.equal(['ben@example.test']);
      const [mail] = await mailsTo('cy@example.test');
      expect(mail!.subject).to.match(/^Vous êtes invité\(e\) à voter/);
      expect(mail!.reason).to.equal('poll-invitation');
      const token = await tokenOf('ann@example.test');
      const stored = JSON.stringify(
        await h.db.collection('poll_invitees').find({ poll_id: poll.id }).toArray(),
      );
      expect(stored).to.not.include(token);
      await invite(poll, ['x@example.test']).set('Authorization', h.auth(bob)).expect(403);
      await request(h.app)
        .post(`/api/polls/${poll.id}/invitees`)
        .send({ emails: ['x@example.test'] })
        .expect(401);
      const bad = await invite(poll, ['not an address']).expect(422);
      expect(bad.body.errors).to.have.property('emails.0');
    });

    it('refuses the ordinary vote: 403 invitation_required', async () => {
      const res = await request(h.app)
        .post(`/api/polls/${poll.id}/vote`)
        .set('Authorization', h.auth(bob))
        .send({ votes: votesFor(poll) })
        .expect(403);
      expect(res.body.code).to.equal('invitation_required');
    });

    it('counts one ballot per invitation; used, unknown and withdrawn links are refused with their reason', async () => {
      const token = await tokenOf('ann@example.test');
      const ok = await ballot(poll, token, [1]).expect(201);
      expect(ok.body.data).to.include({ poll_id: poll.id, anonymous: false, total_votes: 1 });
      const used = await ballot(poll, token).expect(403);
      expect(used.body).to.include({ code: 'invitation_refused', reason: 'used' });
      expect(used.body.errors).to.have.property('token');
      const unknown = await ballot(poll, 'nope-nope-nope').expect(403);
      expect(unknown.body).to.include({ code: 'invitation_refused', reason: 'unknown' });
      // ben's invitation is withdrawn, then his link refused.
      const list = await invitees(poll).expect(200);
      const ben = list.body.data.find((i: { email: string }) => i.email === 'ben@example.test');
      await request(h.app)
        .delete(`/api/polls/${poll.id}/invitees/${ben.id}`)
        .set('Authorization', h.auth(alice))
        .expect(200);
      const revoked = await ballot(poll, await tokenOf('ben@example.test')).expect(403);
      expect(revoked.body).to.include({ code: 'invitation_refused', reason: 'revoked' });
      // An invitee who voted cannot be withdrawn.
      const ann = list.body.data.find((i: { email: string }) => i.email === 'ann@example.test');
      const cannot = await request(h.app)
        .delete(`/api/polls/${poll.id}/invitees/${ann.id}`)
        .set('Authorization', h.auth(alice))
        .expect(422);
      expect(cannot.body.errors).to.have.property('invitee_id');
      // Bad choices: 422, and the invitation stays usable.
      const cy = await tokenOf('cy@example.test');
      await request(h.app)
        .post(`/api/polls/${poll.id}/ballots`)
        .set('Authorization', h.auth())
        .send({ token: cy, votes: { nope: 'x' } })
        .expect(422);
      await ballot(poll, cy).expect(201);
    });

    it('lists who voted (status, hour) and, the poll not being anonymous, the participants grid names them', async () => {
      const res = await invitees(poll).expect(200);
      expect(res.body.counts).to.deep.equal({ invited: 0, voted: 2, revoked: 1 });
      const ann = res.body.data.find((i: { email: string }) => i.email === 'ann@example.test');
      expect(ann.status).to.equal('voted');
      expect(ann.voted_hour).to.match(/T\d\d:00:00Z$/);
      expect(ann).to.not.have.property('votes');
      const grid = await request(h.app)
        .get(`/api/polls/${poll.id}/participants`)
        .set('Authorization', h.auth(alice))
        .expect(200);
      expect(grid.body.data.map((p: { voter_name: string }) => p.voter_name).sort()).to.deep.equal([
        'ann@example.test',
        'cy@example.test',
      ]);
    });

    it('invites a withdrawn address again with a new link; its withdrawn links stay refused', async () => {
      const oldToken = await tokenOf('ben@example.test');
      const res = await invite(poll, ['ben@example.test', 'ann@example.test']).expect(201);
      expect(
        res.body.data.added.map((i: { email: string; status: string }) => [i.email, i.status]),
      ).to.deep.equal([['ben@example.test', 'invited']]);
      expect(res.body.data.skipped).to.deep.equal(['ann@example.test']);
      const newToken = await tokenOf('ben@example.test');
      expect(newToken).to.not.equal(oldToken);
      const refused = await ballot(poll, oldToken).expect(403);
      expect(refused.body.reason).to.equal('unknown');
      await ballot(poll, newToken).expect(201);
    });
  });

  describe('reminders', () => {
    it('go to those who have not voted, each with a new link; every link of theirs works until they vote', async () => {
      const poll = await h.createPoll(alice, pollBody({ voters: 'invited' }));
      await invite(poll, ['dee@example.test', 'eve@example.test']).expect(201);
      await ballot(poll, await tokenOf('dee@example.test')).expect(201);
      const res = await request(h.app)
        .post(`/api/polls/${poll.id}/invitees/remind`)
        .set('Authorization', h.auth(alice))
        .expect(200);
      expect(res.body.data).to.deep.equal({ reminded: 1, remaining: 0 });
      expect(await mailsTo('dee@example.test')).to.have.length(1);
      const eve = await mailsTo('eve@example.test');
      expect(eve).to.have.length(2);
      expect(eve[1]!.subject).to.match(/^Reminder/);
      expect(eve[1]!.reason).to.equal('poll-invitation-reminder');
      const first = await tokenOf('eve@example.test', 0);
      const second = await tokenOf('eve@example.test', 1);
      expect(second).to.not.equal(first);
      await ballot(poll, first).expect(201);
      const used = await ballot(poll, second).expect(403);
      expect(used.body.reason).to.equal('used');
      const list = await invitees(poll).expect(200);
      expect(
        list.body.data.find((i: { email: string }) => i.email === 'eve@example.test').reminders,
      ).to.equal(1);
      await request(h.app)
        .post(`/api/polls/${poll.id}/invitees/remind`)
        .set('Authorization', h.auth(carol))
        .expect(403);
    });
  });

  describe('anonymous but verified', () => {
    let poll: PollBody;
    before(async () => {
      poll = await h.createPoll(alice, pollBody({ voters: 'invited', anonymous: true }));
      await invite(poll, ['fay@example.test', 'gus@example.test']).expect(201);
    });

    it('stores the ballot without its voter, at the hour; the receipt is in the published list and checks', async () => {
      const res = await ballot(poll, await tokenOf('fay@example.test'), [2])
        .set('Authorization', h.auth(bob, '10.9.8.7'))
        .expect(201);
      const { ballot_id: receipt, counted_hour: hour } = res.body.data;
      expect(res.body.data.anonymous).to.equal(true);
      const stored = await h.db.collection('votes').findOne({ _id: receipt });
      expect(stored).to.include({
        voter_key: `b:${receipt}`,
        voter_name: null,
        user_id: null,
        time_spent: null,
      });
      expect(stored!.created_at).to.equal(hour.replace('Z', '.000Z'));
      const check = await request(h.app)
        .post(`/api/polls/${poll.id}/ballot-ids/check`)
        .send({ ballot_id: receipt })
        .set('Authorization', h.auth())
        .expect(200);
      expect(check.body.data).to.deep.equal({ ballot_id: receipt, counted: true });
      const missing = await request(h.app)
        .post(`/api/polls/${poll.id}/ballot-ids/check`)
        .send({ ballot_id: '00000000-0000-4000-8000-000000000000' })
        .set('Authorization', h.auth())
        .expect(404);
      expect(missing.body.code).to.equal('not_found');
      await ballot(poll, await tokenOf('gus@example.test')).expect(201);
      const list = await request(h.app)
        .get(`/api/polls/${poll.id}/ballot-ids?limit=1`)
        .set('Authorization', h.auth())
        .expect(200);
      expect(list.body.data.ballot_ids).to.have.length(1);
      const rest = await request(h.app)
        .get(`/api/polls/${poll.id}/ballot-ids?after=${list.body.data.next_after}`)
        .set('Authorization', h.auth())
        .expect(200);
      const all = [...list.body.data.ballot_ids, ...rest.body.data.ballot_ids];
      expect(all).to.include(receipt).and.have.length(2);
      expect(all).to.deep.equal([...all].sort());
      expect(rest.body.data.next_after).to.equal(null);
      // The register says fay voted, not what or which ballot.
      const reg = await invitees(poll).expect(200);
      expect(JSON.stringify(reg.body)).to.not.include(receipt);
      expect(reg.body.counts.voted).to.equal(2);
    });

    it('publishes ballot ids only for polls for invitees (422 elsewhere)', async () => {
      const plain = await h.createPoll(alice);
      const res = await request(h.app)
        .get(`/api/polls/${plain.id}/ballot-ids`)
        .set('Authorization', h.auth())
        .expect(422);
      expect(res.body.errors).to.have.property('token');
      const refused = await request(h.app)
        .post(`/api/polls/${plain.id}/ballots`)
        .set('Authorization', h.auth())
        .send({ token: 'abc', votes: votesFor(plain) })
        .expect(422);
      expect(refused.body.code).to.equal('validation_failed');
    });

    it('signed-in users: one anonymous ballot each, a register apart, /vote refused', async () => {
      const p = await h.createPoll(alice, pollBody({ access: 'authenticated', anonymous: true }));
      expect(p.settings).to.include({ voters: 'anyone', anonymous: true });
      const viaVote = await request(h.app)
        .post(`/api/polls/${p.id}/vote`)
        .set('Authorization', h.auth(bob))
        .send({ votes: votesFor(p) })
        .expect(403);
      expect(viaVote.body.code).to.equal('anonymous_ballot_required');
      const cast = (auth: string, body: object = { votes: votesFor(p, [1]) }) =>
        request(h.app).post(`/api/polls/${p.id}/ballots`).set('Authorization', auth).send(body);
      await cast(h.auth()).expect(401);
      const ok = await cast(h.auth(bob)).expect(201);
      const receipt = ok.body.data.ballot_id as string;
      expect(ok.body.data.anonymous).to.equal(true);
      const again = await cast(h.auth(bob)).expect(422);
      expect(again.body.code).to.equal('ballot_already_cast');
      const withToken = await cast(h.auth(carol), { token: 'made-up', votes: votesFor(p) }).expect(403);
      expect(withToken.body.reason).to.equal('unknown');
      await cast(h.auth(carol)).expect(201);
      const stored = await h.db.collection<{ _id: string }>('votes').findOne({ _id: receipt });
      expect(stored).to.include({ voter_key: `b:${receipt}`, user_id: null, voter_name: null });
      const register = await h.db.collection('ballot_register').find({ poll_id: p.id }).toArray();
      expect(register.map((r) => r.user_id).sort()).to.deep.equal([bob, carol]);
      expect(JSON.stringify(register)).to.not.include(receipt);
      const list = await request(h.app)
        .get(`/api/polls/${p.id}/ballot-ids`)
        .set('Authorization', h.auth())
        .expect(200);
      expect(list.body.data.ballot_ids).to.include(receipt).and.have.length(2);
      // On a public poll anonymous ballots need invitations.
      const bad = await request(h.app)
        .post('/api/polls')
        .set('Authorization', h.auth(alice))
        .send(pollBody({ access: 'public', anonymous: true }))
        .expect(422);
      expect(bad.body.errors).to.have.property('settings.anonymous');
    });

    it('deleting the poll deletes its invitees and its register', async () => {
      const p = await h.createPoll(alice, pollBody({ voters: 'invited' }));
      await invite(p, ['hal@example.test']).expect(201);
      await request(h.app).delete(`/api/polls/${p.id}`).set('Authorization', h.auth(alice)).expect(204);
      expect(await h.db.collection('poll_invitees').countDocuments({ poll_id: p.id })).to.equal(0);
      const q = await h.createPoll(alice, pollBody({ access: 'authenticated', anonymous: true }));
      await request(h.app)
        .post(`/api/polls/${q.id}/ballots`)
        .set('Authorization', h.auth(bob))
        .send({ votes: votesFor(q) })
        .expect(201);
      await request(h.app).delete(`/api/polls/${q.id}`).set('Authorization', h.auth(alice)).expect(204);
      expect(await h.db.collection('ballot_register').countDocuments({ poll_id: q.id })).to.equal(0);
    });
  });
});
