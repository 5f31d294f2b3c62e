import { expect } from 'chai';
import request from 'supertest';
import { alice, bob, carol, startHarness, type Harness } from './harness.ts';

describe('events service: scanner devices', () => {
  let h: Harness;
  let eventId: string;
  let otherEventId: string;

  /** Creates a device as the owner and redeems its setup code as the gateway would. */
  const setUpDevice = async (name: string, extra: { gate_id?: string } = {}) => {
    const created = await request(h.app)
      .post(`/api/events/${eventId}/devices`)
      .set(h.auth(alice))
      .send({ name, ...extra })
      .expect(201);
    const redeemed = await request(h.app)
      .post('/api/events/devices/redeem')
      .set(h.gatewayAuth())
      .send({ setup_code: created.body.setup_code })
      .expect(200);
    return { id: redeemed.body.id as string, eventId, setupCode: created.body.setup_code as string };
  };

  before(async () => {
    h = await startHarness('events_devices');
    eventId = await h.event(alice);
    otherEventId = await h.event(alice, { name: 'Other' });
    await h.addStaff(alice, eventId, bob);
  });
  after(async () => h?.close());

  const createDevice = (body: Record<string, unknown>, actor = alice) =>
    request(h.app).post(`/api/events/${eventId}/devices`).set(h.auth(actor)).send(body);

  it('lets the owner create a device with a one-time setup code and URL, valid 24 hours', async () => {
    const res = await createDevice({ name: '  North door ' }).expect(201);
    expect(res.body).to.include({
      name: 'North door',
      event_id: eventId,
      status: 'awaiting_setup',
      scans: 0,
    });
    expect(res.body.setup_code).to.match(/^[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4}$/);
    expect(res.body.setup_url).to.equal(
      `http://localhost:8080/scan/setup#code=${(res.body.setup_code as string).replaceAll('-', '')}`,
    );
    const expires = Date.parse(res.body.setup_expires_at as string) - Date.now();
    expect(expires).to.be.within(23.9 * 3600_000, 24 * 3600_000);
  });

  it('refuses staff the creation of a device (403)', async () => {
    await createDevice({ name: 'x' }, bob).expect(403);
  });

  it('answers a stranger creating a device with 404', async () => {
    await createDevice({ name: 'x' }, carol).expect(404);
  });

  it('refuses an empty device name with 422 naming it', async () => {
    const bad = await createDevice({ name: '' }).expect(422);
    expect(bad.body.errors).to.have.property('name');
  });

  it("lists the event's devices to the owner, without their setup codes", async () => {
    await createDevice({ name: 'South door' }).expect(201);
    const listed = await request(h.app).get(`/api/events/${eventId}/devices`).set(h.auth(alice)).expect(200);
    expect(listed.body.map((d: { name: string }) => d.name)).to.include('South door');
    expect(listed.body[0]).to.not.have.property('setup_code');
  });

  it('refuses staff the list of devices (403)', async () => {
    await request(h.app).get(`/api/events/${eventId}/devices`).set(h.auth(bob)).expect(403);
  });

  /** A device of `eventId` created by the owner, with its setup code, not redeemed yet. */
  const newDevice = async (name: string) =>
    (
      await request(h.app)
        .post(`/api/events/${eventId}/devices`)
        .set(h.auth(alice))
        .send({ name })
        .expect(201)
    ).body as { id: string; setup_code: string };
  const redeem = (setupCode: string, auth = h.gatewayAuth()) =>
    request(h.app).post('/api/events/devices/redeem').set(auth).send({ setup_code: setupCode });

  it('answers a user redeeming a setup code with 404 (the gateway alone redeems)', async () => {
    const created = await newDevice('South door');
    await redeem(created.setup_code, h.auth(alice)).expect(404);
  });

  it('redeems a setup code whatever its case and separators, naming the device and its event', async () => {
    const created = await newDevice('South door');
    const ok = await redeem(created.setup_code.toLowerCase().replaceAll('-', ' ')).expect(200);
    expect(ok.body).to.deep.equal({ id: created.id, name: 'South door', event_id: eventId });
  });

  it('answers a setup code redeemed already with 410 setup_code_used', async () => {
    const created = await newDevice('South door');
    await redeem(created.setup_code).expect(200);
    const again = await redeem(created.setup_code).expect(410);
    expect(again.body.code).to.equal('setup_code_used');
  });

  it('answers an expired setup code with 410 setup_code_expired', async () => {
    const late = await newDevice('Late door');
    await h
      .db('scanner_devices')
      .where('id', late.id)
      .update({ setup_expires_at: new Date(Date.now() - 1000) });
    const expired = await redeem(late.setup_code).expect(410);
    expect(expired.body.code).to.equal('setup_code_expired');
  });

  it('answers an unknown setup code with 404 setup_code_unknown', async () => {
    const unknown = await redeem('ABCD-EFGH-JKMN-PQRS').expect(404);
    expect(unknown.body.code).to.equal('setup_code_unknown');
  });

  it('refuses a malformed setup code with 422 naming setup_code', async () => {
    const malformed = await redeem('short').expect(422);
    expect(malformed.body.errors).to.have.property('setup_code');
  });

  /** A redeemed device of `eventId` and an invite of the event it checked in (nonce `scan-<device name>`). */
  const deviceCheckedIn = async (deviceName: string, nom: string, email: string) => {
    const device = await setUpDevice(deviceName);
    const inv = await h.invite(alice, eventId, nom, email);
    const first = await request(h.app)
      .post(`/api/events/${eventId}/checkin`)
      .set(h.deviceAuth(device))
      .send({ code_unique: inv.code_unique, nonce: `scan-${deviceName}` })
      .expect(200);
    return { device, inv, first };
  };

  it('checks an invitee in from a device, naming the device as the scanner', async () => {
    const { first } = await deviceCheckedIn('East door', 'Ada Lovelace', 'ada@example.test');
    expect(first.body).to.include({ result: 'checked_in', scanne_par: 'East door' });
  });

  it("answers a device's second scan with 409 already_checked_in naming the device", async () => {
    const { device, inv } = await deviceCheckedIn('North door', 'Alan Turing', 'alan@example.test');
    const twice = await request(h.app)
      .post(`/api/events/${eventId}/checkin`)
      .set(h.deviceAuth(device))
      .send({ code_unique: inv.code_unique })
      .expect(409);
    expect(twice.body).to.include({ result: 'already_checked_in', scanne_par: 'North door' });
  });

  it("names the device, and no user, in the invite's history of a device's check-in", async () => {
    const { device, inv } = await deviceCheckedIn('Gate A', 'Edsger Dijkstra', 'edsger@example.test');
    const history = await request(h.app)
      .get(`/api/events/${eventId}/invites/${inv.id}/history`)
      .set(h.auth(alice))
      .expect(200);
    const entries = (history.body.data ?? history.body) as Array<{
      scanner_device: unknown;
      user_id: unknown;
    }>;
    expect(entries.at(-1)).to.deep.include({
      scanner_device: { id: device.id, name: 'Gate A' },
      user_id: null,
    });
  });

  it("answers a device's offline batch one result per scan, a nonce seen already replayed", async () => {
    const { device, inv } = await deviceCheckedIn('Gate B', 'Barbara Liskov', 'barbara@example.test');
    const batch = await request(h.app)
      .post(`/api/events/${eventId}/checkin/batch`)
      .set(h.deviceAuth(device))
      .send({ scans: [{ code_unique: inv.code_unique, nonce: 'scan-Gate B' }, { code_unique: 'NOPE' }] })
      .expect(200);
    expect(batch.body.results.map((r: { result: string }) => r.result)).to.deep.equal([
      'checked_in',
      'unknown_code',
    ]);
    expect(batch.body.results[0].replayed).to.equal(true);
  });

  it("lets a device search its event's invites", async () => {
    const device = await setUpDevice('Gate C');
    await h.invite(alice, eventId, 'Hedy Lamarr', 'hedy@example.test');
    const found = await request(h.app)
      .get(`/api/events/${eventId}/invites?search=hedy`)
      .set(h.deviceAuth(device))
      .expect(200);
    expect(found.body.data.map((i: { nom: string }) => i.nom)).to.deep.equal(['Hedy Lamarr']);
  });

  it("lets a device read its event's stats", async () => {
    const { device } = await deviceCheckedIn('Gate D', 'Radia Perlman', 'radia@example.test');
    const stats = await request(h.app)
      .get(`/api/events/${eventId}/stats`)
      .set(h.deviceAuth(device))
      .expect(200);
    const owners = await request(h.app).get(`/api/events/${eventId}/stats`).set(h.auth(alice)).expect(200);
    expect(stats.body.present).to.be.at.least(1);
    expect(stats.body).to.deep.equal(owners.body);
  });

  it('lets a device read itself: its name, scans and event', async () => {
    const { device } = await deviceCheckedIn('Gate E', 'Frances Allen', 'frances@example.test');
    const me = await request(h.app).get('/api/events/devices/me').set(h.deviceAuth(device)).expect(200);
    expect(me.body).to.deep.include({ id: device.id, name: 'Gate E', scans: 1, gate: null });
    expect(me.body.event).to.include({ id: eventId, name: 'Launch' });
  });

  it('tells a device the gate it scans at, and whether exits are scanned there', async () => {
    const gate = await request(h.app)
      .post(`/api/events/${eventId}/gates`)
      .set(h.auth(alice))
      .send({ name: 'Hall B', scan_exits: true })
      .expect(201);
    const device = await setUpDevice('Hall B tablet', { gate_id: gate.body.id });
    const me = await request(h.app).get('/api/events/devices/me').set(h.deviceAuth(device)).expect(200);
    expect(me.body.gate).to.deep.equal({ id: gate.body.id, name: 'Hall B', scan_exits: true });
  });

  it('refuses a user the device self-read (403)', async () => {
    await request(h.app).get('/api/events/devices/me').set(h.auth(alice)).expect(403);
  });

  it("lists a device's scans and last use to the owner", async () => {
    const { device } = await deviceCheckedIn('Gate F', 'Margaret Hamilton', 'margaret@example.test');
    const listed = await request(h.app).get(`/api/events/${eventId}/devices`).set(h.auth(alice)).expect(200);
    const row = listed.body.find((d: { id: string }) => d.id === device.id);
    expect(row).to.include({ status: 'active', scans: 1 });
    expect(row.last_seen_at).to.be.a('string');
  });

  it('answers a device outside its scope with 403 device_scope', async () => {
    const device = await setUpDevice('West door');
    for (const [method, path] of [
      ['get', `/api/events/${eventId}`],
      ['get', '/api/events'],
      ['post', `/api/events/${eventId}/invites`],
      ['get', `/api/events/${eventId}/devices`],
      ['delete', `/api/events/${eventId}`],
    ] as const) {
      const res = await request(h.app)[method](path).set(h.deviceAuth(device)).send({});
      expect(res.status, `${method} ${path}`).to.equal(403);
      expect(res.body.code).to.equal('device_scope');
    }
  });

  it('answers a device scanning or reading another event with 404, checking nobody in', async () => {
    const device = await setUpDevice('West door');
    const other = await h.invite(alice, otherEventId, 'Grace Hopper', 'grace@example.test');
    await request(h.app)
      .post(`/api/events/${otherEventId}/checkin`)
      .set(h.deviceAuth(device))
      .send({ code_unique: other.code_unique })
      .expect(404);
    await request(h.app).get(`/api/events/${otherEventId}/stats`).set(h.deviceAuth(device)).expect(404);
    expect((await h.db('invites').where('id', other.id).first()).presence).to.equal(false);
  });

  it("refuses a device credential naming another event than the device's (401)", async () => {
    const device = await setUpDevice('West door');
    await request(h.app)
      .get(`/api/events/${otherEventId}/stats`)
      .set(h.deviceAuth({ id: device.id, eventId: otherEventId }))
      .expect(401);
  });

  it('answers a device on GET and HEAD /api/events/_whoami with a 403 device_scope problem', async () => {
    const device = await setUpDevice('Side door');
    for (const method of ['get', 'head'] as const) {
      const res = await request(h.app)[method]('/api/events/_whoami').set(h.deviceAuth(device));
      expect(res.status, `${method} _whoami`).to.equal(403);
      expect(res.headers['content-type']).to.match(/application\/problem\+json/);
    }
    const refused = await request(h.app).get('/api/events/_whoami').set(h.deviceAuth(device)).expect(403);
    expect(refused.body).to.include({ status: 403, code: 'device_scope' });
    expect(refused.body).to.not.have.property('data');
  });

  it('lets a user read /api/events/_whoami', async () => {
    const user = await request(h.app).get('/api/events/_whoami').set(h.auth(alice)).expect(200);
    expect(user.body.data).to.include({ userId: alice.id, device: null });
  });

  it('answers a revoked device on /api/events/_whoami with 401 device_revoked', async () => {
    const device = await setUpDevice('Side door');
    await request(h.app)
      .post(`/api/events/${eventId}/devices/${device.id}/revoke`)
      .set(h.auth(alice))
      .expect(200);
    const revoked = await request(h.app).get('/api/events/_whoami').set(h.deviceAuth(device)).expect(401);
    expect(revoked.body.code).to.equal('device_revoked');
  });

  it('refuses staff the revocation of a device (403)', async () => {
    const device = await setUpDevice('Back door');
    await request(h.app)
      .post(`/api/events/${eventId}/devices/${device.id}/revoke`)
      .set(h.auth(bob))
      .expect(403);
  });

  it('refuses a revoked device on its next request (401 device_revoked)', async () => {
    const device = await setUpDevice('Back door');
    await request(h.app).get(`/api/events/${eventId}/stats`).set(h.deviceAuth(device)).expect(200);
    const revoked = await request(h.app)
      .post(`/api/events/${eventId}/devices/${device.id}/revoke`)
      .set(h.auth(alice))
      .expect(200);
    expect(revoked.body).to.include({ status: 'revoked' });
    const refused = await request(h.app)
      .get(`/api/events/${eventId}/stats`)
      .set(h.deviceAuth(device))
      .expect(401);
    expect(refused.body.code).to.equal('device_revoked');
  });

  it('answers the revocation of an unknown device with 404', async () => {
    await request(h.app)
      .post(`/api/events/${eventId}/devices/00000000-0000-4000-8000-000000000000/revoke`)
      .set(h.auth(alice))
      .expect(404);
  });
});
