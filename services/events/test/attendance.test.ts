import { expect } from 'chai';
import request from 'supertest';
import { alice, bob, carol, startHarness, type Harness } from './harness.ts';

describe('events service: presence, check-in and stats', () => {
  let h: Harness;
  let eventId: string;
  const stats = async () =>
    (await request(h.app).get(`/api/events/${eventId}/stats`).set(h.auth(alice)).expect(200)).body;

  before(async () => {
    h = await startHarness('events_attendance');
    eventId = await h.event(alice);
    await h.addStaff(alice, eventId, bob);
  });
  after(async () => h?.close());

  it('stats are zeros without invites', async () => {
    expect(await stats()).to.deep.equal({ total: 0, present: 0, absent: 0, taux: 0 });
  });

  const presence = (inviteId: string, body: Record<string, unknown>, actor = bob) =>
    request(h.app).put(`/api/events/${eventId}/invites/${inviteId}/presence`).set(h.auth(actor)).send(body);

  it('marks an invitee present, naming them, and counts them as present', async () => {
    const inv = await h.invite(alice, eventId, 'Marie Curie', 'marie@example.test');
    const before = await stats();
    const on = await presence(inv.id, { presence: true, scanne_par: 'Porte A' }).expect(200);
    expect(on.body).to.deep.equal({ success: true, message: 'Marie Curie is marked present.' });
    expect(await stats()).to.include({ total: before.total, present: before.present + 1 });
  });

  it('says an invitee marked present twice was already present', async () => {
    const inv = await h.invite(alice, eventId, 'Pierre Curie', 'pierre@example.test');
    await presence(inv.id, { presence: true }).expect(200);
    const again = await presence(inv.id, { presence: true, scanne_par: 'Porte B' }).expect(200);
    expect(again.body.message).to.equal('Pierre Curie was already marked present.');
  });

  it('marks a present invitee absent, naming them, and counts them as absent', async () => {
    const inv = await h.invite(alice, eventId, 'Irène Curie', 'irene@example.test');
    await presence(inv.id, { presence: true }).expect(200);
    const before = await stats();
    const off = await presence(inv.id, { presence: false, scanne_par: 'Accueil' }, alice).expect(200);
    expect(off.body).to.deep.equal({ success: true, message: 'Irène Curie is now marked absent.' });
    expect(await stats()).to.include({ total: before.total, present: before.present - 1 });
  });

  it('keeps every presence change in the history, with who made it and from which device', async () => {
    const inv = await h.invite(alice, eventId, 'Ève Curie', 'eve@example.test');
    await presence(inv.id, { presence: true, scanne_par: 'Porte A' })
      .set('user-agent', 'scanner-1')
      .expect(200);
    await presence(inv.id, { presence: true, scanne_par: 'Porte B' }).expect(200);
    await presence(inv.id, { presence: false, scanne_par: 'Accueil' }, alice).expect(200);
    const history = await request(h.app)
      .get(`/api/events/${eventId}/invites/${inv.id}/history`)
      .set(h.auth(alice))
      .expect(200);
    expect(
      history.body.map((e: { presence: boolean; scanne_par: string }) => [e.presence, e.scanne_par]),
    ).to.deep.equal([
      [true, 'Porte A'],
      [true, 'Porte B'],
      [false, 'Accueil'],
    ]);
    expect(history.body[0]).to.include({ user_id: bob.id, device: 'scanner-1', action: 'presence' });
  });

  it('refuses a presence that is not a JSON boolean with 422', async () => {
    const inv = await h.invite(alice, eventId, 'Paul Langevin', 'paul@example.test');
    await presence(inv.id, { presence: 'yes' }, alice).expect(422);
  });

  it('answers a stranger setting a presence with 404', async () => {
    const inv = await h.invite(alice, eventId, 'Jean Perrin', 'jean@example.test');
    await presence(inv.id, { presence: true }, carol).expect(404);
  });

  it('answers the presence of an invite the event does not have with 404', async () => {
    await presence('00000000-0000-4000-8000-000000000000', { presence: true }, alice).expect(404);
  });

  const checkin = (body: Record<string, unknown>, actor = bob) =>
    request(h.app).post(`/api/events/${eventId}/checkin`).set(h.auth(actor)).send(body);

  it('checks an absent invitee in by their code, whatever its case, naming the invitee and the scanner', async () => {
    const inv = await h.invite(alice, eventId, 'Ada', 'ada@example.test');
    const ok = await checkin({ code_unique: inv.code_unique.toLowerCase(), scanne_par: 'Gate 1' }).expect(
      200,
    );
    expect(ok.body).to.include({ result: 'checked_in', scanne_par: 'Gate 1' });
    expect(ok.body.invite).to.deep.equal({ id: inv.id, nom: 'Ada', type_invite: 'standard' });
  });

  it('answers a second scan with 409 already_checked_in, giving when and by whom the first was made', async () => {
    const inv = await h.invite(alice, eventId, 'Ben', 'ben@example.test');
    const ok = await checkin({ code_unique: inv.code_unique, scanne_par: 'Gate 1' }).expect(200);
    const again = await checkin({ code_unique: inv.code_unique }).expect(409);
    expect(again.body).to.include({
      result: 'already_checked_in',
      code: 'already_checked_in',
      scanne_par: 'Gate 1',
      checked_in_at: ok.body.checked_in_at,
    });
  });

  it('answers a code no invite has with 404 unknown_code', async () => {
    expect((await checkin({ code_unique: 'ZZZZZZZZZZZZZZZZZZZZZZ' }).expect(404)).body.result).to.equal(
      'unknown_code',
    );
  });

  it("answers another event's code with 422 wrong_event", async () => {
    const other = await h.event(alice);
    const stranger = await h.invite(alice, other, 'Other', 'other@example.test');
    expect((await checkin({ code_unique: stranger.code_unique }).expect(422)).body.result).to.equal(
      'wrong_event',
    );
  });

  it("answers a revoked invite's code with 409 revoked", async () => {
    const revoked = await h.invite(alice, eventId, 'Gone', 'gone@example.test');
    await request(h.app)
      .patch(`/api/events/${eventId}/invites/${revoked.id}`)
      .set(h.auth(alice))
      .send({ revoked: true })
      .expect(200);
    expect((await checkin({ code_unique: revoked.code_unique }).expect(409)).body.result).to.equal('revoked');
  });

  it('refuses a scan without code_unique with 422', async () => {
    await checkin({}).expect(422);
  });

  it('answers a stranger scanning in the event with 404', async () => {
    const inv = await h.invite(alice, eventId, 'Cleo', 'cleo@example.test');
    await checkin({ code_unique: inv.code_unique }, carol).expect(404);
  });

  it('checks in exactly one of four concurrent scans of one code', async () => {
    const inv = await h.invite(alice, eventId, 'Twin', 'twin@example.test');
    const fire = () =>
      request(h.app)
        .post(`/api/events/${eventId}/checkin`)
        .set(h.auth(bob))
        .send({ code_unique: inv.code_unique });
    const answers = await Promise.all([fire(), fire(), fire(), fire()]);
    expect(answers.map((a) => a.status).sort()).to.deep.equal([200, 409, 409, 409]);
    const log = await h.db('attendance_log').where({ invite_id: inv.id, action: 'checkin' });
    expect(log).to.have.length(1);
  });

  it('counts a nonce once, even sent concurrently', async () => {
    const inv = await h.invite(alice, eventId, 'Nonce', 'nonce@example.test');
    const fire = () =>
      request(h.app)
        .post(`/api/events/${eventId}/checkin`)
        .set(h.auth(bob))
        .send({ code_unique: inv.code_unique, nonce: 'n-1' });
    const [a, b] = await Promise.all([fire(), fire()]);
    expect([a.status, b.status]).to.deep.equal([200, 200]);
    expect([a.headers['idempotent-replayed'], b.headers['idempotent-replayed']]).to.include('true');
    const c = await fire().expect(200);
    expect(c.body).to.deep.equal(a.body);
    const log = await h.db('attendance_log').where({ invite_id: inv.id });
    expect(log).to.have.length(1);
  });

  it('answers an offline batch with one result per scan, bad items failing alone', async () => {
    const x = await h.invite(alice, eventId, 'Xavier', 'xavier@example.test');
    const y = await h.invite(alice, eventId, 'Yann', 'yann@example.test');
    const res = await request(h.app)
      .post(`/api/events/${eventId}/checkin/batch`)
      .set(h.auth(bob))
      .send({
        device: 'tablet-7',
        scans: [
          { code_unique: x.code_unique, nonce: 'b1', scanned_at: '2025-06-01T18:00:00Z' },
          { code_unique: x.code_unique, nonce: 'b2' },
          { nonce: 'b3' },
          'garbage',
          { code_unique: 'NOPE', nonce: 'b5' },
          { code_unique: y.code_unique, nonce: 'b6', scanned_at: 'yesterday' },
          { code_unique: y.code_unique, nonce: 'b7' },
          { code_unique: x.code_unique, nonce: 'b1', scanned_at: '2025-06-01T18:00:00Z' },
        ],
      })
      .expect(200);
    const r = res.body.results as Array<{ index: number; status: number; result: string; replayed: boolean }>;
    expect(r.map((i) => [i.index, i.status, i.result])).to.deep.equal([
      [0, 200, 'checked_in'],
      [1, 409, 'already_checked_in'],
      [2, 422, 'invalid'],
      [3, 422, 'invalid'],
      [4, 404, 'unknown_code'],
      [5, 422, 'invalid'],
      [6, 200, 'checked_in'],
      [7, 200, 'checked_in'],
    ]);
    expect(r[7]!.replayed).to.equal(true);
  });

  it("keeps a batch scan's device, nonce and scan time in the invite's history, once", async () => {
    const z = await h.invite(alice, eventId, 'Zoé', 'zoe@example.test');
    const scan = { code_unique: z.code_unique, nonce: 'h1', scanned_at: '2025-06-01T18:00:00Z' };
    await request(h.app)
      .post(`/api/events/${eventId}/checkin/batch`)
      .set(h.auth(bob))
      .send({ device: 'tablet-7', scans: [scan, scan] })
      .expect(200);
    const hist = await request(h.app)
      .get(`/api/events/${eventId}/invites/${z.id}/history`)
      .set(h.auth(alice))
      .expect(200);
    expect(hist.body).to.have.length(1);
    expect(hist.body[0]).to.include({
      device: 'tablet-7',
      nonce: 'h1',
      scanned_at: '2025-06-01T18:00:00.000Z',
    });
  });

  it('refuses an empty batch with 422', async () => {
    await request(h.app)
      .post(`/api/events/${eventId}/checkin/batch`)
      .set(h.auth(bob))
      .send({ scans: [] })
      .expect(422);
  });

  describe('stats after each kind of change', () => {
    /** A new event of alice's with `n` invites, and a reader of its stats. */
    const eventWith = async (n: number) => {
      const ev = await h.event(alice);
      const invs = [];
      for (let i = 0; i < n; i++) invs.push(await h.invite(alice, ev, `P${i}`, `p${i}@example.test`));
      const s = async () =>
        (await request(h.app).get(`/api/events/${ev}/stats`).set(h.auth(alice)).expect(200)).body;
      return { ev, invs, s };
    };
    const checkIn = (ev: string, code: string) =>
      request(h.app)
        .post(`/api/events/${ev}/checkin`)
        .set(h.auth(alice))
        .send({ code_unique: code })
        .expect(200);
    const presence = (ev: string, id: string, value: boolean) =>
      request(h.app)
        .put(`/api/events/${ev}/invites/${id}/presence`)
        .set(h.auth(alice))
        .send({ presence: value, scanne_par: 'x' })
        .expect(200);
    const revoke = (ev: string, id: string, revoked: boolean) =>
      request(h.app)
        .patch(`/api/events/${ev}/invites/${id}`)
        .set(h.auth(alice))
        .send({ revoked })
        .expect(200);

    it('counts new invites as absent', async () => {
      const { s } = await eventWith(3);
      expect(await s()).to.deep.equal({ total: 3, present: 0, absent: 3, taux: 0 });
    });

    it('counts a checked-in invite as present', async () => {
      const { ev, invs, s } = await eventWith(3);
      await checkIn(ev, invs[0]!.code_unique);
      expect(await s()).to.deep.equal({ total: 3, present: 1, absent: 2, taux: 33 });
    });

    it('counts an invite marked present by hand as present', async () => {
      const { ev, invs, s } = await eventWith(3);
      await checkIn(ev, invs[0]!.code_unique);
      await presence(ev, invs[1]!.id, true);
      expect(await s()).to.deep.equal({ total: 3, present: 2, absent: 1, taux: 66 });
    });

    it('leaves a revoked invite out of the total', async () => {
      const { ev, invs, s } = await eventWith(3);
      await checkIn(ev, invs[0]!.code_unique);
      await presence(ev, invs[1]!.id, true);
      await revoke(ev, invs[2]!.id, true);
      expect(await s()).to.deep.equal({ total: 2, present: 2, absent: 0, taux: 100 });
    });

    it('leaves a deleted present invite out of the total and the present', async () => {
      const { ev, invs, s } = await eventWith(2);
      await checkIn(ev, invs[0]!.code_unique);
      await presence(ev, invs[1]!.id, true);
      await request(h.app).delete(`/api/events/${ev}/invites/${invs[0]!.id}`).set(h.auth(alice)).expect(204);
      expect(await s()).to.deep.equal({ total: 1, present: 1, absent: 0, taux: 100 });
    });

    it('counts the invites a CSV import created as absent', async () => {
      const { ev, invs, s } = await eventWith(1);
      await presence(ev, invs[0]!.id, true);
      await request(h.app)
        .post(`/api/events/${ev}/invites/import`)
        .set(h.auth(alice))
        .set('content-type', 'text/csv')
        .send('nom,email\nQ,q@example.test\nR,r@example.test\nbad,\n')
        .expect(200);
      expect(await s()).to.deep.equal({ total: 3, present: 1, absent: 2, taux: 33 });
    });

    it('counts an invite marked absent again as absent', async () => {
      const { ev, invs, s } = await eventWith(3);
      await presence(ev, invs[1]!.id, true);
      await presence(ev, invs[1]!.id, false);
      expect(await s()).to.deep.equal({ total: 3, present: 0, absent: 3, taux: 0 });
    });

    it('counts an invite whose revocation is undone in the total again', async () => {
      const { ev, invs, s } = await eventWith(4);
      await revoke(ev, invs[2]!.id, true);
      await revoke(ev, invs[2]!.id, false);
      expect(await s()).to.deep.equal({ total: 4, present: 0, absent: 4, taux: 0 });
    });

    /** The counter rows (invite_counts) of an event. */
    const counterRows = async (ev: string) =>
      Number((await h.db('invite_counts').where({ event_id: ev }).count({ n: '*' }))[0]!.n);

    it('writes no counter row for a change that moves no count', async () => {
      const { ev, invs, s } = await eventWith(4);
      await checkIn(ev, invs[0]!.code_unique);
      await presence(ev, invs[0]!.id, false);
      const rows = await counterRows(ev);
      for (let i = 0; i < 3; i++)
        await request(h.app)
          .patch(`/api/events/${ev}/invites/${invs[1]!.id}`)
          .set(h.auth(alice))
          .send({ nom: `Renamed ${i}` })
          .expect(200);
      expect(await counterRows(ev)).to.equal(rows);
      expect(await s()).to.deep.equal({ total: 4, present: 0, absent: 4, taux: 0 });
    });

    it("takes an event's counters with its deletion", async () => {
      const { ev, invs } = await eventWith(2);
      await checkIn(ev, invs[0]!.code_unique);
      await request(h.app).delete(`/api/events/${ev}`).set(h.auth(alice)).expect(204);
      expect(await counterRows(ev)).to.equal(0);
    });
  });

  describe('attendance of an event with two check-ins and an absent invitee', () => {
    let ev: string;
    before(async () => {
      ev = await h.event(alice, { name: 'Attendance' });
      await h.addStaff(alice, ev, bob);
      const a = await h.invite(alice, ev, 'Ann Early', 'ann@example.test');
      const b = await h.invite(alice, ev, 'Ben Late', 'ben@example.test');
      await h.invite(alice, ev, 'Cid Absent', 'cid@example.test');
      await request(h.app)
        .post(`/api/events/${ev}/checkin`)
        .set(h.auth(bob))
        .send({ code_unique: a.code_unique, scanned_at: '2026-01-10T18:03:10Z', nonce: 'a1' })
        .expect(200);
      await request(h.app)
        .post(`/api/events/${ev}/checkin`)
        .set(h.auth(alice))
        .send({
          code_unique: b.code_unique,
          scanned_at: '2026-01-10T18:27:59Z',
          nonce: 'b1',
          scanne_par: 'Gate 2',
        })
        .expect(200);
    });
    const attendance = async () =>
      (await request(h.app).get(`/api/events/${ev}/attendance`).set(h.auth(bob)).expect(200)).body;

    it('gives the stats to staff', async () => {
      expect((await attendance()).stats).to.deep.equal({ total: 3, present: 2, absent: 1, taux: 66 });
    });

    it('counts arrivals per 10-minute window of the scan times', async () => {
      expect((await attendance()).arrivals).to.deep.equal([
        { from: '2026-01-10T18:00:00.000Z', count: 1 },
        { from: '2026-01-10T18:20:00.000Z', count: 1 },
      ]);
    });

    it('lists the latest check-ins first, with who scanned', async () => {
      const body = await attendance();
      expect(
        body.latest.map((l: { nom: string; scanne_par: string }) => [l.nom, l.scanne_par]),
      ).to.deep.equal([
        ['Ben Late', 'Gate 2'],
        ['Ann Early', 'Bob Staff'],
      ]);
      expect(body.latest[1]).to.include({ user_name: 'Bob Staff', scanner_device: null });
    });

    it('answers a stranger with 404', async () => {
      await request(h.app).get(`/api/events/${ev}/attendance`).set(h.auth(carol)).expect(404);
    });
  });
});
