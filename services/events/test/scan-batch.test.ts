import { expect } from 'chai';
import type { Scanner } from '../src/data/attendance.ts';
import { scanGroupCommit, type HotScan } from '../src/data/scan-batch.ts';
import { testLogger } from '@fieldhouse/testkit';
import { alice, bob, carol, startHarness, type Harness, type TestUser } from './harness.ts';

describe('events service: group commit of scanner check-ins (real PostgreSQL)', () => {
  let h: Harness;
  let eventId: string;
  let otherEventId: string;

  const scanner = (u: TestUser, device = 'gate-1'): Scanner => ({
    scanne_par: u.name,
    userId: u.id,
    deviceId: null,
    userName: u.name,
    device,
    scannedAt: null,
  });

  before(async () => {
    h = await startHarness('events_scan_batch');
    eventId = await h.event(alice);
    otherEventId = await h.event(alice, { name: 'Other' });
    await h.addStaff(alice, eventId, bob);
  });
  after(async () => h?.close());

  it('applies the scans that waited in one statement, each with its own outcome', async () => {
    const invites: Array<{ id: string; nom: string; code_unique: string }> = [];
    for (let i = 0; i < 7; i++)
      invites.push(await h.invite(alice, eventId, `Guest ${i}`, `g${i}@example.test`));
    const foreign = await h.invite(alice, otherEventId, 'Elsewhere', 'elsewhere@example.test');
    const scans: HotScan[] = [
      ...invites
        .slice(0, 6)
        .map((inv) => ({ eventId, code: inv.code_unique, by: scanner(bob), staffUserId: bob.id })),
      { eventId, code: invites[1]!.code_unique, by: scanner(alice, 'gate-2'), staffUserId: alice.id }, // same code again
      { eventId, code: foreign.code_unique, by: scanner(bob), staffUserId: bob.id }, // another event's code
      { eventId, code: invites[6]!.code_unique, by: scanner(carol), staffUserId: carol.id }, // no access
      { eventId, code: 'UNKNOWNCODE000000000', by: scanner(bob), staffUserId: bob.id },
    ];
    const writer = scanGroupCommit(h.db, testLogger('events'));
    const statements: string[] = [];
    const spy = (q: { sql: string }) => statements.push(q.sql);
    h.db.on('query', spy);
    const results = await Promise.all(scans.map((s) => writer.submit(s))).finally(() =>
      h.db.off('query', spy),
    );
    const batched = statements.filter((sql) => sql.includes('jsonb_to_recordset'));
    const single = statements.filter(
      (sql) => sql.includes('WITH upd AS') && !sql.includes('jsonb_to_recordset'),
    );
    expect([batched.length, single.length]).to.deep.equal([1, 2]); // 2 at once, then 8 in one statement

    // two of the scans go at once (two statements in flight), the other eight wait and go together
    const once = [0, 2, 3, 4, 5];
    for (const i of once) expect(results[i]).to.include({ scanne_par: bob.name });
    expect(results.map((r) => r?.nom)).to.include.members(once.map((i) => `Guest ${i}`));
    // the same code scanned twice: exactly one of the two scans checked it in
    expect([results[1], results[6]].filter(Boolean).map((r) => r!.nom)).to.deep.equal(['Guest 1']);
    expect(results.slice(7)).to.deep.equal([undefined, undefined, undefined]);

    const log = (await h.db('attendance_log').where({ event_id: eventId, action: 'checkin' })) as Array<{
      invite_id: string;
      user_id: number;
    }>;
    expect(log.map((l) => l.invite_id).sort()).to.deep.equal(
      invites
        .slice(0, 6)
        .map((inv) => inv.id)
        .sort(),
    );
    const byWinner = results[1] ? bob.id : alice.id;
    expect(log.find((l) => l.invite_id === invites[1]!.id)?.user_id).to.equal(byWinner);
    const present = await h.db('invites').where({ presence: true }).pluck('id');
    expect(present.sort()).to.deep.equal(
      invites
        .slice(0, 6)
        .map((inv) => inv.id)
        .sort(),
    );
  });

  it('when the batch statement fails, retries each scan alone: only the bad one fails', async () => {
    const a = await h.invite(alice, eventId, 'Ada', 'ada@example.test');
    const b = await h.invite(alice, eventId, 'Ben', 'ben@example.test');
    const writer = scanGroupCommit(h.db, testLogger('events'));
    const [first, good, bad] = await Promise.allSettled([
      writer.submit({ eventId, code: a.code_unique, by: scanner(bob), staffUserId: bob.id }),
      writer.submit({ eventId, code: b.code_unique, by: scanner(bob), staffUserId: bob.id }),
      writer.submit({ eventId: 'not-a-uuid', code: a.code_unique, by: scanner(bob), staffUserId: bob.id }),
    ]);
    expect(first.status === 'fulfilled' && first.value?.nom).to.equal('Ada');
    expect(good.status === 'fulfilled' && good.value?.nom).to.equal('Ben');
    expect(bad.status).to.equal('rejected');
    expect(await h.db('attendance_log').whereIn('invite_id', [a.id, b.id]).count({ n: '*' })).to.deep.equal([
      { n: 2 },
    ]);
  });
});
