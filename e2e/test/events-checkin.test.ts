import { expect } from 'chai';
import request from 'supertest';
import { startStack, type TestStack } from './support/stack.ts';
import { registerUser } from './support/users.ts';

type User = Awaited<ReturnType<typeof registerUser>>;

describe('events through the gateway: presence, check-in, offline batch and stats', () => {
  let stack: TestStack;
  let alice: User;
  let eventId: string;
  const api = () => request(stack.gatewayUrl);
  const as = <T extends { auth: (t: string, o: { type: 'bearer' }) => T }>(r: T) =>
    r.auth(alice.token, { type: 'bearer' });
  const invite = async (nom: string, email: string) =>
    (
      await as(api().post(`/api/events/${eventId}/invites`))
        .send({ nom, email, type_invite: 'standard' })
        .expect(201)
    ).body as {
      id: string;
      nom: string;
      code_unique: string;
    };
  const stats = async () => (await as(api().get(`/api/events/${eventId}/stats`)).expect(200)).body;

  before(async () => {
    stack = await startStack();
    alice = await registerUser(stack.gatewayUrl, 'Alice Owner');
    eventId = (
      await as(api().post('/api/events'))
        .send({ name: 'Concert', start_date: '2030-07-14T21:00:00', location: 'Arles' })
        .expect(201)
    ).body.id;
  });
  after(async () => stack?.stop());

  it('keeps the stats exact from zero through create, check-in, presence true/false, revoke and delete', async () => {
    expect(await stats()).to.deep.equal({ total: 0, present: 0, absent: 0, taux: 0 });
    const a = await invite('Anna', 'anna@example.test');
    const b = await invite('Basile', 'basile@example.test');
    const c = await invite('Chloé', 'chloe@example.test');
    expect(await stats()).to.deep.equal({ total: 3, present: 0, absent: 3, taux: 0 });
    await as(api().post(`/api/events/${eventId}/checkin`))
      .send({ code_unique: a.code_unique })
      .expect(200);
    expect(await stats()).to.deep.equal({ total: 3, present: 1, absent: 2, taux: 33 });
    const on = await as(api().put(`/api/events/${eventId}/invites/${b.id}/presence`))
      .send({ presence: true, scanne_par: 'Entrée nord' })
      .expect(200);
    expect(on.body).to.deep.equal({ success: true, message: 'Basile is marked present.' });
    expect(await stats()).to.deep.equal({ total: 3, present: 2, absent: 1, taux: 66 });
    const off = await as(api().put(`/api/events/${eventId}/invites/${b.id}/presence`))
      .send({ presence: false, scanne_par: 'Entrée nord' })
      .expect(200);
    expect(off.body).to.deep.equal({ success: true, message: 'Basile is now marked absent.' });
    expect(await stats()).to.deep.equal({ total: 3, present: 1, absent: 2, taux: 33 });
    await as(api().patch(`/api/events/${eventId}/invites/${c.id}`))
      .send({ revoked: true })
      .expect(200);
    expect(await stats()).to.deep.equal({ total: 2, present: 1, absent: 1, taux: 50 });
    const revoked = await as(api().put(`/api/events/${eventId}/invites/${c.id}/presence`))
      .send({ presence: true, scanne_par: 'x' })
      .expect(409);
    expect(revoked.body.code).to.equal('revoked');
    await as(api().delete(`/api/events/${eventId}/invites/${a.id}`)).expect(204);
    expect(await stats()).to.deep.equal({ total: 1, present: 0, absent: 1, taux: 0 });
    const history = await as(api().get(`/api/events/${eventId}/invites/${b.id}/history`)).expect(200);
    expect(history.body.map((e: { presence: boolean }) => e.presence)).to.deep.equal([true, false]);
    expect(history.body[0]).to.include({ scanne_par: 'Entrée nord', user_id: alice.id });
  });

  it('checks in exactly one of two concurrent scans of one code through the gateway', async () => {
    for (let round = 0; round < 5; round++) {
      const inv = await invite(`Twin ${round}`, `twin${round}@example.test`);
      const fire = () =>
        as(api().post(`/api/events/${eventId}/checkin`)).send({ code_unique: inv.code_unique });
      const [x, y] = await Promise.all([fire(), fire()]);
      expect([x.status, y.status].sort()).to.deep.equal([200, 409]);
      const loser = x.status === 409 ? x : y;
      expect(loser.body).to.include({ result: 'already_checked_in' });
      expect(loser.body.scanne_par).to.equal('Alice Owner');
      expect(loser.body.checked_in_at).to.be.a('string');
    }
  });

  it('counts a replayed nonce once', async () => {
    const before = await stats();
    const inv = await invite('Noé', 'noe@example.test');
    const first = await as(api().post(`/api/events/${eventId}/checkin`))
      .send({ code_unique: inv.code_unique, nonce: 'scan-42' })
      .expect(200);
    const again = await as(api().post(`/api/events/${eventId}/checkin`))
      .send({ code_unique: inv.code_unique, nonce: 'scan-42' })
      .expect(200);
    expect(again.headers['idempotent-replayed']).to.equal('true');
    expect(again.body).to.deep.equal(first.body);
    expect(await stats()).to.deep.include({ total: before.total + 1, present: before.present + 1 });
    const third = await as(api().post(`/api/events/${eventId}/checkin`))
      .send({ code_unique: inv.code_unique, nonce: 'scan-43' })
      .expect(409);
    expect(third.body.result).to.equal('already_checked_in');
  });

  it('answers each scan of an offline batch on its own, a bad item failing alone', async () => {
    const before = await stats();
    const p = await invite('Paul', 'paul@example.test');
    const q = await invite('Quentin', 'quentin@example.test');
    const other = (
      await as(api().post('/api/events'))
        .send({ name: 'Other', start_date: '2030-01-01T10:00', location: 'X' })
        .expect(201)
    ).body.id;
    const foreign = (
      await as(api().post(`/api/events/${other}/invites`))
        .send({ nom: 'F', email: 'f@example.test' })
        .expect(201)
    ).body;
    const res = await as(api().post(`/api/events/${eventId}/checkin/batch`))
      .send({
        device: 'phone-3',
        scans: [
          { code_unique: p.code_unique, nonce: 'o1', scanned_at: '2025-07-14T21:05:00Z' },
          { code_unique: 12 },
          { code_unique: foreign.code_unique, nonce: 'o3' },
          { code_unique: 'UNKNOWNCODE', nonce: 'o4' },
          { code_unique: q.code_unique, nonce: 'o5' },
          { code_unique: p.code_unique, nonce: 'o6' },
          { code_unique: p.code_unique, nonce: 'o1', scanned_at: '2025-07-14T21:05:00Z' },
        ],
      })
      .expect(200);
    expect(
      res.body.results.map((r: { status: number; result: string }) => [r.status, r.result]),
    ).to.deep.equal([
      [200, 'checked_in'],
      [422, 'invalid'],
      [422, 'wrong_event'],
      [404, 'unknown_code'],
      [200, 'checked_in'],
      [409, 'already_checked_in'],
      [200, 'checked_in'],
    ]);
    expect(res.body.results[6].replayed).to.equal(true);
    expect(res.body.results[0].checked_in_at).to.equal('2025-07-14T21:05:00.000Z');
    expect(await stats()).to.deep.include({ total: before.total + 2, present: before.present + 2 });
    await as(api().post(`/api/events/${eventId}/checkin/batch`))
      .send({ scans: 'nope' })
      .expect(422);
  });

  it('stats stay exact under concurrent check-ins', async () => {
    const ev = (
      await as(api().post('/api/events'))
        .send({ name: 'Rush', start_date: '2030-08-01T08:00', location: 'Z' })
        .expect(201)
    ).body.id;
    const csv = ['nom,email', ...Array.from({ length: 40 }, (_, i) => `R${i},r${i}@example.test`)].join('\n');
    const imported = await as(api().post(`/api/events/${ev}/invites/import`))
      .set('content-type', 'text/csv')
      .send(csv)
      .expect(200);
    const codes = imported.body.results.map((r: { code_unique: string }) => r.code_unique) as string[];
    const scans = [...codes.slice(0, 30), ...codes.slice(0, 30)].map((code) =>
      as(api().post(`/api/events/${ev}/checkin`)).send({ code_unique: code }),
    );
    const answers = await Promise.all(scans);
    expect(answers.filter((a) => a.status === 200)).to.have.length(30);
    expect(answers.filter((a) => a.status === 409)).to.have.length(30);
    const s = (await as(api().get(`/api/events/${ev}/stats`)).expect(200)).body;
    expect(s).to.deep.equal({ total: 40, present: 30, absent: 10, taux: 75 });
  });
});
