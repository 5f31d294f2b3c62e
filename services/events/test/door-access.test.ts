import { expect } from 'chai';
import request from 'supertest';
import { alice, bob, carol, startHarness, type Harness } from './harness.ts';

/**
 * The access table of docs/events.md ("Who may do what"), one request per cell: every action
 * of the API by the owner, a staff member, a scanner device of the event, a signed-in user who is
 * neither (outsider) and an anonymous caller. `ok` is any 2xx; the other cells are the status.
 * Each cell runs on a fresh event (with an invite, the staff member and a device), so a cell that
 * deletes or changes something never affects another.
 */
type Role = 'owner' | 'staff' | 'device' | 'outsider' | 'anonymous';
type Cell = 'ok' | 401 | 403 | 404;

interface Fixture {
  eventId: string;
  inviteId: string;
  code: string;
  cursor: string;
}

interface Action {
  name: string;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: (f: Fixture) => string;
  body?: (f: Fixture) => unknown;
  csv?: string;
  expected: Record<Role, Cell>;
}

const ALL_READ = { owner: 'ok', staff: 'ok', device: 403, outsider: 404, anonymous: 401 } as const;
const SCAN = { owner: 'ok', staff: 'ok', device: 'ok', outsider: 404, anonymous: 401 } as const;
const MANAGE = { owner: 'ok', staff: 403, device: 403, outsider: 404, anonymous: 401 } as const;

/** The table of docs/events.md, "Who may do what" (same rows, same order). */
const TABLE: Action[] = [
  { name: 'read the event', method: 'get', path: (f) => `/api/events/${f.eventId}`, expected: ALL_READ },
  {
    name: 'edit the event',
    method: 'patch',
    path: (f) => `/api/events/${f.eventId}`,
    body: () => ({ location: 'Paris' }),
    expected: MANAGE,
  },
  { name: 'delete the event', method: 'delete', path: (f) => `/api/events/${f.eventId}`, expected: MANAGE },
  { name: 'list the staff', method: 'get', path: (f) => `/api/events/${f.eventId}/staff`, expected: MANAGE },
  {
    name: 'give the check-in role',
    method: 'post',
    path: (f) => `/api/events/${f.eventId}/staff`,
    body: () => ({ user_id: carol.id }),
    expected: MANAGE,
  },
  {
    name: 'list scanner devices',
    method: 'get',
    path: (f) => `/api/events/${f.eventId}/devices`,
    expected: MANAGE,
  },
  {
    name: 'create a scanner device',
    method: 'post',
    path: (f) => `/api/events/${f.eventId}/devices`,
    body: () => ({ name: 'Door 2' }),
    expected: MANAGE,
  },
  {
    name: 'list webhooks',
    method: 'get',
    path: (f) => `/api/events/${f.eventId}/webhooks`,
    expected: MANAGE,
  },
  {
    name: 'create an invite',
    method: 'post',
    path: (f) => `/api/events/${f.eventId}/invites`,
    body: () => ({ nom: 'New Guest', email: 'new.guest@example.test' }),
    expected: MANAGE,
  },
  {
    name: 'import invites (CSV)',
    method: 'post',
    path: (f) => `/api/events/${f.eventId}/invites/import`,
    csv: 'nom,email\nCsv Guest,csv.guest@example.test\n',
    expected: MANAGE,
  },
  {
    name: 'edit an invite',
    method: 'patch',
    path: (f) => `/api/events/${f.eventId}/invites/${f.inviteId}`,
    body: () => ({ nom: 'Renamed' }),
    expected: MANAGE,
  },
  {
    name: 'revoke an invite',
    method: 'patch',
    path: (f) => `/api/events/${f.eventId}/invites/${f.inviteId}`,
    body: () => ({ revoked: true }),
    expected: MANAGE,
  },
  {
    name: 'resend an invitation',
    method: 'post',
    path: (f) => `/api/events/${f.eventId}/invites/${f.inviteId}/resend`,
    expected: MANAGE,
  },
  {
    name: 'delete an invite',
    method: 'delete',
    path: (f) => `/api/events/${f.eventId}/invites/${f.inviteId}`,
    expected: MANAGE,
  },
  {
    name: 'list or look up invites',
    method: 'get',
    path: (f) => `/api/events/${f.eventId}/invites?search=Guest`,
    expected: SCAN,
  },
  {
    name: 'read an invite',
    method: 'get',
    path: (f) => `/api/events/${f.eventId}/invites/${f.inviteId}`,
    expected: ALL_READ,
  },
  {
    name: 'read an invite’s history',
    method: 'get',
    path: (f) => `/api/events/${f.eventId}/invites/${f.inviteId}/history`,
    expected: ALL_READ,
  },
  {
    name: 'QR code of an invite',
    method: 'get',
    path: (f) => `/api/events/${f.eventId}/invites/${f.inviteId}/qr.svg`,
    expected: ALL_READ,
  },
  {
    name: 'signed code of an invite',
    method: 'get',
    path: (f) => `/api/events/${f.eventId}/invites/${f.inviteId}/signed-code`,
    expected: ALL_READ,
  },
  {
    name: 'mark present or absent (check-in / undo from the list)',
    method: 'put',
    path: (f) => `/api/events/${f.eventId}/invites/${f.inviteId}/presence`,
    body: () => ({ presence: true }),
    expected: ALL_READ,
  },
  {
    name: 'scan a code',
    method: 'post',
    path: (f) => `/api/events/${f.eventId}/checkin`,
    body: (f) => ({ code_unique: f.code }),
    expected: SCAN,
  },
  {
    name: 'send an offline batch',
    method: 'post',
    path: (f) => `/api/events/${f.eventId}/checkin/batch`,
    body: (f) => ({ scans: [{ code_unique: f.code, nonce: 'n-1' }] }),
    expected: SCAN,
  },
  {
    name: 'download the list for offline scanning',
    method: 'get',
    path: (f) => `/api/events/${f.eventId}/checkin/snapshot`,
    expected: SCAN,
  },
  {
    name: 'read the changes since a cursor',
    method: 'get',
    path: (f) => `/api/events/${f.eventId}/checkin/changes?cursor=${f.cursor}`,
    expected: SCAN,
  },
  {
    name: 'read the public key and revocation list',
    method: 'get',
    path: (f) => `/api/events/${f.eventId}/checkin/keys`,
    expected: SCAN,
  },
  {
    name: 'read the statistics',
    method: 'get',
    path: (f) => `/api/events/${f.eventId}/stats`,
    expected: SCAN,
  },
  {
    name: 'read the live attendance',
    method: 'get',
    path: (f) => `/api/events/${f.eventId}/attendance`,
    expected: ALL_READ,
  },
];

