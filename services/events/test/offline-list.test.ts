import { createHash, createPublicKey, verify } from 'node:crypto';
import { expect } from 'chai';
import request from 'supertest';
import { alice, bob, startHarness, type Harness } from './harness.ts';

interface Invitee {
  id: string;
  nom: string;
  type_invite: string;
  code_hash: string;
  status: string;
  checked_in_at: string | null;
  scanne_par: string | null;
  seats: number;
  arrived: number;
}

const hashOf = (code: string) =>
  createHash('sha256').update(code).digest().subarray(0, 16).toString('base64url');

describe('events: the offline copy of scanners (snapshot, changes since a cursor) and signed codes', function () {
  this.timeout(60_000);
  let h: Harness;
  let eventId: string;
  const guests: Array<{ id: string; nom: string; code_unique: string }> = [];

  const get = (path: string, who = h.auth(alice)) => request(h.app).get(path).set(who);
  /** Every page of the download, with `limit` a page; the invitees and the changes cursor. */
  async function download(limit: number, who = h.auth(alice)) {
    const all: Invitee[] = [];
    let page: string | null = null;
    let pages = 0;
    for (;;) {
      const res = await get(
        `/api/events/${eventId}/checkin/snapshot?limit=${limit}${page ? `&page=${page}` : ''}`,
        who,
      ).expect(200);
      pages++;
      all.push(...(res.body.invitees as Invitee[]));
      if (!res.body.next_page) {
        expect(res.body.cursor).to.be.a('string');
        return { all, cursor: res.body.cursor as string, pages, publicKey: res.body.public_key as string };
      }
      expect(res.body.cursor).to.equal(null);
      page = res.body.next_page as string;
    }
  }
  const changes = async (cursor: string) =>
    (await get(`/api/events/${eventId}/checkin/changes?cursor=${cursor}`).expect(200)).body as {
      changes: Invitee[];
      deleted: string[];
      cursor: string;
      more: boolean;
    };

  before(async () => {
    h = await startHarness('events_offline_list');
    eventId = await h.event(alice);
    await h.addStaff(alice, eventId, bob);
    for (const nom of ['Ada Lovelace', 'Grace Hopper', 'Hedy Lamarr', 'Katherine Johnson', 'Marie Curie'])
      guests.push(await h.invite(alice, eventId, nom, `${nom.split(' ')[0]!.toLowerCase()}@example.test`));
  });
  after(async () => h?.close());

  it('downloads every invitee a page at a time, with the hash of the code (never the code) and the status', async () => {
    const { all, pages } = await download(2, h.auth(bob));
    expect(pages).to.equal(3);
    expect(all.map((i) => i.nom).sort()).to.deep.equal(guests.map((g) => g.nom).sort());
    const ada = all.find((i) => i.nom === 'Ada Lovelace')!;
    expect(ada).to.deep.equal({
      id: guests[0]!.id,
      nom: 'Ada Lovelace',
      type_invite: 'standard',
      code_hash: hashOf(guests[0]!.code_unique),
      status: 'valid',
      checked_in_at: null,
      scanne_par: null,
      seats: 1,
      arrived: 0,
    });
    expect(JSON.stringify(all)).not.to.include(guests[0]!.code_unique);
  });

  it('a scanner device of the event downloads it too', async () => {
    const device = await request(h.app)
      .post(`/api/events/${eventId}/devices`)
      .set(h.auth(alice))
      .send({ name: 'Door 1' })
      .expect(201);
    const { all } = await download(100, h.deviceAuth({ id: device.body.id as string, eventId }));
    expect(all).to.have.length(guests.length);
  });

  it('changes since the cursor: checked in elsewhere, revoked, new, deleted; nothing again once read', async () => {
    const { cursor } = await download(100);
    expect((await changes(cursor)).changes).to.deep.equal([]);
    await request(h.app)
      .post(`/api/events/${eventId}/checkin`)
      .set(h.auth(bob))
      .send({ code_unique: guests[1]!.code_unique })
      .expect(200);
    await request(h.app)
      .patch(`/api/events/${eventId}/invites/${guests[2]!.id}`)
      .set(h.auth(alice))
      .send({ revoked: true })
      .expect(200);
    const added = await h.invite(alice, eventId, 'Rosalind Franklin', 'rosalind@example.test');
    await request(h.app)
      .delete(`/api/events/${eventId}/invites/${guests[4]!.id}`)
      .set(h.auth(alice))
      .expect(204);
    const got = await changes(cursor);
    const byName = new Map(got.changes.map((c) => [c.nom, c]));
    expect(byName.get('Grace Hopper')).to.include({ status: 'checked_in', scanne_par: 'Bob Staff' });
    expect(byName.get('Hedy Lamarr')).to.include({ status: 'revoked' });
    expect(byName.get('Rosalind Franklin')).to.include({
      status: 'valid',
      code_hash: hashOf(added.code_unique),
    });
    expect(byName.has('Ada Lovelace')).to.equal(false);
    expect(got.deleted).to.deep.equal([guests[4]!.id]);
    expect(got.more).to.equal(false);
    const after = await changes(got.cursor);
    expect(after.changes).to.deep.equal([]);
    expect(after.deleted).to.deep.equal([]);
  });

  it('a change committed after a cursor was taken, by a transaction begun before it, is still read', async () => {
    const { cursor } = await download(100);
    const trx = await h.db.transaction();
    await trx('invites').where({ id: guests[0]!.id }).update({ nom: 'Ada King' });
    const during = await changes(cursor);
    expect(during.changes.map((c) => c.nom)).not.to.include('Ada King');
    await trx.commit();
    const got = await changes(during.cursor);
    expect(got.changes.map((c) => c.nom)).to.include('Ada King');
  });

  it('a change read once is not read again while an older transaction elsewhere stays open', async () => {
    // Another transaction of the cluster (another service's, another test's) that began first and
    // is still running: a cursor kept as the snapshot's xmin alone re-read every change after it.
    const elsewhere = await h.db.transaction();
    await elsewhere.raw('SELECT pg_current_xact_id()');
    try {
      const { cursor } = await download(100);
      await request(h.app)
        .patch(`/api/events/${eventId}/invites/${guests[3]!.id}`)
        .set(h.auth(alice))
        .send({ nom: 'Katherine G. Johnson' })
        .expect(200);
      const got = await changes(cursor);
      expect(got.changes.map((c) => c.nom)).to.deep.equal(['Katherine G. Johnson']);
      const again = await changes(got.cursor);
      expect(again.changes).to.deep.equal([]);
      expect(again.deleted).to.deep.equal([]);
    } finally {
      await elsewhere.rollback();
    }
  });

  it('pages of changes: `more` until all are read, each change once', async () => {
    const { cursor } = await download(100);
    for (const [i, g] of guests.slice(0, 4).entries())
      await request(h.app)
        .patch(`/api/events/${eventId}/invites/${g.id}`)
        .set(h.auth(alice))
        .send({ nom: `Renamed ${i}` })
        .expect(200);
    const seen: string[] = [];
    let at = cursor;
    for (;;) {
      const res = (await get(`/api/events/${eventId}/checkin/changes?cursor=${at}&limit=3`).expect(200))
        .body as {
        changes: Invitee[];
        cursor: string;
        more: boolean;
      };
      seen.push(...res.changes.map((c) => c.nom));
      at = res.cursor;
      if (!res.more) break;
    }
    expect(seen.sort()).to.deep.equal(['Renamed 0', 'Renamed 1', 'Renamed 2', 'Renamed 3']);
  });

  it('a cursor or page token the service did not give is a 422 naming it', async () => {
    const bad = await get(`/api/events/${eventId}/checkin/changes?cursor=bm9wZQ`).expect(422);
    expect(bad.body.errors).to.have.property('cursor');
    const page = await get(`/api/events/${eventId}/checkin/snapshot?page=e30`).expect(422);
    expect(page.body.errors).to.have.property('page');
  });

  it('a party scanned offline at a gate: the copy has seats and arrived; the batch records the gate, direction and people', async () => {
    // Its own event: the other tests count this one's invitees.
    const partyEvent = await h.event(alice);
    await h.addStaff(alice, partyEvent, bob);
    const hall = (
      await request(h.app)
        .post(`/api/events/${partyEvent}/gates`)
        .set(h.auth(alice))
        .send({ name: 'Hall', scan_exits: true, allow_reentry: true })
        .expect(201)
    ).body as { id: string };
    const curies = (
      await request(h.app)
        .post(`/api/events/${partyEvent}/invites`)
        .set(h.auth(alice))
        .send({ nom: 'The Curies', email: 'curies@example.test', seats: 5 })
        .expect(201)
    ).body as { id: string; code_unique: string };
    const first = await get(`/api/events/${partyEvent}/checkin/snapshot`, h.auth(bob)).expect(200);
    expect(first.body.invitees[0]).to.include({ nom: 'The Curies', seats: 5, arrived: 0, status: 'valid' });

    // What a scanner queued offline: 3 in, 1 out, then 1 in again, at the Hall.
    const batch = await request(h.app)
      .post(`/api/events/${partyEvent}/checkin/batch`)
      .set(h.auth(bob))
      .send({
        scans: [
          { code_unique: curies.code_unique, nonce: 'n-1', gate_id: hall.id, people: 3 },
          { code_unique: curies.code_unique, nonce: 'n-2', gate_id: hall.id, direction: 'exit', people: 1 },
          { code_unique: curies.code_unique, nonce: 'n-3', gate_id: hall.id, direction: 'entry', people: 1 },
        ],
      })
      .expect(200);
    const results = batch.body.results as Array<Record<string, unknown>>;
    expect(results.map((r) => r.result)).to.deep.equal(['checked_in', 'checked_out', 'checked_in']);
    expect(results[0]).to.include({ direction: 'entry', people: 3, seats: 5, arrived: 3, inside: 3 });
    expect(results[0]!.gate).to.include({ id: hall.id, name: 'Hall' });
    expect(results[1]).to.include({ direction: 'exit', people: 1, inside: 2 });
    expect(results[2]).to.include({ direction: 'entry', people: 1, inside: 3 });
    const gates = (await get(`/api/events/${partyEvent}/attendance`).expect(200)).body.gates as {
      inside: number;
      entries: number;
      exits: number;
      gates: Array<{ id: string | null; inside: number; entries: number; exits: number }>;
    };
    expect(gates.gates.find((g) => g.id === hall.id)).to.include({ inside: 3, entries: 4, exits: 1 });
    const history = (await get(`/api/events/${partyEvent}/invites/${curies.id}/history`).expect(200)).body;
    const rows = (Array.isArray(history) ? history : history.data) as Array<Record<string, unknown>>;
    expect(
      rows.filter((r) => r.gate_id === hall.id).map((r) => [r.direction, r.people]),
    ).to.have.deep.members([
      ['entry', 3],
      ['exit', 1],
      ['entry', 1],
    ]);

    // The copy hears it: 3 of 5 arrived (so a scanner offline lets 2 more in, not 5).
    const changed = (
      await get(`/api/events/${partyEvent}/checkin/changes?cursor=${first.body.cursor as string}`).expect(200)
    ).body as { changes: Invitee[] };
    expect(changed.changes).to.have.length(1);
    expect(changed.changes[0]).to.include({ status: 'checked_in', seats: 5, arrived: 3 });
  });

  it('signed codes: the public key alone tells a real code from a forged one; the service checks them in', async () => {
    const marie = await h.invite(alice, eventId, 'Lise Meitner', 'lise@example.test');
    const signed = (await get(`/api/events/${eventId}/invites/${marie.id}/signed-code`).expect(200)).body as {
      signed_code: string;
      public_key: string;
    };
    expect(signed.signed_code).to.match(/^FH1[A-Z2-7]+$/);
    const keys = (await get(`/api/events/${eventId}/checkin/keys`, h.auth(bob)).expect(200)).body as {
      algorithm: string;
      public_key: string;
      revoked: string[];
    };
    expect(keys.algorithm).to.equal('Ed25519');
    expect(keys.public_key).to.equal(signed.public_key);
    expect(keys.revoked).to.include(guests[2]!.id);

    // A scanner holding only the public key: base32 -> invite id | signature | code.
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: keys.public_key }, format: 'jwk' });
    const bytes = base32Decode(signed.signed_code.slice(3));
    const id = bytes.subarray(0, 16);
    const signature = bytes.subarray(16, 80);
    const code = bytes.subarray(80);
    const message = (invite: Buffer, c: Buffer) =>
      Buffer.concat([
        Buffer.from('fieldhouse-code-v1\0'),
        Buffer.from(eventId.replace(/-/g, ''), 'hex'),
        invite,
        c,
      ]);
    expect(verify(null, message(id, code), key, signature)).to.equal(true);
    expect(code.toString()).to.equal(marie.code_unique);
    // Forged: another code with the same signature.
    expect(verify(null, message(id, Buffer.from(guests[0]!.code_unique)), key, signature)).to.equal(false);

    // The service: the signed code checks in; an altered one is unknown; another event's too.
    const forged =
      signed.signed_code.slice(0, 40) +
      (signed.signed_code[40] === 'A' ? 'B' : 'A') +
      signed.signed_code.slice(41);
    const refused = await request(h.app)
      .post(`/api/events/${eventId}/checkin`)
      .set(h.auth(bob))
      .send({ code_unique: forged })
      .expect(404);
    expect(refused.body.result).to.equal('unknown_code');
    const other = await h.event(alice);
    await request(h.app)
      .post(`/api/events/${other}/checkin`)
      .set(h.auth(alice))
      .send({ code_unique: signed.signed_code })
      .expect(404);
    const done = await request(h.app)
      .post(`/api/events/${eventId}/checkin`)
      .set(h.auth(bob))
      .send({ code_unique: signed.signed_code })
      .expect(200);
    expect(done.body.invite.nom).to.equal('Lise Meitner');
  });
});

/** RFC 4648 base32 without padding (the scanner's side, written for the test). */
function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of text) {
    value = ((value << 5) | alphabet.indexOf(ch)) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}
