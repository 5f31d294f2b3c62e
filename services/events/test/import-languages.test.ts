import { expect } from 'chai';
import request from 'supertest';
import { alice, bob, startHarness, type Harness } from './harness.ts';

/** CSV import a person can use (docs/events.md, "CSV import"). */
describe('events service: CSV import in English or French, preview, e-mails now or later', () => {
  let h: Harness;
  let eventId: string;

  before(async () => {
    h = await startHarness('events_import_languages');
    eventId = await h.event(alice);
    await h.addStaff(alice, eventId, bob);
  });
  after(async () => h?.close());

  const importCsv = (csv: string, query = '') =>
    request(h.app)
      .post(`/api/events/${eventId}/invites/import${query}`)
      .set(h.auth(alice))
      .set('content-type', 'text/csv')
      .send(csv);
  const mailsTo = async (email: string) =>
    (await h.db('outbox').select('message')).filter(
      (r: { message: { type: string; data: { to?: string[] } } }) =>
        r.message.type === 'email.requested' && r.message.data.to?.[0] === email,
    ).length;

  it('reads English columns and English type values in any case (speaker, Press, PARTNER)', async () => {
    const res = await importCsv(
      'Name,E-mail,Type,Seats\nAda Lovelace,ada@example.test,speaker,1\nNellie Bly,nellie@example.test,Press,2\n' +
        'Acme,acme@example.test,PARTNER,\n',
    ).expect(200);
    expect(res.body).to.include({ created: 3, failed: 0, preview: false, emails: 'now' });
    expect(
      res.body.results.map((r: { type_invite: string; seats: number }) => [r.type_invite, r.seats]),
    ).to.deep.equal([
      ['intervenant', 1],
      ['presse', 2],
      ['partenaire', 1],
    ]);
  });

  it('reads French columns and French type values (nom, courriel, type, places)', async () => {
    const res = await importCsv(
      'nom;courriel;type;places\nMarie Curie;marie@example.test;Intervenant;3\n',
    ).expect(200);
    expect(res.body.results[0]).to.include({ status: 'created', type_invite: 'intervenant', seats: 3 });
  });

  it('still reads the API names as columns (nom, email, type_invite)', async () => {
    const res = await importCsv('nom,email,type_invite\nPaul Dirac,paul@example.test,vip\n').expect(200);
    expect(res.body.results[0]).to.include({ status: 'created', type_invite: 'vip' });
  });

  it('fails a row with an unknown type, naming the values it accepts in English', async () => {
    const res = await importCsv('name,email,type\nX,x@example.test,astronaut\n').expect(200);
    expect(res.body.results[0].status).to.equal('failed');
    expect(res.body.results[0].errors.type_invite[0])
      .to.match(/speaker/)
      .and.match(/astronaut/);
  });

  it('refuses a file with no name column in either language (422 naming file)', async () => {
    const res = await importCsv('who,email\nX,x2@example.test\n').expect(422);
    expect(res.body.errors.file[0]).to.match(/"name" \(or "nom"\)/);
  });

  it('previews without storing: each row says ready or failed, e-mails already invited and repeated included', async () => {
    const res = await importCsv(
      'name,email,type\nNew Person,new@example.test,speaker\nAgain,ada@example.test,vip\nTwice,new@example.test,\nBad,not-an-email,\n',
      '?preview=true',
    ).expect(200);
    expect(res.body).to.include({ preview: true, created: 0, ready: 1, failed: 3 });
    expect(res.body.results[0]).to.deep.equal({
      row: 2,
      status: 'ready',
      nom: 'New Person',
      email: 'new@example.test',
      type_invite: 'intervenant',
      seats: 1,
    });
    expect(
      res.body.results.slice(1).map((r: { row: number; errors: object }) => [r.row, Object.keys(r.errors)]),
    ).to.deep.equal([
      [3, ['email']],
      [4, ['email']],
      [5, ['email']],
    ]);
    expect(await h.db('invites').where({ event_id: eventId, email: 'new@example.test' }).first()).to.equal(
      undefined,
    );
  });

  it('holds the invitation e-mails back with emails=later, then sends them once on request', async () => {
    const res = await importCsv(
      'name,email,type\nLater One,later1@example.test,press\nLater Two,later2@example.test,\n',
      '?emails=later',
    ).expect(200);
    expect(res.body).to.include({ created: 2, emails: 'later' });
    expect(await mailsTo('later1@example.test')).to.equal(0);
    const got = await request(h.app)
      .get(`/api/events/${eventId}/invites/${res.body.results[0].id}`)
      .set(h.auth(alice))
      .expect(200);
    expect(got.body.email_held).to.equal(true);
    const sent = await request(h.app)
      .post(`/api/events/${eventId}/invites/send-held`)
      .set(h.auth(alice))
      .expect(202);
    expect(sent.body).to.deep.equal({ queued: 2 });
    expect(await mailsTo('later1@example.test')).to.equal(1);
    const again = await request(h.app)
      .post(`/api/events/${eventId}/invites/send-held`)
      .set(h.auth(alice))
      .expect(202);
    expect(again.body).to.deep.equal({ queued: 0 });
  });

  it('sends each invitation e-mail with its invite by default (emails=now)', async () => {
    await importCsv('name,email\nNow Person,now@example.test\n').expect(200);
    expect(await mailsTo('now@example.test')).to.equal(1);
  });

  it('refuses staff sending the held invitations (403)', async () => {
    await request(h.app).post(`/api/events/${eventId}/invites/send-held`).set(h.auth(bob)).expect(403);
  });

  it('gives the template in English and in French, with a BOM and example rows that import', async () => {
    const en = await request(h.app)
      .get(`/api/events/${eventId}/invites/import/template?lang=en`)
      .set(h.auth(alice))
      .buffer(true)
      .parse((res, cb) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        res.on('end', () => cb(null, text));
      })
      .expect(200);
    expect(en.headers['content-type']).to.match(/^text\/csv/);
    expect(en.headers['content-disposition']).to.include('invitees-template.csv');
    const text = en.body as string;
    expect(text.charCodeAt(0)).to.equal(0xfeff);
    expect(text.slice(1).split('\r\n')[0]).to.equal('name,email,type,seats');
    const fr = await request(h.app)
      .get(`/api/events/${eventId}/invites/import/template?lang=fr`)
      .set(h.auth(alice))
      .expect(200);
    expect(fr.text.replace(/^\uFEFF/, '').split('\r\n')[0]).to.equal('nom,courriel,type,places');
    const preview = await importCsv(text, '?preview=true').expect(200);
    expect(preview.body).to.include({ ready: 3, failed: 0 });
  });

  it('refuses a template language it does not speak (422)', async () => {
    await request(h.app)
      .get(`/api/events/${eventId}/invites/import/template?lang=de`)
      .set(h.auth(alice))
      .expect(422);
  });
});
