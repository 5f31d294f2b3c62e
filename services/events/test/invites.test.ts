import { expect } from 'chai';
import request from 'supertest';
import { CODE_ALPHABET } from '../src/domain/codes.ts';
import { users } from '../src/users-projection.ts';
import { alice, bob, carol, startHarness, type Harness } from './harness.ts';

describe('events service: invites', () => {
  let h: Harness;
  let eventId: string;
  before(async () => {
    h = await startHarness('events_invites');
    eventId = await h.event(alice);
    await h.addStaff(alice, eventId, bob);
  });
  after(async () => h?.close());

  it('creates an invite answering exactly {id, nom, code_unique} and queues its e-mail in the outbox', async () => {
    const res = await request(h.app)
      .post(`/api/events/${eventId}/invites`)
      .set(h.auth(alice))
      .send({ nom: 'Zoé Dupont', email: 'Zoe@Example.test', type_invite: 'VIP' })
      .expect(201);
    expect(res.body).to.have.keys('id', 'nom', 'code_unique');
    expect(res.body.nom).to.equal('Zoé Dupont');
    expect(res.body.code_unique).to.have.length(22);
    for (const c of res.body.code_unique as string) expect(CODE_ALPHABET).to.include(c);
    expect(res.body.code_unique).to.not.match(/[01ILOUV]/);
    const outbox = await h.db('outbox').select('message');
    const mail = outbox.map((r) => r.message).find((m) => m.data.to[0] === 'zoe@example.test');
    expect(mail.type).to.equal('email.requested');
    expect(mail.data.attachments[0]).to.include({ contentType: 'image/png', cid: 'qr' });
    const got = await request(h.app)
      .get(`/api/events/${eventId}/invites/${res.body.id}`)
      .set(h.auth(alice))
      .expect(200);
    expect(got.body).to.include({
      email: 'zoe@example.test',
      type_invite: 'vip',
      presence: false,
      revoked: false,
    });
  });

  const create = (body: Record<string, unknown>) =>
    request(h.app).post(`/api/events/${eventId}/invites`).set(h.auth(alice)).send(body);

  it('refuses an unknown type_invite with 422 naming it', async () => {
    const bad = await create({ nom: 'A', email: 'a@example.test', type_invite: 'king' }).expect(422);
    expect(bad.body.errors).to.have.property('type_invite');
  });

  it('refuses an address that is not an e-mail with 422', async () => {
    await create({ nom: 'A', email: 'not-mail' }).expect(422);
  });

  it('refuses an e-mail already invited to the event, in any case, with 422 email_taken', async () => {
    await h.invite(alice, eventId, 'Dup', 'dup@example.test');
    const dup = await create({ nom: 'Dup 2', email: 'DUP@example.test' }).expect(422);
    expect(dup.body.code).to.equal('email_taken');
  });

  it('accepts an e-mail already invited to another event', async () => {
    await h.invite(alice, eventId, 'Twice', 'twice@example.test');
    const other = await h.event(alice);
    await h.invite(alice, other, 'Twice', 'twice@example.test');
  });

  it('codes are unique and random across many invites', async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 20; i++)
      codes.add((await h.invite(alice, eventId, `Guest ${i}`, `guest${i}@example.test`)).code_unique);
    expect(codes.size).to.equal(20);
  });

  const list = (query: string, actor = alice) =>
    request(h.app).get(`/api/events/${eventId}/invites${query}`).set(h.auth(actor));

  it('lists invites one page at a time in the pagination envelope', async () => {
    const page = await list('?per_page=5&page=2').expect(200);
    expect(page.body.data).to.have.length(5);
    expect(page.body.pagination).to.include({ current_page: 2, per_page: 5 });
    expect(page.body.pagination.total).to.be.greaterThan(20);
  });

  it('finds invites by part of their name, accents included', async () => {
    const found = await list('?search=zoé').expect(200);
    expect(found.body.data.map((i: { nom: string }) => i.nom)).to.deep.equal(['Zoé Dupont']);
  });

  it('searches a % literally, not as a wildcard', async () => {
    expect((await list('?search=%25').expect(200)).body.data).to.have.length(0);
  });

  it('refuses more than 100 invites per page with 422', async () => {
    await list('?per_page=500').expect(422);
  });

  it('answers a stranger listing the invites with 404', async () => {
    await list('', carol).expect(404);
  });

  it('lets staff list the invites', async () => {
    await list('', bob).expect(200);
  });

  const patch = (inviteId: string, body: Record<string, unknown>, actor = alice) =>
    request(h.app).patch(`/api/events/${eventId}/invites/${inviteId}`).set(h.auth(actor)).send(body);

  it('updates an invite and revokes it in one change', async () => {
    const inv = await h.invite(alice, eventId, 'Temp', 'temp@example.test');
    const up = await patch(inv.id, { nom: 'Temporary', revoked: true }).expect(200);
    expect(up.body).to.include({ nom: 'Temporary', revoked: true });
  });

  it("refuses to change an invite's e-mail to one already invited (422)", async () => {
    const inv = await h.invite(alice, eventId, 'Mover', 'mover@example.test');
    await h.invite(alice, eventId, 'Stayer', 'stayer@example.test');
    await patch(inv.id, { email: 'stayer@example.test' }).expect(422);
  });

  it('refuses staff an update of an invite (403)', async () => {
    const inv = await h.invite(alice, eventId, 'Fixed', 'fixed@example.test');
    await patch(inv.id, { nom: 'x' }, bob).expect(403);
  });

  it('deletes an invite, which then is 404', async () => {
    const inv = await h.invite(alice, eventId, 'Brief', 'brief@example.test');
    await request(h.app).delete(`/api/events/${eventId}/invites/${inv.id}`).set(h.auth(alice)).expect(204);
    await request(h.app).get(`/api/events/${eventId}/invites/${inv.id}`).set(h.auth(alice)).expect(404);
  });

  /** How many invitation e-mails to `email` the outbox holds. */
  const mailsTo = async (email: string) =>
    (await h.db('outbox').select('message')).filter(
      (r: { message: { data: { to: string[] } } }) => r.message.data.to[0] === email,
    ).length;
  const resend = (inviteId: string, actor = alice) =>
    request(h.app).post(`/api/events/${eventId}/invites/${inviteId}/resend`).set(h.auth(actor));

  it('sends the invitation e-mail again through the outbox (202)', async () => {
    const inv = await h.invite(alice, eventId, 'Yves Resend', 'yves@example.test');
    expect(await mailsTo('yves@example.test')).to.equal(1);
    const res = await resend(inv.id).expect(202);
    expect(res.body).to.deep.equal({ queued: true, email: 'yves@example.test' });
    expect(await mailsTo('yves@example.test')).to.equal(2);
  });

  it('refuses staff a resend of the invitation (403)', async () => {
    const inv = await h.invite(alice, eventId, 'Yann Resend', 'yann.resend@example.test');
    await resend(inv.id, bob).expect(403);
  });

  it('refuses to resend the invitation of a revoked invite (409 revoked), queuing nothing', async () => {
    const inv = await h.invite(alice, eventId, 'Yolande Resend', 'yolande@example.test');
    await request(h.app)
      .patch(`/api/events/${eventId}/invites/${inv.id}`)
      .set(h.auth(alice))
      .send({ revoked: true });
    const revoked = await resend(inv.id).expect(409);
    expect(revoked.body.code).to.equal('revoked');
    expect(await mailsTo('yolande@example.test')).to.equal(1);
  });

  it("writes the invitation in the invitee's language when the address is a user's, the start in words", async () => {
    // A French user, as the gateway's user events project them; an address no user has gets English.
    await users.upsertVersion(h.db, {
      id: 9101,
      name: 'Zélie',
      email: 'zelie@example.test',
      language: 'fr',
      time_zone: 'Europe/Paris',
      updated_at: new Date(),
    });
    await h.invite(alice, eventId, 'Zélie Martin', 'Zelie@Example.test');
    await h.invite(alice, eventId, 'Uma Outsider', 'uma.outsider@example.test');
    const mailTo = async (to: string) =>
      (await h.db('outbox').select('message'))
        .map((r: { message: { data: { to: string[]; subject: string; text: string } } }) => r.message.data)
        .find((m) => m.to[0]!.toLowerCase() === to)!;
    const fr = await mailTo('zelie@example.test');
    expect(fr.subject).to.equal('Votre invitation : Launch');
    expect(fr.text).to.contain('Bonjour Zélie Martin,').and.contain('1 juin 2030 à 18:30, Lyon');
    const en = await mailTo('uma.outsider@example.test');
    expect(en.subject).to.equal('Your invitation: Launch');
    expect(en.text).to.contain('You are invited to Launch, 1 June 2030 at 18:30, Lyon.');
  });

  it('serves the QR code as PNG and SVG', async () => {
    const inv = await h.invite(alice, eventId, 'Qr', 'qr@example.test');
    const png = await request(h.app)
      .get(`/api/events/${eventId}/invites/${inv.id}/qr.png`)
      .set(h.auth(alice))
      .buffer(true)
      .expect(200);
    expect(png.type).to.equal('image/png');
    expect((png.body as Buffer).subarray(1, 4).toString()).to.equal('PNG');
    const svg = await request(h.app)
      .get(`/api/events/${eventId}/invites/${inv.id}/qr.svg`)
      .set(h.auth(alice))
      .buffer(true)
      .expect(200);
    expect(svg.type).to.equal('image/svg+xml');
    expect(String(svg.text ?? svg.body)).to.contain('<svg');
  });

  it('imports a CSV with a result per row; bad rows do not fail good ones', async () => {
    const csv =
      'nom;email;type_invite\nAnne;anne@example.test;presse\n;nobody@example.test;\nBen;not-an-email;\nCléo;cleo@example.test;alien\nDan;anne@example.test;\nEve;eve@example.test;\n';
    const res = await request(h.app)
      .post(`/api/events/${eventId}/invites/import`)
      .set(h.auth(alice))
      .set('content-type', 'text/csv')
      .send(csv)
      .expect(200);
    expect(res.body).to.include({ created: 2, failed: 4 });
    const byRow = Object.fromEntries(res.body.results.map((r: { row: number }) => [r.row, r]));
    expect(byRow[2]).to.include({ status: 'created', nom: 'Anne' });
    expect(byRow[3].errors).to.have.property('nom');
    expect(byRow[4].errors).to.have.property('email');
    expect(byRow[5].errors).to.have.property('type_invite');
    expect(byRow[6].errors).to.have.property('email');
    expect(byRow[7]).to.include({ status: 'created', nom: 'Eve' });
    const multipart = await request(h.app)
      .post(`/api/events/${eventId}/invites/import`)
      .set(h.auth(alice))
      .attach('file', Buffer.from('Nom,Email\nFay,fay@example.test\n'), 'guests.csv')
      .expect(200);
    expect(multipart.body).to.include({ created: 1, failed: 0 });
    const noHeader = await request(h.app)
      .post(`/api/events/${eventId}/invites/import`)
      .set(h.auth(alice))
      .set('content-type', 'text/csv')
      .send('a,b\n1,2\n')
      .expect(422);
    expect(noHeader.body.errors).to.have.property('file');
    await request(h.app)
      .post(`/api/events/${eventId}/invites/import`)
      .set(h.auth(alice))
      .send({ nom: 'x' })
      .expect(400);
  });
});
