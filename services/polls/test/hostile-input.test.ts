import { expect } from 'chai';
import { expectProblemNaming } from '@fieldhouse/testkit';
import request from 'supertest';
import { pollBody, startPolls, type PollsHarness } from './support.ts';

describe('polls service: hostile inputs are 4xx problems naming the field, never 500', () => {
  let h: PollsHarness;
  before(async () => {
    h = await startPolls();
  });
  after(async () => {
    await h?.stop();
  });

  it('answers a path that is not valid percent-encoded UTF-8 with 400 naming the path', async () => {
    for (const path of ['/api/polls/%ED%A0%80', '/api/polls/%C0%AF/results', '/api/polls/%E2%82/comments'])
      expectProblemNaming(await request(h.app).get(path).set('Authorization', h.auth(1)), 400, 'path');
  });

  it('answers HEAD on the live results stream with its headers and ends (it used to hang)', async () => {
    const poll = await h.createPoll(1);
    const res = await request(h.app)
      .head(`/api/polls/${poll.id}/results/stream`)
      .set('Authorization', h.auth(1))
      .timeout(5_000);
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^text\/event-stream/);
  });

  it('refuses NUL characters and unpaired surrogates in poll titles, comments and vote keys', async () => {
    expectProblemNaming(
      await request(h.app)
        .post('/api/polls')
        .set('Authorization', h.auth(1))
        .send({ ...pollBody(), title: 'a\u0000' }),
      422,
      'title',
    );
    const poll = await h.createPoll(1);
    expectProblemNaming(
      await request(h.app)
        .post(`/api/polls/${poll.id}/comment`)
        .set('Authorization', h.auth(1))
        .send({ content: '\ud800' }),
      422,
      'content',
    );
    expectProblemNaming(
      await request(h.app)
        .post(`/api/polls/${poll.id}/vote`)
        .set('Authorization', h.auth(2))
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
