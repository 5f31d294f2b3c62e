import { expect } from 'chai';
import request from 'supertest';
import { alice, bob, carol, dave, startHarness, type Harness } from './harness.ts';

describe('events service: events and staff', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness('events_crud');
  });
  after(async () => h?.close());

  it('creates an event (201, detail shape) and keeps zone-less dates as given', async () => {
    const res = await request(h.app)
      .post('/api/events')
      .set(h.auth(alice))
      .send({
        name: 'Gala',
        description: 'Evening',
        start_date: '2030-01-02T19:00',
        end_date: '2030-01-02T23:59:59.5',
        location: 'Paris',
      })
      .expect(201);
    expect(res.body).to.have.keys('id', 'name', 'description', 'start_date', 'end_date', 'location');
    expect(res.body).to.include({
      name: 'Gala',
      start_date: '2030-01-02T19:00',
      end_date: '2030-01-02T23:59:59.5',
    });
    expect(res.body.id).to.match(/^[0-9a-f-]{36}$/);
    const got = await request(h.app).get(`/api/events/${res.body.id}`).set(h.auth(alice)).expect(200);
    expect(got.body).to.deep.equal(res.body);
  });

  it('refuses bad events with 422 problems', async () => {
    for (const body of [
      { name: 'x', start_date: '2030-01-02T19:00:00Z', location: 'L' },
      { name: 'x', start_date: '2030-02-30T19:00:00', location: 'L' },
      { name: '', start_date: '2030-01-02T19:00:00', location: 'L' },
      { name: 'x', start_date: '2030-01-02T19:00:00', end_date: '2030-01-01T19:00:00', location: 'L' },
      { name: 'x', start_date: '2030-01-02T19:00:00' },
    ]) {
      const res = await request(h.app).post('/api/events').set(h.auth(alice)).send(body).expect(422);
      expect(res.type).to.equal('application/problem+json');
      expect(res.body.errors).to.be.an('object');
    }
  });

  it('lists the caller\u2019s events ordered by start date, with upcoming and past filters', async () => {
    const user = { id: 50, name: 'Lister', email: 'lister@example.test' };
    const later = await h.event(user, { name: 'Later', start_date: '2031-01-01T10:00:00' });
    const past = await h.event(user, { name: 'Past', start_date: '2001-01-01T10:00:00' });
    const soon = await h.event(user, { name: 'Soon', start_date: '2030-01-01T10:00:00' });
    const all = await request(h.app).get('/api/events').set(h.auth(user)).expect(200);
    expect(all.body.map((e: { id: string }) => e.id)).to.deep.equal([past, soon, later]);
    expect(all.body[0]).to.have.keys('id', 'name', 'start_date', 'location');
    const upcoming = await request(h.app).get('/api/events?when=upcoming').set(h.auth(user)).expect(200);
    expect(upcoming.body.map((e: { id: string }) => e.id)).to.deep.equal([soon, later]);
    const old = await request(h.app).get('/api/events?when=past').set(h.auth(user)).expect(200);
    expect(old.body.map((e: { id: string }) => e.id)).to.deep.equal([past]);
    await request(h.app).get('/api/events?when=tomorrow').set(h.auth(user)).expect(422);
  });

  it('hides an event and its stats from a user who is neither owner nor staff (404)', async () => {
    const id = await h.event(alice);
    await request(h.app).get(`/api/events/${id}`).set(h.auth(carol)).expect(404);
    await request(h.app).get(`/api/events/${id}/stats`).set(h.auth(carol)).expect(404);
  });

  it('answers 404 for an event id that is not a UUID', async () => {
    await request(h.app).get(`/api/events/not-a-uuid`).set(h.auth(alice)).expect(404);
  });

  it('refuses to grant staff to an e-mail the service does not know yet (422)', async () => {
    const id = await h.event(alice);
    // Dave is unknown to the service until he calls it once (or his user event arrives).
    await request(h.app)
      .post(`/api/events/${id}/staff`)
      .set(h.auth(alice))
      .send({ email: dave.email })
      .expect(422);
  });

  it('grants staff by e-mail, in any case, once the user has called; staff then see the event', async () => {
    const id = await h.event(alice);
    await request(h.app).get('/api/events').set(h.auth(bob)).expect(200);
    const granted = await request(h.app)
      .post(`/api/events/${id}/staff`)
      .set(h.auth(alice))
      .send({ email: 'BOB@example.test' })
      .expect(201);
    expect(granted.body).to.include({ user_id: bob.id, name: bob.name, email: bob.email });
    await request(h.app).get(`/api/events/${id}`).set(h.auth(bob)).expect(200);
    const list = await request(h.app).get('/api/events').set(h.auth(bob)).expect(200);
    expect(list.body.map((e: { id: string }) => e.id)).to.include(id);
  });

  it("refuses staff the owner's actions with 403: edit the event, grant staff, invite", async () => {
    const id = await h.event(alice);
    await h.addStaff(alice, id, bob);
    await request(h.app).patch(`/api/events/${id}`).set(h.auth(bob)).send({ name: 'Hijack' }).expect(403);
    await request(h.app)
      .post(`/api/events/${id}/staff`)
      .set(h.auth(bob))
      .send({ user_id: carol.id })
      .expect(403);
    await request(h.app)
      .post(`/api/events/${id}/invites`)
      .set(h.auth(bob))
      .send({ nom: 'X', email: 'x@example.test' })
      .expect(403);
  });

  it('removes staff, who then get 404; removing them again is 404', async () => {
    const id = await h.event(alice);
    await h.addStaff(alice, id, bob);
    await request(h.app).get(`/api/events/${id}/staff`).set(h.auth(alice)).expect(200);
    await request(h.app).delete(`/api/events/${id}/staff/${bob.id}`).set(h.auth(alice)).expect(204);
    await request(h.app).get(`/api/events/${id}`).set(h.auth(bob)).expect(404);
    await request(h.app).delete(`/api/events/${id}/staff/${bob.id}`).set(h.auth(alice)).expect(404);
  });

  it('updates only the fields given, end_date null clearing it', async () => {
    const id = await h.event(alice);
    const res = await request(h.app)
      .put(`/api/events/${id}`)
      .set(h.auth(alice))
      .send({ location: 'Nantes', end_date: null })
      .expect(200);
    expect(res.body).to.include({ location: 'Nantes', end_date: null, name: 'Launch' });
  });

  it('refuses an update without any field (422)', async () => {
    const id = await h.event(alice);
    await request(h.app).patch(`/api/events/${id}`).set(h.auth(alice)).send({}).expect(422);
  });

  it('deletes an event, which then is 404', async () => {
    const id = await h.event(alice);
    await request(h.app).delete(`/api/events/${id}`).set(h.auth(alice)).expect(204);
    await request(h.app).get(`/api/events/${id}`).set(h.auth(alice)).expect(404);
  });

  it('refuses anonymous callers and requests that did not come through the gateway (401)', async () => {
    await request(h.app).get('/api/events').expect(401);
  });
});
