import { expect } from 'chai';
import request from 'supertest';
import { alice, bob, carol, startHarness, type Harness } from './harness.ts';

/** Gates (check-in lists), entries and exits, parties (docs/events.md, "Gates", "Parties"). */
describe('events service: gates, entries and exits, parties', () => {
  let h: Harness;

  before(async () => {
    h = await startHarness('events_gates');
  });
  after(async () => h?.close());

  const gate = async (eventId: string, body: Record<string, unknown>) =>
    (await request(h.app).post(`/api/events/${eventId}/gates`).set(h.auth(alice)).send(body).expect(201))
      .body as {
      id: string;
      name: string;
    };
  const scan = (eventId: string, body: Record<string, unknown>, actor = bob) =>
    request(h.app).post(`/api/events/${eventId}/checkin`).set(h.auth(actor)).send(body);
  const party = async (eventId: string, nom: string, email: string, seats: number) =>
    (
      await request(h.app)
        .post(`/api/events/${eventId}/invites`)
        .set(h.auth(alice))
        .send({ nom, email, seats })
        .expect(201)
    ).body as { id: string; code_unique: string };
  const gatesOf = async (eventId: string) =>
    (await request(h.app).get(`/api/events/${eventId}/attendance`).set(h.auth(alice)).expect(200)).body.gates;
  const stats = async (eventId: string) =>
    (await request(h.app).get(`/api/events/${eventId}/stats`).set(h.auth(alice)).expect(200)).body;

  describe('managing gates', () => {
    let eventId: string;
    before(async () => {
      eventId = await h.event(alice);
      await h.addStaff(alice, eventId, bob);
    });

    it('lists no gates for an event without any', async () => {
      const res = await request(h.app).get(`/api/events/${eventId}/gates`).set(h.auth(bob)).expect(200);
      expect(res.body).to.deep.equal([]);
    });

    it('creates a gate with defaults: every type, no exits, no re-entry', async () => {
      const g = await gate(eventId, { name: 'Main door' });
      expect(g).to.include({ name: 'Main door', scan_exits: false, allow_reentry: false });
      expect((g as unknown as { invite_types: string[] }).invite_types).to.deep.equal([]);
    });

    it('turns re-entry off on a gate that does not scan exits', async () => {
      const g = await gate(eventId, { name: 'Side door', allow_reentry: true });
      expect(g).to.include({ allow_reentry: false });
    });

    it('refuses a second gate with the same name in any case (422 naming name)', async () => {
      const res = await request(h.app)
        .post(`/api/events/${eventId}/gates`)
        .set(h.auth(alice))
        .send({ name: 'MAIN DOOR' })
        .expect(422);
      expect(res.body.errors).to.have.property('name');
    });

    it('refuses an unknown invite type in a gate (422)', async () => {
      await request(h.app)
        .post(`/api/events/${eventId}/gates`)
        .set(h.auth(alice))
        .send({ name: 'Odd', invite_types: ['astronaut'] })
        .expect(422);
    });

    it('refuses staff creating a gate (403) and strangers (404)', async () => {
      await request(h.app)
        .post(`/api/events/${eventId}/gates`)
        .set(h.auth(bob))
        .send({ name: 'X' })
        .expect(403);
      await request(h.app)
        .post(`/api/events/${eventId}/gates`)
        .set(h.auth(carol))
        .send({ name: 'X' })
        .expect(404);
    });

    it('changes and deletes a gate; an unknown gate is 404', async () => {
      const g = await gate(eventId, { name: 'Temporary' });
      const changed = await request(h.app)
        .patch(`/api/events/${eventId}/gates/${g.id}`)
        .set(h.auth(alice))
        .send({ scan_exits: true, allow_reentry: true })
        .expect(200);
      expect(changed.body).to.include({ scan_exits: true, allow_reentry: true });
      await request(h.app).delete(`/api/events/${eventId}/gates/${g.id}`).set(h.auth(alice)).expect(204);
      await request(h.app).delete(`/api/events/${eventId}/gates/${g.id}`).set(h.auth(alice)).expect(404);
      await request(h.app)
        .patch(`/api/events/${eventId}/gates/nope`)
        .set(h.auth(alice))
        .send({ name: 'Y' })
        .expect(404);
    });
  });

  describe('entries and exits at one gate', () => {
    let eventId: string;
    let hall: { id: string; name: string };
    before(async () => {
      eventId = await h.event(alice);
      await h.addStaff(alice, eventId, bob);
      hall = await gate(eventId, { name: 'Hall', scan_exits: true, allow_reentry: true });
    });

    it('lets an invitee in, out, and in again, counting inside now, entries and exits', async () => {
      const inv = await h.invite(alice, eventId, 'Ada Lovelace', 'ada@example.test');
      const entry = await scan(eventId, { code_unique: inv.code_unique, gate_id: hall.id }).expect(200);
      expect(entry.body).to.include({ result: 'checked_in', direction: 'entry', people: 1, inside: 1 });
      expect(entry.body.gate).to.deep.equal({ id: hall.id, name: 'Hall' });
      const exit = await scan(eventId, {
        code_unique: inv.code_unique,
        gate_id: hall.id,
        direction: 'exit',
      }).expect(200);
      expect(exit.body).to.include({ result: 'checked_out', direction: 'exit', people: 1, inside: 0 });
      expect(exit.body.message).to.equal('Ada Lovelace left through Hall.');
      await scan(eventId, { code_unique: inv.code_unique, gate_id: hall.id }).expect(200);
      const g = await gatesOf(eventId);
      expect(g.gates.find((x: { id: string }) => x.id === hall.id)).to.include({
        inside: 1,
        entries: 2,
        exits: 1,
      });
      expect(g).to.include({ inside: 1, entries: 2, exits: 1 });
      // The invite counts once as present whatever the number of entries.
      expect(await stats(eventId)).to.include({ total: 1, present: 1 });
    });

    it('refuses a second entry without an exit, naming the gate and the time of the first (409)', async () => {
      const inv = await h.invite(alice, eventId, 'Grace Hopper', 'grace@example.test');
      const first = await scan(eventId, {
        code_unique: inv.code_unique,
        gate_id: hall.id,
        scanne_par: 'North',
      }).expect(200);
      const again = await scan(eventId, { code_unique: inv.code_unique, gate_id: hall.id }).expect(409);
      expect(again.body).to.include({
        code: 'already_checked_in',
        result: 'already_checked_in',
        entered_at: first.body.checked_in_at,
        scanne_par: 'North',
      });
      expect(again.body.gate).to.deep.equal({ id: hall.id, name: 'Hall' });
      expect(again.body.detail).to.equal(
        `Grace Hopper is already inside: entered through Hall at ${first.body.checked_in_at}.`,
      );
    });

    it('refuses the exit of someone not inside (409 not_inside) and counts nothing', async () => {
      const inv = await h.invite(alice, eventId, 'Hedy Lamarr', 'hedy@example.test');
      const before = (await gatesOf(eventId)).exits;
      const res = await scan(eventId, {
        code_unique: inv.code_unique,
        gate_id: hall.id,
        direction: 'exit',
      }).expect(409);
      expect(res.body).to.include({ code: 'not_inside', inside: 0 });
      expect((await gatesOf(eventId)).exits).to.equal(before);
    });

    it('refuses an exit at the implicit entrance (422 exits_not_scanned)', async () => {
      const inv = await h.invite(alice, eventId, 'Joan Clarke', 'joan@example.test');
      const res = await scan(eventId, { code_unique: inv.code_unique, direction: 'exit' }).expect(422);
      expect(res.body).to.include({ code: 'exits_not_scanned' });
    });

    it('refuses a gate of another event (422 naming gate_id)', async () => {
      const other = await h.event(alice);
      const g = await gate(other, { name: 'Elsewhere' });
      const inv = await h.invite(alice, eventId, 'Mary Somerville', 'mary@example.test');
      const res = await scan(eventId, { code_unique: inv.code_unique, gate_id: g.id }).expect(422);
      expect(res.body.errors).to.have.property('gate_id');
    });

    it('keeps entries and exits in the history with their gate and direction', async () => {
      const inv = await h.invite(alice, eventId, 'Emmy Noether', 'emmy@example.test');
      await scan(eventId, { code_unique: inv.code_unique, gate_id: hall.id }).expect(200);
      await scan(eventId, { code_unique: inv.code_unique, gate_id: hall.id, direction: 'exit' }).expect(200);
      const history = await request(h.app)
        .get(`/api/events/${eventId}/invites/${inv.id}/history`)
        .set(h.auth(alice))
        .expect(200);
      expect(
        history.body.map((e: { action: string; direction: string; gate_id: string }) => [
          e.action,
          e.direction,
          e.gate_id,
        ]),
      ).to.deep.equal([
        ['checkin', 'entry', hall.id],
        ['exit', 'exit', hall.id],
      ]);
    });
  });

  describe('gate rules', () => {
    let eventId: string;
    before(async () => {
      eventId = await h.event(alice);
      await h.addStaff(alice, eventId, bob);
    });

    it('refuses re-entry after an exit at a gate without re-entry (409 no_reentry)', async () => {
      const g = await gate(eventId, { name: 'One way', scan_exits: true, allow_reentry: false });
      const inv = await h.invite(alice, eventId, 'Rosalind Franklin', 'rosalind@example.test');
      await scan(eventId, { code_unique: inv.code_unique, gate_id: g.id }).expect(200);
      await scan(eventId, { code_unique: inv.code_unique, gate_id: g.id, direction: 'exit' }).expect(200);
      const res = await scan(eventId, { code_unique: inv.code_unique, gate_id: g.id }).expect(409);
      expect(res.body).to.include({ code: 'no_reentry', result: 'no_reentry' });
      expect(res.body.gate.name).to.equal('One way');
    });

    it('refuses an exit at a gate that does not scan exits (422)', async () => {
      const g = await gate(eventId, { name: 'Entry only' });
      const inv = await h.invite(alice, eventId, 'Lise Meitner', 'lise@example.test');
      await scan(eventId, { code_unique: inv.code_unique, gate_id: g.id }).expect(200);
      const res = await scan(eventId, {
        code_unique: inv.code_unique,
        gate_id: g.id,
        direction: 'exit',
      }).expect(422);
      expect(res.body).to.include({ code: 'exits_not_scanned' });
    });

    it('refuses an invite type the gate does not admit (409 not_admitted)', async () => {
      const g = await gate(eventId, { name: 'VIP lounge', invite_types: ['vip'] });
      const inv = await h.invite(alice, eventId, 'Chien-Shiung Wu', 'wu@example.test');
      const res = await scan(eventId, { code_unique: inv.code_unique, gate_id: g.id }).expect(409);
      expect(res.body).to.include({ code: 'not_admitted' });
      const vip = await request(h.app)
        .post(`/api/events/${eventId}/invites`)
        .set(h.auth(alice))
        .send({ nom: 'Vera Rubin', email: 'vera@example.test', type_invite: 'vip' })
        .expect(201);
      await scan(eventId, { code_unique: vip.body.code_unique, gate_id: g.id }).expect(200);
    });

    it('counts gates separately: the same invitee may be inside two gates', async () => {
      const a = await gate(eventId, { name: 'Area A', scan_exits: true });
      const b = await gate(eventId, { name: 'Area B', scan_exits: true });
      const inv = await h.invite(alice, eventId, 'Dorothy Vaughan', 'dorothy@example.test');
      await scan(eventId, { code_unique: inv.code_unique, gate_id: a.id }).expect(200);
      await scan(eventId, { code_unique: inv.code_unique, gate_id: b.id }).expect(200);
      const g = await gatesOf(eventId);
      expect(g.gates.find((x: { id: string }) => x.id === a.id)).to.include({ inside: 1, entries: 1 });
      expect(g.gates.find((x: { id: string }) => x.id === b.id)).to.include({ inside: 1, entries: 1 });
    });

    it("scans a device's entries at its own gate, and refuses another gate from it (422)", async () => {
      const g = await gate(eventId, { name: 'Device gate', scan_exits: true });
      const other = await gate(eventId, { name: 'Not the device gate' });
      const dev = await request(h.app)
        .post(`/api/events/${eventId}/devices`)
        .set(h.auth(alice))
        .send({ name: 'Phone 1', gate_id: g.id })
        .expect(201);
      expect(dev.body.gate_id).to.equal(g.id);
      const auth = h.deviceAuth({ id: dev.body.id, eventId });
      const inv = await h.invite(alice, eventId, 'Annie Easley', 'annie@example.test');
      const res = await request(h.app)
        .post(`/api/events/${eventId}/checkin`)
        .set(auth)
        .send({ code_unique: inv.code_unique })
        .expect(200);
      expect(res.body.gate).to.deep.equal({ id: g.id, name: 'Device gate' });
      await request(h.app)
        .post(`/api/events/${eventId}/checkin`)
        .set(auth)
        .send({ code_unique: inv.code_unique, gate_id: other.id })
        .expect(422);
      const listed = await request(h.app).get(`/api/events/${eventId}/gates`).set(auth).expect(200);
      expect(listed.body.map((x: { name: string }) => x.name)).to.include('Device gate');
    });
  });

  describe('parties', () => {
    let eventId: string;
    before(async () => {
      eventId = await h.event(alice);
      await h.addStaff(alice, eventId, bob);
    });

    it('admits a party of 5 as 3 then 2, then refuses a sixth, counting people in the stats', async () => {
      const inv = await party(eventId, 'The Curies', 'curies@example.test', 5);
      expect(await stats(eventId)).to.include({ total: 5, present: 0 });
      const three = await scan(eventId, { code_unique: inv.code_unique, people: 3 }).expect(200);
      expect(three.body).to.include({ people: 3, arrived: 3, seats: 5 });
      expect(three.body.message).to.equal("3 of 5 arrived: The Curies's party.");
      expect(await stats(eventId)).to.include({ total: 5, present: 3, taux: 60 });
      const two = await scan(eventId, { code_unique: inv.code_unique, people: 2 }).expect(200);
      expect(two.body).to.include({ people: 2, arrived: 5 });
      const more = await scan(eventId, { code_unique: inv.code_unique }).expect(409);
      expect(more.body).to.include({ code: 'already_checked_in', seats: 5, arrived: 5 });
      expect(await stats(eventId)).to.include({ total: 5, present: 5, taux: 100 });
    });

    it('refuses more people than the seats left, saying how many remain (409 seats_exceeded)', async () => {
      const inv = await party(eventId, 'The Braggs', 'braggs@example.test', 4);
      await scan(eventId, { code_unique: inv.code_unique, people: 3 }).expect(200);
      const res = await scan(eventId, { code_unique: inv.code_unique, people: 2 }).expect(409);
      expect(res.body).to.include({ code: 'seats_exceeded', remaining: 1, seats: 4 });
    });

    it('admits the whole rest of the party when the scan says no number', async () => {
      const inv = await party(eventId, 'The Joliots', 'joliots@example.test', 3);
      const res = await scan(eventId, { code_unique: inv.code_unique }).expect(200);
      expect(res.body).to.include({ people: 3, arrived: 3 });
    });

    it('admits a party as 3 then 2 at a gate, and lets 2 leave', async () => {
      const g = await gate(eventId, { name: 'Garden', scan_exits: true, allow_reentry: true });
      const inv = await party(eventId, 'The Perrins', 'perrins@example.test', 5);
      await scan(eventId, { code_unique: inv.code_unique, gate_id: g.id, people: 3 }).expect(200);
      const two = await scan(eventId, { code_unique: inv.code_unique, gate_id: g.id, people: 2 }).expect(200);
      expect(two.body).to.include({ inside: 5, arrived: 5 });
      const out = await scan(eventId, {
        code_unique: inv.code_unique,
        gate_id: g.id,
        people: 2,
        direction: 'exit',
      }).expect(200);
      expect(out.body).to.include({ inside: 3, people: 2 });
      const tooMany = await scan(eventId, {
        code_unique: inv.code_unique,
        gate_id: g.id,
        people: 4,
        direction: 'exit',
      }).expect(409);
      expect(tooMany.body).to.include({ code: 'not_inside', inside: 3 });
    });

    it('shows seats and arrived on the invite, and refuses fewer seats than arrived (422)', async () => {
      const inv = await party(eventId, 'The Langevins', 'langevins@example.test', 4);
      await scan(eventId, { code_unique: inv.code_unique, people: 3 }).expect(200);
      const got = await request(h.app)
        .get(`/api/events/${eventId}/invites/${inv.id}`)
        .set(h.auth(alice))
        .expect(200);
      expect(got.body).to.include({ seats: 4, arrived: 3, email_held: false });
      const res = await request(h.app)
        .patch(`/api/events/${eventId}/invites/${inv.id}`)
        .set(h.auth(alice))
        .send({ seats: 2 })
        .expect(422);
      expect(res.body.errors).to.have.property('seats');
    });

    it('refuses more seat names than seats (422 naming seat_names)', async () => {
      const res = await request(h.app)
        .post(`/api/events/${eventId}/invites`)
        .set(h.auth(alice))
        .send({ nom: 'Duo', email: 'duo@example.test', seats: 2, seat_names: ['A', 'B', 'C'] })
        .expect(422);
      expect(res.body.errors).to.have.property('seat_names');
    });

    it('says in the invitation e-mail how many people the code admits', async () => {
      await party(eventId, 'The Hahns', 'hahns@example.test', 4);
      const mails = (await h.db('outbox').select('message'))
        .map((r: { message: { data: { to: string[]; text: string } } }) => r.message.data)
        .filter((d) => d.to?.[0] === 'hahns@example.test');
      expect(mails[0]!.text).to.include('This code admits 4 people');
    });
  });

  describe('exactly once under concurrency across devices', () => {
    it('never counts an entry twice nor an exit below zero, with 4 devices scanning the same codes at once', async () => {
      const eventId = await h.event(alice);
      const g = await gate(eventId, { name: 'Rush', scan_exits: true, allow_reentry: true });
      const auths = await Promise.all(
        [1, 2, 3, 4].map(async (n) => {
          const dev = await request(h.app)
            .post(`/api/events/${eventId}/devices`)
            .set(h.auth(alice))
            .send({ name: `Door ${n}`, gate_id: g.id })
            .expect(201);
          return h.deviceAuth({ id: dev.body.id, eventId });
        }),
      );
      const invites = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          h.invite(alice, eventId, `Guest ${i}`, `guest${i}@example.test`),
        ),
      );
      const all = (direction: 'entry' | 'exit') =>
        Promise.all(
          invites.flatMap((inv) =>
            auths.map((auth) =>
              request(h.app)
                .post(`/api/events/${eventId}/checkin`)
                .set(auth)
                .send({ code_unique: inv.code_unique, direction }),
            ),
          ),
        );
      const entries = await all('entry');
      expect(entries.filter((r) => r.status === 200)).to.have.length(20);
      expect(entries.filter((r) => r.status === 409 && r.body.code === 'already_checked_in')).to.have.length(
        60,
      );
      expect((await gatesOf(eventId)).gates[0]).to.include({ inside: 20, entries: 20, exits: 0 });
      const exits = await all('exit');
      expect(exits.filter((r) => r.status === 200)).to.have.length(20);
      expect(exits.filter((r) => r.status === 409 && r.body.code === 'not_inside')).to.have.length(60);
      expect((await gatesOf(eventId)).gates[0]).to.include({ inside: 0, entries: 20, exits: 20 });
      const counted = await h.db('gate_counts').where('gate_id', g.id).sum({ inside: 'inside' });
      expect(Number(counted[0]!.inside)).to.equal(0);
    });

    it('admits a party of 5 exactly once when 4 devices each ask for 2 at the same time', async () => {
      const eventId = await h.event(alice);
      const g = await gate(eventId, { name: 'Party door' });
      const inv = await party(eventId, 'The Rushes', 'rushes@example.test', 5);
      const results = await Promise.all(
        [1, 2, 3, 4].map(() =>
          scan(eventId, { code_unique: inv.code_unique, gate_id: g.id, people: 2 }, alice),
        ),
      );
      expect(results.filter((r) => r.status === 200)).to.have.length(2);
      expect((await gatesOf(eventId)).gates[0]).to.include({ inside: 4, entries: 4 });
      expect(await stats(eventId)).to.include({ total: 5, present: 4 });
    });
  });

  describe('attendance per gate and per type', () => {
    it('gives inside-now per gate over time and arrivals per invite type', async () => {
      const eventId = await h.event(alice);
      const g = await gate(eventId, { name: 'Front', scan_exits: true });
      const a = await h.invite(alice, eventId, 'Alan Turing', 'alan@example.test');
      await request(h.app)
        .post(`/api/events/${eventId}/invites`)
        .set(h.auth(alice))
        .send({ nom: 'Press Person', email: 'press@example.test', type_invite: 'presse', seats: 2 })
        .expect(201);
      await scan(eventId, { code_unique: a.code_unique, gate_id: g.id }, alice).expect(200);
      const body = await gatesOf(eventId);
      expect(body.gates.map((x: { name: string }) => x.name)).to.deep.equal(['Front']);
      expect(body.inside_over_time.at(-1)).to.include({ gate_id: g.id, inside: 1 });
      expect(body.arrivals_by_type).to.deep.equal([
        { type_invite: 'presse', arrived: 0, seats: 2 },
        { type_invite: 'standard', arrived: 1, seats: 1 },
      ]);
    });

    it('shows the implicit entrance for an event without gates, as today', async () => {
      const eventId = await h.event(alice);
      const a = await h.invite(alice, eventId, 'Ida Noddack', 'ida@example.test');
      await scan(eventId, { code_unique: a.code_unique }, alice).expect(200);
      const body = await gatesOf(eventId);
      expect(body.gates).to.deep.equal([{ id: null, name: null, inside: 1, entries: 1, exits: 0 }]);
    });
  });
});
