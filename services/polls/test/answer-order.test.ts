import request from 'supertest';
import { startHarness, type PollsHarness } from './harness.ts';

/*
 * Which problem comes first when a request is wrong in two ways, as the routes always answered:
 * the sign-in check, then the poll (404), then the body (422), so nothing about a body is told
 * for a poll that does not exist.
 */
describe('polls: the order of problems when a request is wrong twice', () => {
  let h: PollsHarness;
  const alice = 1;
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h?.stop();
  });

  it('answers an anonymous poll creation 401, not 422, for a bad body', async () => {
    await request(h.app).post('/api/polls').set('Authorization', h.auth()).send({}).expect(401);
  });

  it('answers a vote on an unknown poll 404, not 422, for a bad body', async () => {
    await request(h.app)
      .post('/api/polls/nope/vote')
      .set('Authorization', h.auth(alice))
      .send({})
      .expect(404);
  });

  it('answers a malformed Idempotency-Key 400 before looking at the poll or the body', async () => {
    await request(h.app)
      .post('/api/polls/nope/vote')
      .set('Authorization', h.auth(alice))
      .set('Idempotency-Key', 'two words')
      .send({})
      .expect(400);
  });

  it('answers a verification, reaction or comment on an unknown poll 404, not 422, for a bad body', async () => {
    for (const action of ['verify', 'react', 'comment'])
      await request(h.app)
        .post(`/api/polls/nope/${action}`)
        .set('Authorization', h.auth(alice))
        .send({})
        .expect(404);
  });

  it('answers a bad vote body on a known poll 422', async () => {
    const poll = await h.createPoll(alice);
    await request(h.app)
      .post(`/api/polls/${poll.id}/vote`)
      .set('Authorization', h.auth(alice))
      .send({})
      .expect(422);
  });
});
