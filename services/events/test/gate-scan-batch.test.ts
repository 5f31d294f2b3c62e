import { expect } from 'chai';
import request from 'supertest';
import { testLogger } from '@fieldhouse/testkit';
import type { Scanner } from '../src/data/attendance.ts';
import { gateScanGroupCommit, type HotGateScan } from '../src/data/gate-scans.ts';
import { alice, bob, carol, startHarness, type Harness, type TestUser } from './harness.ts';

/** Group commit of gate scans by the owner and staff (docs/events.md, "Gates", "Group commit at gates"). */
describe('events service: group commit of gate entries and exits (real PostgreSQL)', () => {
  let h: Harness;
  let eventId: string;

  const scanner = (u: TestUser): Scanner => ({
    scanne_par: u.name,
    userId: u.id,
    deviceId: null,
    userName: u.name,
    device: 'door',
    scannedAt: null,
  });
  const gate = async (event: string, body: Record<string, unknown>) =>
    (await request(h.app).post(`/api/events/${event}/gates`).set(h.auth(alice)).send(body).expect(201))
      .body as { id: string; name: string };
  const countsOf = async (gateId: string) => {
    const [c] = (await h
      .db('gate_counts')
      .where('gate_id', gateId)
      .select(
        h.db.raw('coalesce(sum(inside), 0)::int AS inside'),
        h.db.raw('coalesce(sum(entries), 0)::int AS entries'),
        h.db.raw('coalesce(sum(exits), 0)::int AS exits'),
      )) as Array<{ inside: number; entries: number; exits: number }>;
    const [l] = (await h
      .db('attendance_log')
      .where('gate_id', gateId)
      .select(
        h.db.raw(`coalesce(sum(people) FILTER (WHERE direction = 'entry'), 0)::int AS entries`),
        h.db.raw(`coalesce(sum(people) FILTER (WHERE direction = 'exit'), 0)::int AS exits`),
      )) as Array<{ entries: number; exits: number }>;
    const [rows] = (await h
      .db('gate_presence')
      .where('gate_id', gateId)
      .select(
        h.db.raw('coalesce(sum(inside), 0)::int AS inside'),
        h.db.raw('min(inside) AS lowest'),
      )) as Array<{
      inside: number;
      lowest: number | null;
    }>;
    return { counters: c!, history: l!, presence: rows! };
  };

  before(async () => {
    h = await startHarness('events_gate_batch');
    eventId = await h.event(alice);
    await h.addStaff(alice, eventId, bob);
  });
  after(async () => h?.close());

  it('applies the gate scans that waited in one statement, each with its own conditions and answer', async () => {
    const hall = await gate(eventId, { name: 'Hall', scan_exits: true, allow_reentry: true });
    const lounge = await gate(eventId, { name: 'Lounge' }); // no exits scanned
    const otherEvent = await h.event(alice, { name: 'Other' });
    const otherGate = await gate(otherEvent, { name: 'Elsewhere', scan_exits: true });
    const invites: Array<{ id: string; code_unique: string }> = [];
    for (let i = 0; i < 6; i++)
      invites.push(await h.invite(alice, eventId, `Guest ${i}`, `gb${i}@example.test`));
    const at = (g: { id: string }, code: string, by: TestUser, direction: 'entry' | 'exit' = 'entry') =>
      ({
        eventId,
        gateId: g.id,
        code,
        direction,
        people: null,
        by: scanner(by),
        staffUserId: by.id,
      }) as HotGateScan;
    const scans: HotGateScan[] = [
      at(hall, invites[0]!.code_unique, bob),
      at(hall, invites[1]!.code_unique, bob),
      at(hall, invites[2]!.code_unique, alice),
      at(hall, invites[3]!.code_unique, bob),
      at(hall, invites[2]!.code_unique, bob), // the same code again in the batch: left to the full path
      at(hall, invites[4]!.code_unique, carol), // neither owner nor staff
      at(otherGate, invites[4]!.code_unique, bob), // a gate of another event
      at(hall, invites[5]!.code_unique, bob, 'exit'), // not inside
      at(lounge, invites[5]!.code_unique, bob, 'exit'), // exits not scanned there
      at(hall, 'UNKNOWNCODE000000000', bob),
    ];
    const writer = gateScanGroupCommit(h.db, testLogger('events'));
    const statements: string[] = [];
    const spy = (q: { sql: string }) => statements.push(q.sql);
    h.db.on('query', spy);
    const results = await Promise.all(scans.map((s) => writer.submit(s))).finally(() =>
      h.db.off('query', spy),
    );
    // two go at once (two statements in flight), the other eight wait and go together: three statements
    expect(statements.filter((sql) => sql.includes('INSERT INTO gate_presence'))).to.have.length(3);

    for (const i of [0, 1, 3])
      expect(results[i]).to.include({ nom: `Guest ${i}`, gate_name: 'Hall', inside: 1, people: 1 });
    expect([results[2], results[4]].filter(Boolean).map((r) => r!.nom)).to.deep.equal(['Guest 2']);
    expect(results.slice(5)).to.deep.equal([undefined, undefined, undefined, undefined, undefined]);

    expect(await countsOf(hall.id)).to.deep.equal({
      counters: { inside: 4, entries: 4, exits: 0 },
      history: { entries: 4, exits: 0 },
      presence: { inside: 4, lowest: 1 },
    });
    const present = await h.db('invites').where({ event_id: eventId, presence: true }).pluck('nom');
    expect(present.sort()).to.deep.equal(['Guest 0', 'Guest 1', 'Guest 2', 'Guest 3']);

    // exits of the same batch size: each leaves once
    const out = await Promise.all(
      [0, 1, 2, 3, 0].map((i) => writer.submit(at(hall, invites[i]!.code_unique, bob, 'exit'))),
    );
    expect(out.filter(Boolean)).to.have.length(4);
    expect((await countsOf(hall.id)).counters).to.deep.equal({ inside: 0, entries: 4, exits: 4 });
  });

  it('counts exactly once when the owner and staff scan the same codes at a gate at once (hot path)', async () => {
    const event = await h.event(alice, { name: 'Rush hour' });
    await h.addStaff(alice, event, bob);
    const g = await gate(event, { name: 'Main', scan_exits: true, allow_reentry: true });
    const guests: Array<{ id: string; code_unique: string }> = [];
    for (let i = 0; i < 15; i++)
      guests.push(await h.invite(alice, event, `Rush ${i}`, `rush${i}@example.test`));
    const party = (
      await request(h.app)
        .post(`/api/events/${event}/invites`)
        .set(h.auth(alice))
        .send({ nom: 'The Crowd', email: 'crowd@example.test', seats: 4 })
        .expect(201)
    ).body as { code_unique: string };
    const scan = (by: TestUser, code: string, direction: 'entry' | 'exit', people?: number) =>
      request(h.app)
        .post(`/api/events/${event}/checkin`)
        .set(h.auth(by))
        .send({ code_unique: code, gate_id: g.id, direction, ...(people ? { people } : {}) });
    const everyone = (direction: 'entry' | 'exit') =>
      Promise.all(
        guests.flatMap((inv) => [alice, bob, alice, bob].map((by) => scan(by, inv.code_unique, direction))),
      );

    const entries = await everyone('entry');
    expect(entries.filter((r) => r.status === 200)).to.have.length(15);
    const refused = entries.filter((r) => r.status === 409);
    expect(refused).to.have.length(45);
    // a second entry without exit names the gate and the time of the first
    for (const r of refused) {
      expect(r.body).to.include({ code: 'already_checked_in' });
      expect(r.body.gate).to.deep.equal({ id: g.id, name: 'Main' });
      expect(r.body.entered_at).to.be.a('string');
    }
    // the party: 4 scanners ask for 2 each at once; only 2 of them fit
    const partyIn = await Promise.all(
      [alice, bob, alice, bob].map((by) => scan(by, party.code_unique, 'entry', 2)),
    );
    expect(partyIn.filter((r) => r.status === 200)).to.have.length(2);
    expect(partyIn.filter((r) => r.status === 409 && r.body.code === 'already_checked_in')).to.have.length(2);
    expect((await countsOf(g.id)).counters).to.deep.equal({ inside: 19, entries: 19, exits: 0 });

    // exits and re-entries at once: each code leaves once; a re-entry counts only once it left
    const mixed = await Promise.all([
      ...guests.flatMap((inv) => [scan(alice, inv.code_unique, 'exit'), scan(bob, inv.code_unique, 'exit')]),
      ...[1, 2, 3].map(() => scan(bob, party.code_unique, 'exit', 1)),
      ...guests.slice(0, 5).map((inv) => scan(alice, inv.code_unique, 'entry')),
    ]);
    // each guest leaves once, or twice when a re-entry came between its two exits
    const exitsOk = mixed.slice(0, 30).filter((r) => r.status === 200).length;
    const reentries = mixed.slice(33).filter((r) => r.status === 200).length;
    expect(exitsOk).to.be.within(15, 15 + reentries);
    expect(
      mixed
        .slice(0, 30)
        .filter((r) => r.status !== 200)
        .every((r) => r.body.code === 'not_inside'),
    ).to.equal(true);
    expect(mixed.slice(30, 33).every((r) => r.status === 200)).to.equal(true);
    const { counters, history, presence } = await countsOf(g.id);
    expect(counters.inside).to.equal(history.entries - history.exits);
    expect(counters).to.include({ entries: history.entries, exits: history.exits });
    expect(presence.inside).to.equal(counters.inside);
    expect(presence.lowest).to.be.at.least(0);
    expect(history).to.deep.equal({ entries: 19 + reentries, exits: exitsOk + 3 });
    // the stats count people who arrived, once: 15 guests and 4 of the party
    const stats = (await request(h.app).get(`/api/events/${event}/stats`).set(h.auth(alice)).expect(200))
      .body;
    expect(stats).to.include({ total: 19, present: 19 });
  });
});
