import { expect } from 'chai';
import { expectProblemNaming } from '@fieldhouse/testkit';
import request from 'supertest';
import { alice, bob, startHarness, type Harness } from './harness.ts';

describe('events service: inputs PostgreSQL cannot take are 4xx problems naming the field, never 500', () => {
  let h: Harness;
  let eventId: string;
  before(async () => {
    h = await startHarness('events_hostile');
    eventId = await h.event(alice);
  });
  after(async () => h?.close());

  const post = (path: string, body: object) => request(h.app).post(path).set(h.auth(alice)).send(body);
  const event = { start_date: '2030-06-01T18:30:00', location: 'Lyon' };

  it('refuses a NUL character in an event name (422 naming name)', async () => {
    expectProblemNaming(await post('/api/events', { ...event, name: 'Gala\u0000' }), 422, 'name');
  });

  it('refuses an unpaired surrogate in an event name (422 naming name)', async () => {
    expectProblemNaming(await post('/api/events', { ...event, name: '\ud800' }), 422, 'name');
  });

  it('refuses a NUL character in an invite nom (422 naming nom)', async () => {
    expectProblemNaming(
      await post(`/api/events/${eventId}/invites`, { nom: 'A\u0000', email: 'a@example.test' }),
      422,
      'nom',
    );
  });

  it('refuses an unpaired surrogate in an updated event location (422 naming location)', async () => {
    expectProblemNaming(
      await request(h.app)
        .put(`/api/events/${eventId}`)
        .set(h.auth(alice))
        .send({ ...event, name: 'x', location: '\udfff' }),
      422,
      'location',
    );
  });

  it('fails the CSV rows holding a NUL character, naming the column, and imports the others', async () => {
    const res = await request(h.app)
      .post(`/api/events/${eventId}/invites/import`)
      .set(h.auth(alice))
      .set('Content-Type', 'text/csv')
      .send('nom,email\nZoé\u0000,zoe@example.test\nYann,yann@example.test\n')
      .expect(200);
    expect(res.body).to.include({ created: 1, failed: 1 });
    expect(res.body.results[0].errors).to.have.property('nom');
  });

  it('answers a staff user id past the integer column in the path with 404 naming user_id', async () => {
    expectProblemNaming(
      await request(h.app).delete(`/api/events/${eventId}/staff/2147483648`).set(h.auth(alice)),
      404,
      'user_id',
    );
  });

  it('answers a staff user id past the integer column in the body with 422 naming user_id', async () => {
    expectProblemNaming(
      await request(h.app)
        .post(`/api/events/${eventId}/staff`)
        .set(h.auth(alice))
        .send({ user_id: 2 ** 31 }),
      422,
      'user_id',
    );
  });

  it('keeps serving other users after a user id past the integer column', async () => {
    await request(h.app)
      .post(`/api/events/${eventId}/staff`)
      .set(h.auth(alice))
      .send({ user_id: 2 ** 31 });
    await request(h.app).get('/api/events').set(h.auth(bob)).expect(200);
  });

  it('answers a path that is not valid percent-encoded UTF-8 with 400 naming the path', async () => {
    for (const path of [
      '/api/events/%ED%A0%80',
      `/api/events/${eventId}/invites/%C0%AF`,
      '/api/events/%E2%82/stats',
    ])
      expectProblemNaming(await request(h.app).get(path).set(h.auth(alice)), 400, 'path');
  });

  it('answers a check-in without a body with 422 naming code_unique', async () => {
    expectProblemNaming(
      await request(h.app).post(`/api/events/${eventId}/checkin`).set(h.auth(alice)),
      422,
      'code_unique',
    );
  });

  it('answers a check-in with a CSV body with 422 naming code_unique', async () => {
    expectProblemNaming(
      await request(h.app)
        .post(`/api/events/${eventId}/checkin`)
        .set(h.auth(alice))
        .set('Content-Type', 'text/csv')
        .send('a,b\n'),
      422,
      'code_unique',
    );
  });

  it('answers a check-in on an event id that is not a UUID with 404', async () => {
    const other = await request(h.app).post('/api/events/not-a-uuid/checkin').set(h.auth(alice));
    expect(other.status).to.equal(404);
  });

  it('refuses a NUL character in a query (422 naming it)', async () => {
    expectProblemNaming(
      await request(h.app).get(`/api/events/${eventId}/invites?search=%00`).set(h.auth(alice)),
      422,
      'query.search',
    );
  });
});
