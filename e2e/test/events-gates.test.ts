import { expect } from 'chai';
import request from 'supertest';
import { startStack, type TestStack } from './support/stack.ts';
import { registerUser } from './support/users.ts';

type User = Awaited<ReturnType<typeof registerUser>>;

/** Issue 36 through the gateway: gates, entries and exits, parties, the CSV import (docs/events.md). */
describe('events through the gateway: gates, parties and the CSV import', function () {
  this.timeout(120_000);
  let stack: TestStack;
  let owner: User;
  let eventId: string;
  const api = () => request(stack.gatewayUrl);
  const as = <T extends { auth: (t: string, o: { type: 'bearer' }) => T }>(r: T) =>
    r.auth(owner.token, { type: 'bearer' });
  const scan = (body: Record<string, unknown>) => as(api().post(`/api/events/${eventId}/checkin`)).send(body);

  before(async () => {
    stack = await startStack();
    owner = await registerUser(stack.gatewayUrl, 'Gate Owner');
    eventId = (
      await as(api().post('/api/events'))
        .send({ name: 'Regatta', start_date: '2031-08-01T10:00:00', location: 'La Rochelle' })
        .expect(201)
    ).body.id;
  });
  after(async () => stack?.stop());

  it('lets an invitee in, out and in again at a gate, refuses a second entry naming the gate, and counts exactly', async () => {
    const gate = (
      await as(api().post(`/api/events/${eventId}/gates`))
        .send({ name: 'Pier', scan_exits: true, allow_reentry: true })
        .expect(201)
    ).body as { id: string };
    const inv = (
      await as(api().post(`/api/events/${eventId}/invites`))
        .send({ nom: 'Éric Tabarly', email: 'eric@example.test' })
        .expect(201)
    ).body as { code_unique: string };
    await scan({ code_unique: inv.code_unique, gate_id: gate.id }).expect(200);
    await scan({ code_unique: inv.code_unique, gate_id: gate.id, direction: 'exit' }).expect(200);
    await scan({ code_unique: inv.code_unique, gate_id: gate.id }).expect(200);
    const refused = await scan({ code_unique: inv.code_unique, gate_id: gate.id }).expect(409);
    expect(refused.body).to.include({ code: 'already_checked_in', result: 'already_checked_in' });
    expect(refused.body.detail).to.equal(
      `Éric Tabarly is already inside: entered through Pier at ${refused.body.entered_at}.`,
    );
    expect(refused.body.gate).to.deep.equal({ id: gate.id, name: 'Pier' });
    const att = (await as(api().get(`/api/events/${eventId}/attendance`)).expect(200)).body;
    expect(att.gates.gates.find((g: { id: string }) => g.id === gate.id)).to.include({
      inside: 1,
      entries: 2,
      exits: 1,
    });
  });

  it('admits a party of 5 as 3 then 2, counting people in the stats', async () => {
    const inv = (
      await as(api().post(`/api/events/${eventId}/invites`))
        .send({ nom: 'The Crew', email: 'crew@example.test', seats: 5 })
        .expect(201)
    ).body as { code_unique: string };
    const before = (await as(api().get(`/api/events/${eventId}/stats`)).expect(200)).body;
    expect((await scan({ code_unique: inv.code_unique, people: 3 }).expect(200)).body.message).to.equal(
      "3 of 5 arrived: The Crew's party.",
    );
    await scan({ code_unique: inv.code_unique, people: 2 }).expect(200);
    const after = (await as(api().get(`/api/events/${eventId}/stats`)).expect(200)).body;
    expect(after.present - before.present).to.equal(5);
  });

  it('imports an English CSV with English type values, e-mails held back until sent', async () => {
    const res = await as(api().post(`/api/events/${eventId}/invites/import?emails=later`))
      .set('content-type', 'text/csv')
      .send(
        'Name,Email,Type\nFlorence Arthaud,florence@example.test,speaker\nPress Desk,press@example.test,PRESS\n',
      )
      .expect(200);
    expect(res.body).to.include({ created: 2, failed: 0, emails: 'later' });
    expect(res.body.results.map((r: { type_invite: string }) => r.type_invite)).to.deep.equal([
      'intervenant',
      'presse',
    ]);
    const sent = await as(api().post(`/api/events/${eventId}/invites/send-held`)).expect(202);
    expect(sent.body).to.deep.equal({ queued: 2 });
  });
});
