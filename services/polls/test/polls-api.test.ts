import { expect } from 'chai';
import request from 'supertest';
import { eventually } from '@fieldhouse/testkit';
import {
  alice,
  bob,
  carol,
  crowd,
  dave,
  erin,
  frank,
  grace,
  heidi,
  ivan,
  judy,
  mallory,
  niaj,
  olivia,
  peggy,
  rupert,
  sybil,
  trent,
  pollBody,
  startHarness,
  votesFor,
  type PollsHarness,
} from './harness.ts';

describe('polls service API (supertest, real MongoDB/FerretDB and Redis)', () => {
  let h: PollsHarness;
  before(async () => {
    h = await startHarness({ commentsPerMinute: 3 });
  });
  after(async () => {
    await h?.stop();
  });

  it('refuses requests that did not come through the gateway (401 problem)', async () => {
    const res = await request(h.app).get('/api/polls').expect(401);
    expect(res.headers['content-type']).to.match(/application\/problem\+json/);
  });

  it('creates a poll: 201 with string ids of poll, sections and options, defaults for settings', async () => {
    const res = await request(h.app)
      .post('/api/polls')
      .set('Authorization', h.auth(alice))
      .send(pollBody())
      .expect(201);
    const poll = res.body.data;
    expect(res.body.message).to.be.a('string');
    expect(poll.id).to.be.a('string');
    expect(poll.sections).to.have.length(3);
    for (const s of poll.sections) {
      expect(s.id).to.be.a('string');
      for (const o of s.options) expect(o.id).to.be.a('string');
    }
    expect(poll.settings).to.deep.equal({
      starts_at: null,
      ends_at: null,
      max_votes_per_voter: 1,
      access: 'public',
      require_verification: false,
      show_stats_public: true,
      results_visibility: 'always',
      show_participant_names: false,
      allow_comments: true,
      allow_reactions: true,
      embed_origins: [],
      voters: 'anyone',
      anonymous: false,
    });
    expect(poll.status).to.equal('open');
  });

  it('answers 401 to an anonymous poll creation', async () => {
    await request(h.app).post('/api/polls').set('Authorization', h.auth()).send(pollBody()).expect(401);
  });

  it('answers 422 naming each bad field of a poll creation', async () => {
    const bad = await request(h.app)
      .post('/api/polls')
      .set('Authorization', h.auth(alice))
      .send({
        title: '',
        sections: [{ title: 'x', options: [{ label: 'only one' }] }],
        settings: { access: 'nope' },
      })
      .expect(422);
    expect(bad.body.errors).to.have.keys('title', 'sections.0.options', 'settings.access');
  });

  it("lists the owner's polls one page at a time", async () => {
    for (let i = 0; i < 3; i++) await h.createPoll(bob);
    const list = await request(h.app)
      .get('/api/polls?per_page=2&page=2')
      .set('Authorization', h.auth(bob))
      .expect(200);
    expect(list.body.pagination).to.deep.equal({ current_page: 2, last_page: 2, per_page: 2, total: 3 });
    expect(list.body.data).to.have.length(1);
  });

  it('shows a poll to anyone, and answers 404 for an unknown id', async () => {
    const poll = await h.createPoll(dave);
    const one = await request(h.app).get(`/api/polls/${poll.id}`).set('Authorization', h.auth()).expect(200);
    expect(one.body.data.id).to.equal(poll.id);
    await request(h.app).get('/api/polls/nope').set('Authorization', h.auth()).expect(404);
  });

  it('lets only the owner update a poll (403 for anyone else)', async () => {
    const poll = await h.createPoll(dave);
    await request(h.app)
      .patch(`/api/polls/${poll.id}`)
      .set('Authorization', h.auth(carol))
      .send({ title: 'x' })
      .expect(403);
    const up = await request(h.app)
      .patch(`/api/polls/${poll.id}`)
      .set('Authorization', h.auth(dave))
      .send({ title: 'Renamed', settings: { max_votes_per_voter: 3 } })
      .expect(200);
    expect(up.body.data).to.include({ title: 'Renamed' });
    expect(up.body.data.settings.max_votes_per_voter).to.equal(3);
  });

  it('lets the owner close a poll', async () => {
    const poll = await h.createPoll(dave);
    const closed = await request(h.app)
      .post(`/api/polls/${poll.id}/close`)
      .set('Authorization', h.auth(dave))
      .expect(200);
    expect(closed.body.data.status).to.equal('closed');
  });

  it('lets only the owner delete a poll, which is then 404 (403 for anyone else)', async () => {
    const poll = await h.createPoll(dave);
    await request(h.app).delete(`/api/polls/${poll.id}`).set('Authorization', h.auth(carol)).expect(403);
    await request(h.app).delete(`/api/polls/${poll.id}`).set('Authorization', h.auth(dave)).expect(204);
    await request(h.app).get(`/api/polls/${poll.id}`).set('Authorization', h.auth(dave)).expect(404);
  });

  it('counts a vote with the spec 2.2 answer, then refuses a second one (vote limit 422)', async () => {
    const poll = await h.createPoll(alice);
    const votes = votesFor(poll, [1, 0, 1]);
    const res = await request(h.app)
      .post(`/api/polls/${poll.id}/vote`)
      .set('Authorization', h.auth(dave))
      .send({ votes, voter_name: 'Eve', time_spent: 12 })
      .expect(201);
    expect(res.body.data).to.have.keys(
      'vote',
      'requires_verification',
      'verification_code',
      'results',
      'total_votes',
      'remaining_votes',
    );
    expect(res.body.data).to.include({
      requires_verification: false,
      verification_code: null,
      total_votes: 1,
      remaining_votes: 0,
    });
    expect(res.body.data.vote).to.include({ voter_name: 'Eve', time_spent: 12, status: 'counted' });
    expect(res.body.data.results[poll.sections[0]!.options[1]!.id]).to.equal(1);
    expect(res.body.data.results[poll.sections[0]!.options[0]!.id]).to.equal(0);
    const again = await request(h.app)
      .post(`/api/polls/${poll.id}/vote`)
      .set('Authorization', h.auth(dave))
      .send({ votes })
      .expect(422);
    expect(again.body.code).to.equal('vote_limit_reached');
    expect(again.body.message).to.match(/vote limit is reached/);
    const doc = await h.db.collection('votes').findOne({ poll_id: poll.id });
    expect(doc).to.include({ voter_name: 'Eve', time_spent: 12 });
    expect(doc!.created_at).to.be.a('string');
  });

  it('names each bad section (missing, foreign option, unknown section) in a 422', async () => {
    const poll = await h.createPoll(alice);
    const votes = votesFor(poll);
    const [s0, s1, s2] = poll.sections;
    const res = await request(h.app)
      .post(`/api/polls/${poll.id}/vote`)
      .set('Authorization', h.auth(erin))
      .send({ votes: { [s0!.id]: votes[s0!.id], [s1!.id]: s2!.options[0]!.id, zzz: 'o_x' } })
      .expect(422);
    expect(res.body.errors).to.have.keys(`votes.${s1!.id}`, `votes.${s2!.id}`, 'votes.zzz');
  });

  it('refuses a vote on a closed poll (422) and takes it again once reopened', async () => {
    const poll = await h.createPoll(alice);
    await request(h.app).post(`/api/polls/${poll.id}/close`).set('Authorization', h.auth(alice)).expect(200);
    const closed = await request(h.app)
      .post(`/api/polls/${poll.id}/vote`)
      .set('Authorization', h.auth(frank))
      .send({ votes: votesFor(poll) })
      .expect(422);
    expect(closed.body.message).to.equal('This poll is closed.');
    await request(h.app).post(`/api/polls/${poll.id}/reopen`).set('Authorization', h.auth(alice)).expect(200);
    await request(h.app)
      .post(`/api/polls/${poll.id}/vote`)
      .set('Authorization', h.auth(frank))
      .send({ votes: votesFor(poll) })
      .expect(201);
  });

  it('refuses a vote on a poll not open yet (422)', async () => {
    const later = await h.createPoll(
      alice,
      pollBody({ starts_at: new Date(Date.now() + 3_600_000).toISOString() }),
    );
    const early = await request(h.app)
      .post(`/api/polls/${later.id}/vote`)
      .set('Authorization', h.auth(frank))
      .send({ votes: votesFor(later) })
      .expect(422);
    expect(early.body.message).to.match(/not open yet/);
  });

  it('refuses an anonymous vote on a poll for signed-in users (401)', async () => {
    const members = await h.createPoll(alice, pollBody({ access: 'authenticated' }));
    await request(h.app)
      .post(`/api/polls/${members.id}/vote`)
      .set('Authorization', h.auth())
      .send({ votes: votesFor(members), voter_fingerprint: 'fingerprint-1' })
      .expect(401);
  });

  it('identifies anonymous voters by fingerprint and IP; max_votes_per_voter drives remaining_votes', async () => {
    const poll = await h.createPoll(alice, pollBody({ max_votes_per_voter: 2 }));
    const vote = (ip: string, fp?: string) =>
      request(h.app)
        .post(`/api/polls/${poll.id}/vote`)
        .set('Authorization', h.auth(undefined, ip))
        .send({ votes: votesFor(poll), ...(fp ? { voter_fingerprint: fp } : {}) });
    const anonymous = await vote('10.1.1.1');
    expect(anonymous.status).to.equal(422);
    expect(anonymous.body.errors).to.have.property('voter_fingerprint');
    expect((await vote('10.1.1.1', 'browser-abc')).body.data.remaining_votes).to.equal(1);
    expect((await vote('10.1.1.1', 'browser-abc')).body.data.remaining_votes).to.equal(0);
    expect((await vote('10.1.1.1', 'browser-abc')).status).to.equal(422);
    expect((await vote('10.1.1.2', 'browser-abc')).status).to.equal(201);
  });

  it('never counts two identical concurrent votes twice', async () => {
    const poll = await h.createPoll(alice);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        request(h.app)
          .post(`/api/polls/${poll.id}/vote`)
          .set('Authorization', h.auth(grace))
          .send({ votes: votesFor(poll) }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).to.have.length(1);
    expect(answers.filter((a) => a.status === 422)).to.have.length(7);
    expect(await h.db.collection('votes').countDocuments({ poll_id: poll.id })).to.equal(1);
  });

  it('refuses removing an option that has votes (422) but allows removing one without', async () => {
    const poll = await h.createPoll(alice);
    await request(h.app)
      .post(`/api/polls/${poll.id}/vote`)
      .set('Authorization', h.auth(heidi))
      .send({ votes: votesFor(poll) })
      .expect(201);
    const keep = (drop: number) => ({
      sections: poll.sections.map((s, i) => ({
        id: s.id,
        title: s.title,
        options: s.options
          .filter((_, j) => !(i === 0 && j === drop))
          .map((o) => ({ id: o.id, label: o.label })),
      })),
    });
    const bad = await request(h.app)
      .patch(`/api/polls/${poll.id}`)
      .set('Authorization', h.auth(alice))
      .send(keep(0))
      .expect(422);
    expect(Object.keys(bad.body.errors)[0]).to.contain(poll.sections[0]!.options[0]!.id);
    const ok = await request(h.app)
      .patch(`/api/polls/${poll.id}`)
      .set('Authorization', h.auth(alice))
      .send(keep(2))
      .expect(200);
    expect(ok.body.data.sections[0].options).to.have.length(2);
    expect(ok.body.data.sections[0].id).to.equal(poll.sections[0]!.id);
  });

  it('answers results in the spec 2.2 shape with analytics and achievements', async () => {
    const poll = await h.createPoll(alice);
    for (const [i, t] of [10, 20, 40].entries())
      await request(h.app)
        .post(`/api/polls/${poll.id}/vote`)
        .set('Authorization', h.auth(crowd(i)))
        .send({ votes: votesFor(poll, [i === 2 ? 1 : 0]), time_spent: t })
        .expect(201);
    const res = await request(h.app)
      .get(`/api/polls/${poll.id}/results`)
      .set('Authorization', h.auth())
      .expect(200);
    const d = res.body.data;
    for (const k of [
      'poll',
      'sections',
      'results',
      'total_votes',
      'unique_voters',
      'reactions_total',
      'comments_total',
      'reactions_summary',
      'recent_comments',
      'show_stats_public',
      'analytics',
      'achievements',
    ])
      expect(d).to.have.property(k);
    expect(d).to.include({ total_votes: 3, unique_voters: 3, reactions_total: 0, comments_total: 0 });
    expect(d.results[poll.sections[0]!.options[0]!.id]).to.equal(2);
    expect(d.analytics.mean_time_spent).to.be.closeTo(23.33, 0.01);
    expect(d.analytics.median_time_spent).to.equal(20);
    expect(d.analytics.votes_per_hour).to.have.length(1);
    expect(d.analytics.votes_per_hour[0].votes).to.equal(3);
    expect(d.analytics.top_options[0]).to.include({ option_id: poll.sections[0]!.options[0]!.id, votes: 2 });
    const first = d.achievements.find((a: { key: string }) => a.key === 'first_vote');
    expect(first.achieved_at).to.match(/Z$/);
    expect(d.reactions_summary).to.have.keys('like', 'love', 'haha', 'wow', 'sad', 'angry', 'fire', 'clap');
  });

  it('records vote milestones at the vote that reaches them, without a results read', async () => {
    const poll = await h.createPoll(alice);
    const times: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await request(h.app)
        .post(`/api/polls/${poll.id}/vote`)
        .set('Authorization', h.auth(crowd(i, 1)))
        .send({ votes: votesFor(poll) })
        .expect(201);
      times.push(res.body.data.vote.created_at as string);
    }
    const polls = h.db.collection<{ _id: string; achievements: Record<string, string> }>('polls');
    const doc = await eventually(async () => {
      const d = await polls.findOne({ _id: poll.id });
      return d?.achievements.votes_10 ? d : null;
    });
    expect(doc.achievements).to.deep.equal({ first_vote: times[0], votes_10: times[9] });
  });

  it('records a milestone a vote did not (counters rebuilt) at the next results read', async () => {
    const poll = await h.createPoll(alice);
    const voted = await request(h.app)
      .post(`/api/polls/${poll.id}/vote`)
      .set('Authorization', h.auth(ivan))
      .send({ votes: votesFor(poll) })
      .expect(201);
    const polls = h.db.collection<{ _id: string; achievements: Record<string, string> }>('polls');
    await eventually(async () => (await polls.findOne({ _id: poll.id }))?.achievements.first_vote);
    await polls.updateOne({ _id: poll.id }, { $set: { achievements: {} } });
    await h.redis.del(`${h.prefix}p:${poll.id}`); // the cached poll
    const res = await request(h.app)
      .get(`/api/polls/${poll.id}/results`)
      .set('Authorization', h.auth(alice))
      .expect(200);
    const first = (res.body.data.achievements as Array<{ key: string; achieved_at: string }>).find(
      (a) => a.key === 'first_vote',
    );
    expect(first?.achieved_at).to.equal(voted.body.data.vote.created_at);
    expect((await polls.findOne({ _id: poll.id }))?.achievements.first_vote).to.equal(
      voted.body.data.vote.created_at,
    );
  });

  it('answers 404 to results of an unknown poll and stores nothing for it', async () => {
    const id = 'p_doesnotexist1';
    const res = await request(h.app)
      .get(`/api/polls/${id}/results`)
      .set('Authorization', h.auth())
      .expect(404);
    expect(res.headers['content-type']).to.match(/problem\+json/);
    expect(await h.redis.keys(`${h.prefix}*${id}*`)).to.deep.equal([]);
  });

  it('rebuilds lost counters from MongoDB, identical', async () => {
    const poll = await h.createPoll(alice, pollBody({ max_votes_per_voter: 2 }));
    for (let i = 0; i < 5; i++)
      await request(h.app)
        .post(`/api/polls/${poll.id}/vote`)
        .set('Authorization', h.auth(crowd(i % 3, 2)))
        .send({ votes: votesFor(poll, [i % 3, i % 2]), time_spent: i * 3 })
        .expect(201);
    await request(h.app)
      .post(`/api/polls/${poll.id}/react`)
      .set('Authorization', h.auth(judy))
      .send({ reaction_type: 'fire' })
      .expect(201);
    await request(h.app)
      .post(`/api/polls/${poll.id}/comment`)
      .set('Authorization', h.auth(judy))
      .send({ content: 'hi', parent_id: null })
      .expect(201);
    const before = (
      await request(h.app).get(`/api/polls/${poll.id}/results`).set('Authorization', h.auth(alice))
    ).body.data;
    expect(before.unique_voters).to.equal(3);
    await h.redis.del(h.context.counters.key(poll.id));
    const after = (
      await request(h.app).get(`/api/polls/${poll.id}/results`).set('Authorization', h.auth(alice))
    ).body.data;
    expect(after).to.deep.equal(before);
    expect(await h.redis.exists(h.context.counters.key(poll.id))).to.equal(1);
  });

  it('hides statistics from non-owners when show_stats_public is false', async () => {
    const poll = await h.createPoll(alice, pollBody({ show_stats_public: false }));
    await request(h.app)
      .post(`/api/polls/${poll.id}/vote`)
      .set('Authorization', h.auth(mallory))
      .send({ votes: votesFor(poll) })
      .expect(201);
    await request(h.app)
      .post(`/api/polls/${poll.id}/vote`)
      .set('Authorization', h.auth(niaj))
      .send({ votes: votesFor(poll, [1]) })
      .expect(201);
    const owner = (
      await request(h.app).get(`/api/polls/${poll.id}/results`).set('Authorization', h.auth(alice))
    ).body.data;
    expect(owner.stats_hidden).to.equal(false);
    expect(Object.keys(owner.results)).to.have.length(7);
    const voter = (
      await request(h.app).get(`/api/polls/${poll.id}/results`).set('Authorization', h.auth(mallory))
    ).body.data;
    expect(voter.stats_hidden).to.equal(true);
    expect(voter.results).to.deep.equal(
      Object.fromEntries(Object.values(votesFor(poll)).map((id) => [id, 1])),
    );
    expect(voter.analytics).to.deep.equal({});
    const stranger = (
      await request(h.app).get(`/api/polls/${poll.id}/results`).set('Authorization', h.auth())
    ).body.data;
    expect(stranger.results).to.deep.equal({});
    expect(stranger.my_vote).to.equal(null);
  });

  /** Reacts on `pollId` with `type` as `user` (olivia by default). */
  const react = (pollId: string, type: string, user: number = olivia) =>
    request(h.app)
      .post(`/api/polls/${pollId}/react`)
      .set('Authorization', h.auth(user))
      .send({ reaction_type: type });

  it("keeps one reaction per voter: a new type replaces the voter's last and moves the counts", async () => {
    const poll = await h.createPoll(alice);
    expect((await react(poll.id, 'like')).status).to.equal(201);
    const moved = await react(poll.id, 'love');
    expect(moved.status).to.equal(200);
    expect(moved.body.data).to.include({
      reaction_type: 'love',
      previous_reaction_type: 'like',
      reactions_total: 1,
    });
    expect(moved.body.data.reactions_summary).to.include({ like: 0, love: 1 });
    await react(poll.id, 'clap', peggy).expect(201);
  });

  it('refuses an unknown reaction type with 422 naming reaction_type', async () => {
    const poll = await h.createPoll(alice);
    const bad = await react(poll.id, 'meh').expect(422);
    expect(bad.body.errors).to.have.property('reaction_type');
  });

  /** Posts a comment on `pollId` as `user` (olivia by default). */
  const comment = (pollId: string, body: object, user: number = olivia) =>
    request(h.app).post(`/api/polls/${pollId}/comment`).set('Authorization', h.auth(user)).send(body);

  it('threads replies under their comment, stored as plain text', async () => {
    const poll = await h.createPoll(alice);
    const root = (await comment(poll.id, { content: 'First!', parent_id: null }).expect(201)).body.data;
    const reply = (
      await comment(poll.id, { content: '<b>not html</b>', parent_id: root.id }, peggy).expect(201)
    ).body.data;
    await comment(poll.id, { content: 'deep', parent_id: reply.id }, rupert).expect(201);
    const list = await request(h.app)
      .get(`/api/polls/${poll.id}/comments`)
      .set('Authorization', h.auth())
      .expect(200);
    expect(list.body.pagination.total).to.equal(1);
    expect(list.body.data[0].replies[0].content).to.equal('<b>not html</b>');
    expect(list.body.data[0].replies[0].replies[0].content).to.equal('deep');
  });

  it('refuses a parent_id from another poll, and empty or too long content (422)', async () => {
    const poll = await h.createPoll(alice);
    const other = await h.createPoll(alice);
    const foreign = (await comment(other.id, { content: 'x', parent_id: null }).expect(201)).body.data;
    expect(
      (await comment(poll.id, { content: 'x', parent_id: foreign.id }, sybil).expect(422)).body.errors,
    ).to.have.property('parent_id');
    expect(
      (await comment(poll.id, { content: '', parent_id: null }, sybil).expect(422)).body.errors,
    ).to.have.property('content');
    await comment(poll.id, { content: 'y'.repeat(2001), parent_id: null }, sybil).expect(422);
  });

  it('rate limits comments per voter and poll (429 with Retry-After)', async () => {
    const poll = await h.createPoll(alice);
    await comment(poll.id, { content: 'a', parent_id: null }, trent).expect(201);
    await comment(poll.id, { content: 'b', parent_id: null }, trent).expect(201);
    await comment(poll.id, { content: 'c', parent_id: null }, trent).expect(201);
    const limited = await comment(poll.id, { content: 'd', parent_id: null }, trent).expect(429);
    expect(limited.headers['retry-after']).to.match(/^\d+$/);
  });

  it("lets the poll's owner delete a comment with its replies (403 for another voter)", async () => {
    const poll = await h.createPoll(alice);
    const root = (await comment(poll.id, { content: 'First!', parent_id: null }).expect(201)).body.data;
    await comment(poll.id, { content: 'reply', parent_id: root.id }, peggy).expect(201);
    for (const content of ['a', 'b', 'c'])
      await comment(poll.id, { content, parent_id: null }, trent).expect(201);
    await request(h.app)
      .delete(`/api/polls/${poll.id}/comments/${root.id}`)
      .set('Authorization', h.auth(sybil))
      .expect(403);
    await request(h.app)
      .delete(`/api/polls/${poll.id}/comments/${root.id}`)
      .set('Authorization', h.auth(alice))
      .expect(204);
    const results = (
      await request(h.app).get(`/api/polls/${poll.id}/results`).set('Authorization', h.auth(alice))
    ).body.data;
    expect(results.comments_total).to.equal(3);
    expect(results.recent_comments.map((c: { content: string }) => c.content)).to.deep.equal(['c', 'b', 'a']);
  });
});