const ROLES: Role[] = ['owner', 'staff', 'device', 'outsider', 'anonymous'];

describe('events: who may do what (the access table of docs/events.md, one request per cell)', function () {
  this.timeout(60_000);
  let h: Harness;

  before(async () => {
    h = await startHarness('events_door_access');
    // Carol has called once, so she can be named staff (the users projection knows her).
    await request(h.app).get('/api/events').set(h.auth(carol)).expect(200);
  });
  after(async () => h?.close());

  /** A fresh event with an invite, Bob as staff and a scanner device; the header of `role`. */
  async function fixture(role: Role): Promise<{ f: Fixture; headers: Record<string, string> }> {
    const eventId = await h.event(alice);
    const inv = await h.invite(alice, eventId, 'Guest One', `guest.${eventId.slice(0, 8)}@example.test`);
    await h.addStaff(alice, eventId, bob);
    const device = await request(h.app)
      .post(`/api/events/${eventId}/devices`)
      .set(h.auth(alice))
      .send({ name: 'Door 1' })
      .expect(201);
    const snap = await request(h.app)
      .get(`/api/events/${eventId}/checkin/snapshot`)
      .set(h.auth(alice))
      .expect(200);
    const f = { eventId, inviteId: inv.id, code: inv.code_unique, cursor: snap.body.cursor as string };
    const headers: Record<Role, Record<string, string>> = {
      owner: h.auth(alice),
      staff: h.auth(bob),
      device: h.deviceAuth({ id: device.body.id as string, eventId }),
      outsider: h.auth(carol),
      anonymous: {},
    };
    return { f, headers: headers[role] };
  }

  for (const action of TABLE)
    for (const role of ROLES) {
      const want = action.expected[role];
      it(`${action.name} — ${role}: ${want === 'ok' ? 'allowed' : want}`, async () => {
        const { f, headers } = await fixture(role);
        let req = request(h.app)[action.method](action.path(f)).set(headers);
        if (action.csv) req = req.set('content-type', 'text/csv').send(action.csv);
        else if (action.body) req = req.send(action.body(f) as object);
        const res = await req;
        if (want === 'ok') expect(res.status, JSON.stringify(res.body)).to.be.within(200, 299);
        else expect(res.status, JSON.stringify(res.body)).to.equal(want);
      });
    }

  it('GET /api/events/access: each event with the caller’s role and permissions (owner, staff; outsiders see none)', async () => {
    const { f } = await fixture('owner');
    const of = async (who: typeof alice) =>
      (
        (await request(h.app).get('/api/events/access').set(h.auth(who)).expect(200)).body as {
          events: Array<{ event_id: string; role: string; permissions: string[] }>;
        }
      ).events.find((e) => e.event_id === f.eventId);
    expect(await of(alice)).to.deep.equal({
      event_id: f.eventId,
      role: 'owner',
      permissions: ['event.read', 'event.manage', 'event.scan'],
    });
    expect(await of(bob)).to.deep.equal({
      event_id: f.eventId,
      role: 'staff',
      permissions: ['event.read', 'event.scan'],
    });
    expect(await of(carol)).to.equal(undefined);
  });
});
