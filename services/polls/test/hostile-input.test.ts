import { expect } from 'chai';
import { expectProblemNaming } from '@fieldhouse/testkit';
import request from 'supertest';
import { alice, bob, pollBody, startHarness, type PollsHarness } from './harness.ts';

describe('polls service: hostile inputs are 4xx problems naming the field, never 500', () => {
  let h: PollsHarness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h?.stop();
  });

  it('answers a path that is not valid percent-encoded UTF-8 with 400 naming the path', async () => {
    for (const path of ['/api/polls/%ED%A0%80', '/api/polls/%C0%AF/results', '/api/polls/%E2%82/comments'])
      expectProblemNaming(await request(h.app).get(path).set('Authorization', h.auth(alice)), 400, 'path');
  });

  it('answers HEAD on the live results stream with its headers and ends (it used to hang)', async () => {
    const poll = await h.createPoll(alice);
    const res = await request(h.app)
      .head(`/api/polls/${poll.id}/results/stream`)
      .set('Authorization', h.auth(alice))
      .timeout(5_000);
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^text\/event-stream/);
  });

  it('refuses NUL characters and unpaired surrogates in poll titles, comments and vote keys', async () => {
    expectProblemNaming(
      await request(h.app)
        .post('/api/polls')
        .set('Authorization', h.auth(alice))
        .send({ ...pollBody(), title: 'a\u0000' }),
      422,
      'title',
    );
    const poll = await h.createPoll(alice);
    expectProblemNaming(
      await request(h.app)
        .post(`/api/polls/${poll.id}/comment`)
        .set('Authorization', h.auth(alice))
        .send({ content: '\ud800' }),
      422,
      'content',
    );
    expectProblemNaming(
      await request(h.app)
        .post(`/api/polls/${poll.id}/vote`)
        .set('Authorization', h.auth(bob))
        .send({
          votes: { [poll.sections[0]!.id]: poll.sections[0]!.options[0]!.id },
          voter_name: 'Zoé\u0000',
        }),
      422,
      'voter_name',
    );
    expectProblemNaming(
      await request(h.app)
        .get(`/api/polls/${poll.id}/results?voter_fingerprint=%00`)
        .set('Authorization', h.auth()),
      422,
      'query.voter_fingerprint',
    );
  });
});
