import { expect } from 'chai';
import request from 'supertest';
import { startStack, type TestStack } from './support/stack.ts';
import { registerUser } from './support/users.ts';

type User = Awaited<ReturnType<typeof registerUser>>;

describe('scanner devices through the gateway: setup, scope, revocation', () => {
  let stack: TestStack;
  let alice: User;
  let eventId: string;
  const api = () => request(stack.gatewayUrl);
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  before(async () => {
    stack = await startStack();
    alice = await registerUser(stack.gatewayUrl, 'Alice Owner');
    eventId = (
      await api()
        .post('/api/events')
        .set(bearer(alice.token))
        .send({ name: 'Gala', start_date: '2031-03-01T19:00:00', location: 'Nantes' })
        .expect(201)
    ).body.id;
  });
  after(async () => stack?.stop());

  /** Creates a device as the owner; resolves with its id and setup code. */
  const createDevice = async (name: string) =>
    (await api().post(`/api/events/${eventId}/devices`).set(bearer(alice.token)).send({ name }).expect(201))
      .body as { id: string; setup_code: string; setup_url: string };

  it('exchanges a setup code once for a credential that scans as the device', async () => {
    const device = await createDevice('North door');
    const setup = await api()
      .post('/api/events/devices/setup')
      .send({ setup_code: device.setup_code })
      .expect(201);
    expect(setup.body.token).to.match(/^fhd_[1-9][0-9]*\|[A-Za-z0-9]{40}[0-9a-f]{8}$/);
    expect(setup.body.device).to.deep.equal({ id: device.id, name: 'North door', event_id: eventId });
    const reused = await api()
      .post('/api/events/devices/setup')
      .send({ setup_code: device.setup_code })
      .expect(410);
    expect(reused.body).to.include({ code: 'setup_code_used' });
    expect(reused.headers['content-type']).to.match(/application\/problem\+json/);
    const malformed = await api().post('/api/events/devices/setup').send({ setup_code: 42 }).expect(422);
    expect(malformed.body.errors).to.have.property('setup_code');

    const token = setup.body.token as string;
    const me = await api().get('/api/events/devices/me').set(bearer(token)).expect(200);
    expect(me.body).to.deep.include({ id: device.id, name: 'North door' });
    expect(me.body.event).to.include({ id: eventId });
    const invite = (
      await api()
        .post(`/api/events/${eventId}/invites`)
        .set(bearer(alice.token))
        .send({ nom: 'Hedy Lamarr', email: 'hedy@example.test' })
        .expect(201)
    ).body as { code_unique: string };
    const scan = await api()
      .post(`/api/events/${eventId}/checkin`)
      .set(bearer(token))
      .send({ code_unique: invite.code_unique })
      .expect(200);
    expect(scan.body).to.include({ result: 'checked_in', scanne_par: 'North door' });
    expect(scan.headers).to.have.property('ratelimit');
    const again = await api()
      .post(`/api/events/${eventId}/checkin`)
      .set(bearer(token))
      .send({ code_unique: invite.code_unique })
      .expect(409);
    expect(again.body).to.include({ result: 'already_checked_in', scanne_par: 'North door' });
  });

  it('refuses a device credential outside its scope, or forged (401)', async () => {
    const device = await createDevice('Side door');
    const { token } = (
      await api().post('/api/events/devices/setup').send({ setup_code: device.setup_code }).expect(201)
    ).body as { token: string };
    for (const path of [
      '/api/v1/me',
      '/api/v1/workspaces',
      '/api/polls',
      `/api/events/${eventId}`,
      // The diagnostic that shows the caller (device, event, address) is not a check-in path.
      '/api/events/_whoami',
      '/api/v1/_whoami',
      '/api/polls/_whoami',
    ]) {
      const res = await api().get(path).set(bearer(token));
      expect(res.status, path).to.equal(403);
      expect(res.body.code, path).to.equal('device_scope');
    }
    const forged = token.slice(0, -9) + (token.at(-9) === 'a' ? 'b' : 'a') + token.slice(-8);
    await api().get(`/api/events/${eventId}/stats`).set(bearer(forged)).expect(401);
    await api().get(`/api/events/${eventId}/stats`).set(bearer('fhd_1|nope')).expect(401);
  });

  it("refuses a revoked device's very next request", async () => {
    const device = await createDevice('Back door');
    const { token } = (
      await api().post('/api/events/devices/setup').send({ setup_code: device.setup_code }).expect(201)
    ).body as { token: string };
    await api().get(`/api/events/${eventId}/stats`).set(bearer(token)).expect(200);
    await api()
      .post(`/api/events/${eventId}/devices/${device.id}/revoke`)
      .set(bearer(alice.token))
      .expect(200);
    const refused = await api().get(`/api/events/${eventId}/stats`).set(bearer(token)).expect(401);
    expect(refused.body.code).to.equal('device_revoked');
    const listed = await api().get(`/api/events/${eventId}/devices`).set(bearer(alice.token)).expect(200);
    expect(listed.body.find((d: { id: string }) => d.id === device.id)).to.include({ status: 'revoked' });
  });
});
