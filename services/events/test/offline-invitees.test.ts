import { expect } from 'chai';
import request from 'supertest';
import { alice, bob, startHarness, type Harness } from './harness.ts';

/**
 * The changes feed renders each invitee once per version for every scanner that pulls it
 * (domain/offline-invitees.ts; docs/events.md, "Speed of the changes feed").
 */
describe('events: offline pages render each invitee once per version', () => {
  let h: Harness;
  let eventId: string;
  let cursor: string;
  const guests: Array<{ id: string; code_unique: string }> = [];

  const get = (path: string) => request(h.app).get(path).set(h.auth(alice));
  /** The SQL of the queries run while `f` runs. */
  async function queriesOf(f: () => Promise<unknown>): Promise<string[]> {
    const seen: string[] = [];
    const spy = (q: { sql: string }) => seen.push(q.sql);
    h.db.on('query', spy);
    try {
      await f();
    } finally {
      h.db.off('query', spy);
    }
    return seen;
  }
  const readsRows = (sql: string[]) => sql.some((q) => q.includes('where id = ANY('));

  before(async () => {
    h = await startHarness('events_offline_invitees');
    eventId = await h.event(alice);
    await h.addStaff(alice, eventId, bob);
    for (let i = 0; i < 4; i++)
      guests.push(await h.invite(alice, eventId, `Guest ${i}`, `oi${i}@example.test`));
    cursor = (await get(`/api/events/${eventId}/checkin/snapshot`).expect(200)).body.cursor as string;
  });
  after(async () => h?.close());

  it('reads a changed invitee once for many scanners, and again only once it changes', async () => {
    for (const g of guests.slice(0, 3))
      await request(h.app)
        .post(`/api/events/${eventId}/checkin`)
        .set(h.auth(bob))
        .send({ code_unique: g.code_unique })
        .expect(200);
    const url = `/api/events/${eventId}/checkin/changes?cursor=${cursor}`;
    let first: request.Response | undefined;
    expect(readsRows(await queriesOf(async () => (first = await get(url).expect(200))))).to.equal(true);
    expect(first!.body.changes.map((c: { status: string }) => c.status)).to.deep.equal([
      'checked_in',
      'checked_in',
      'checked_in',
    ]);
    // the other scanners pulling the same changes: the rows are not read again, the answer is the same
    for (let i = 0; i < 3; i++) {
      let again: request.Response | undefined;
      expect(readsRows(await queriesOf(async () => (again = await get(url).expect(200))))).to.equal(false);
      expect(again!.body.changes).to.deep.equal(first!.body.changes);
      // The same ETag exactly for the same answer: its cursor moves on when other transactions
      // (tests running beside this one on the same PostgreSQL) commit in between.
      expect(again!.headers.etag === first!.headers.etag).to.equal(
        JSON.stringify(again!.body) === JSON.stringify(first!.body),
      );
    }
    // marked absent: a new version, read and rendered anew
    await request(h.app)
      .put(`/api/events/${eventId}/invites/${guests[1]!.id}/presence`)
      .set(h.auth(alice))
      .send({ presence: false })
      .expect(200);
    let changed: request.Response | undefined;
    expect(readsRows(await queriesOf(async () => (changed = await get(url).expect(200))))).to.equal(true);
    const byId = new Map(
      (changed!.body.changes as Array<{ id: string; status: string }>).map((c) => [c.id, c.status]),
    );
    expect(byId.get(guests[1]!.id)).to.equal('valid');
    expect(byId.get(guests[0]!.id)).to.equal('checked_in');
    expect(changed!.headers.etag).to.not.equal(first!.headers.etag);
  });

  it('leaves out an invitee deleted between the keys and the rows, and names it in deleted', async () => {
    const doomed = await h.invite(alice, eventId, 'Doomed', 'doomed@example.test');
    await request(h.app).delete(`/api/events/${eventId}/invites/${doomed.id}`).set(h.auth(alice)).expect(204);
    const body = (await get(`/api/events/${eventId}/checkin/changes?cursor=${cursor}`).expect(200)).body as {
      changes: Array<{ id: string }>;
      deleted: string[];
    };
    expect(body.changes.map((c) => c.id)).to.not.include(doomed.id);
    expect(body.deleted).to.include(doomed.id);
  });
});
