import { createHash, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import request from 'supertest';
import { renderXForm } from '../src/domain/xform.ts';
import { addMember, body, cast, makeForm, PNG, startHarness, type Form, type Harness } from './harness.ts';

/*
 * OpenRosa 1.0 at the collection service (issue 35; docs/collection.md, "ODK Collect and
 * Enketo"): the form list, the XForm and its manifest, HEAD and POST /submission, as the gateway
 * forwards them for app users and signed-in callers. The ODK engine's own round trip is e2e's.
 */
describe('collection: OpenRosa', () => {
  let h: Harness;
  let form: Form;
  let appUser = 0;
  // alice owns the workspace, bob collects, carol views.
  const { alice, bob, carol } = cast;
  const KEY_BASE = `/api/v1/key/${'k'.repeat(40)}`;
  const asAppUser = () => h.auth(undefined, { amr: 'app_user', apu: { id: appUser, prj: form.projectId } });
  const base = () => `/api/v1/projects/${form.projectId}`;
  const instance = (answers: string, id = `uuid:${randomUUID()}`, extra = '') =>
    `<?xml version="1.0"?><data xmlns:jr="http://openrosa.org/javarosa" xmlns:orx="http://openrosa.org/xforms" ` +
    `id="fieldhouse-${form.projectId}" version="1">${answers}<meta><instanceID>${id}</instanceID>${extra}</meta></data>`;
  const submit = (xml: string, auth = asAppUser(), files: Record<string, Buffer> = {}) => {
    const req = request(h.app)
      .post(`${base()}/submission`)
      .set('Authorization', auth)
      .set('X-OpenRosa-Version', '1.0')
      .attach('xml_submission_file', Buffer.from(xml), {
        filename: 'submission.xml',
        contentType: 'text/xml',
      });
    for (const [name, data] of Object.entries(files))
      req.attach(name, data, { filename: name, contentType: 'image/png' });
    return req;
  };
  const count = async () =>
    Number((await h.db('submissions').where('project_id', form.projectId).count({ n: '*' }))[0]!.n);

  before(async () => {
    h = await startHarness();
    form = await makeForm(h, alice, { collect_access: 'members' });
    await addMember(h, alice, form.workspaceId, bob, 'collector');
    await addMember(h, alice, form.workspaceId, carol, 'viewer');
    const created = await h
      .as(alice)
      .post(`${base()}/app-users`)
      .send({ display_name: 'Tablet' })
      .expect(201);
    appUser = created.body.data.id as number;
  });
  after(async () => {
    await h?.close();
  });

  it('lists the project’s form with links under the address the client used', async () => {
    const res = await request(h.app)
      .get(`${base()}/formList`)
      .set('Authorization', asAppUser())
      .set('X-Gateway-Openrosa-Base', KEY_BASE)
      .set('X-Forwarded-Proto', 'https')
      .set('X-Forwarded-Host', 'field.example.org')
      .expect(200);
    expect(res.headers['x-openrosa-version']).to.equal('1.0');
    expect(res.headers['content-type']).to.match(/^text\/xml/);
    const text = res.text;
    expect(text).to.include('<xforms xmlns="http://openrosa.org/xforms/xformsList">');
    expect(text).to.include(`<formID>fieldhouse-${form.projectId}</formID>`);
    expect(text).to.include('<name>P</name>');
    expect(text).to.include('<version>1</version>');
    const url = `https://field.example.org${KEY_BASE}/projects/${form.projectId}`;
    expect(text).to.include(`<downloadUrl>${url}/forms/fieldhouse-${form.projectId}.xml</downloadUrl>`);
    expect(text).to.include(`<manifestUrl>${url}/forms/fieldhouse-${form.projectId}/manifest</manifestUrl>`);
    const hash = /<hash>(md5:[0-9a-f]{32})<\/hash>/.exec(text)![1];
    // The XForm it names, with that hash.
    const xform = await request(h.app)
      .get(`${base()}/forms/fieldhouse-${form.projectId}.xml`)
      .set('Authorization', asAppUser())
      .expect(200);
    expect(xform.headers['x-openrosa-version']).to.equal('1.0');
    expect(`md5:${createHash('md5').update(xform.text).digest('hex')}`).to.equal(hash);
    const version = await h.db('form_versions').where('id', form.versionId).first();
    const fields = await h.db('fields').where('version_id', form.versionId).orderBy('position');
    expect(xform.text).to.equal(renderXForm({ title: 'P', version, fields }).xml);
    const manifest = await request(h.app)
      .get(`${base()}/forms/fieldhouse-${form.projectId}/manifest`)
      .set('Authorization', asAppUser())
      .expect(200);
    expect(manifest.text).to.include('<manifest xmlns="http://openrosa.org/xforms/xformsManifest"/>');
    await request(h.app)
      .get(`${base()}/forms/fieldhouse-999.xml`)
      .set('Authorization', asAppUser())
      .expect(404);
    // Signed in (the gateway sends no base): links under /api/v1.
    const member = await request(h.app)
      .get(`${base()}/formList`)
      .set('Authorization', h.auth(bob))
      .expect(200);
    expect(member.text).to.include(`/api/v1/projects/${form.projectId}/forms/`);
  });

  it('answers HEAD /submission 204 with the accepted length, and 401 with a Basic challenge to strangers', async () => {
    const head = await request(h.app)
      .head(`${base()}/submission`)
      .set('Authorization', asAppUser())
      .expect(204);
    expect(head.headers['x-openrosa-accept-content-length']).to.match(/^\d+$/);
    expect(head.headers['x-openrosa-version']).to.equal('1.0');
    const anonymous = await request(h.app)
      .get(`${base()}/formList`)
      .set('Authorization', h.auth())
      .set('X-OpenRosa-Version', '1.0')
      .expect(401);
    expect(anonymous.headers['www-authenticate']).to.match(/^Basic realm=/);
    expect(anonymous.text).to.include('<OpenRosaResponse xmlns="http://openrosa.org/http/response">');
    // Not an OpenRosa client: the problem document, with the same challenge.
    const plain = await request(h.app).get(`${base()}/formList`).set('Authorization', h.auth()).expect(401);
    expect(plain.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(plain.headers['www-authenticate']).to.match(/^Basic realm=/);
    await request(h.app).head(`${base()}/submission`).set('Authorization', h.auth(carol)).expect(403);
  });

  it('stores a submission as the JSON API does, once for the same XML, 409 for other XML', async () => {
    const before = await count();
    const id = `uuid:${randomUUID()}`;
    const answers =
      '<full_name>Ada</full_name><code/><age>36</age><weight>61.5</weight><visit_date>2024-05-01</visit_date>' +
      '<visit_time>09:30:00.000+02:00</visit_time><colour>blue</colour><fruits>apple kiwi</fruits>' +
      '<place>48.85 2.35 35 5</place><picture/>';
    const xml = instance(answers, id);
    const res = await submit(xml).expect(201);
    expect(res.headers['x-openrosa-version']).to.equal('1.0');
    expect(res.headers['x-openrosa-accept-content-length']).to.match(/^\d+$/);
    expect(res.text).to.include('<message nature="submit_success">');
    expect(await count()).to.equal(before + 1);
    const stored = await h
      .db('submissions')
      .where('project_id', form.projectId)
      .orderBy('id', 'desc')
      .first();
    const json = await h
      .as(bob)
      .post(`${base()}/submissions`)
      .send(
        body(form, {
          weight: 61.5,
          visit_date: '2024-05-01',
          visit_time: '09:30:00',
          colour: 'blue',
          fruits: ['apple', 'kiwi'],
          place: [48.85, 2.35, 35, 5],
        }),
      )
      .expect(201);
    const viaJson = await h.db('submissions').where('id', json.body.data.id).first();
    const byUuid = (data: Array<{ field_uuid: string }>) =>
      [...data].sort((a, b) => a.field_uuid.localeCompare(b.field_uuid));
    expect(byUuid(stored.data)).to.deep.equal(byUuid(viaJson.data));
    expect(stored.collector_id).to.equal(null);
    expect(stored.status).to.equal('submitted');

    const again = await submit(xml).expect(202);
    expect(again.text).to.include('submit_success');
    expect(await count()).to.equal(before + 2);
    const conflict = await submit(instance(answers.replace('Ada', 'Eve'), id)).expect(409);
    expect(conflict.headers['content-type']).to.match(/^text\/xml/);
    expect(conflict.text).to.include('instance ID');
    expect(await count()).to.equal(before + 2);
  });

  it('takes a photo as an attachment named by the answer', async () => {
    const res = await submit(
      instance('<full_name>Bo</full_name><age>7</age><picture>cat.png</picture>'),
      asAppUser(),
      {
        'cat.png': PNG,
      },
    ).expect(201);
    expect(res.status).to.equal(201);
    const stored = await h
      .db('submissions')
      .where('project_id', form.projectId)
      .orderBy('id', 'desc')
      .first();
    const photo = stored.data.find((e: { type: string }) => e.type === 'photo');
    expect(photo.value).to.include({ content_type: 'image/png', size: PNG.length });
    expect(await h.db('photos').where('submission_id', stored.id)).to.have.length(1);
  });

  it('refuses hostile and wrong instances clearly, storing nothing', async () => {
    const before = await count();
    const entity =
      '<?xml version="1.0"?><!DOCTYPE data [<!ENTITY x SYSTEM "file:///etc/passwd">]>' +
      `<data id="fieldhouse-${form.projectId}" version="1"><full_name>&x;</full_name></data>`;
    const bomb =
      '<?xml version="1.0"?><!DOCTYPE data [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>' +
      `<data id="fieldhouse-${form.projectId}" version="1"><full_name>&b;</full_name></data>`;
    const deep = instance(`${'<g>'.repeat(200)}${'</g>'.repeat(200)}`);
    for (const [xml, status] of [
      [entity, 400],
      [bomb, 400],
      [deep, 400],
      [instance('<full_name>Ada</full_name><age>36</age>', 'not-a-uuid'), 422],
      [instance('<full_name>Ada</full_name><age>36</age>').replace('version="1"', 'version="9"'), 404],
      [instance('<full_name>Ada</full_name><age>400</age>'), 422],
      ['not xml at all', 400],
    ] as const) {
      const res = await submit(xml);
      expect(res.status, xml.slice(0, 80)).to.equal(status);
      expect(res.headers['content-type']).to.match(/^text\/xml/);
      expect(res.text).to.include('<OpenRosaResponse');
    }
    const big = await submit(instance(`<full_name>${'x'.repeat(70 * 1024)}</full_name>`));
    expect(big.status).to.equal(413);
    const noPart = await request(h.app)
      .post(`${base()}/submission`)
      .set('Authorization', asAppUser())
      .set('X-OpenRosa-Version', '1.0')
      .field('other', 'x')
      .expect(400);
    expect(noPart.text).to.include('xml_submission_file');
    expect(await count()).to.equal(before);
  });

  it('stores an edit naming the instance it replaces (deprecatedID) as a new version, not for app users', async () => {
    const first = `uuid:${randomUUID()}`;
    await submit(instance('<full_name>Cy</full_name><age>20</age>', first), h.auth(alice)).expect(201);
    const before = await count();
    const edited = await submit(
      instance(
        '<full_name>Cy</full_name><age>21</age>',
        `uuid:${randomUUID()}`,
        `<deprecatedID>${first}</deprecatedID>`,
      ),
      h.auth(alice),
    ).expect(201);
    expect(edited.text).to.include('changes');
    expect(await count()).to.equal(before);
    const { submission_id } = await h.db('openrosa_instances').where('instance_id', first).first();
    const versions = await h.db('submission_versions').where('submission_id', submission_id);
    expect(versions).to.have.length(1);
    await submit(
      instance(
        '<full_name>Cy</full_name><age>22</age>',
        `uuid:${randomUUID()}`,
        `<deprecatedID>${first}</deprecatedID>`,
      ),
    ).expect(403);
  });

  it('stores a dateTime answer as sent, and refuses one without its offset in OpenRosa words', async () => {
    const ws = await h.as(alice).post('/api/v1/workspaces').send({ name: 'Meetings' }).expect(201);
    const p = await h.as(alice).post(`/api/v1/workspaces/${ws.body.data.id}/projects`).send({ name: 'M' });
    const project = p.body.data.id as number;
    const v = await h.as(alice).post(`/api/v1/projects/${project}/versions`).send({}).expect(201);
    const field = await h
      .as(alice)
      .post(`/api/v1/versions/${v.body.data.id}/fields`)
      .send({ name: 'meet_at', label: 'Meeting', type: 'datetime', required: true })
      .expect(201);
    await h.as(alice).post(`/api/v1/versions/${v.body.data.id}/publish`).expect(200);
    await h.as(alice).post(`/api/v1/projects/${project}/publish`).send({}).expect(200);
    const xform = await request(h.app)
      .get(`/api/v1/projects/${project}/forms/fieldhouse-${project}.xml`)
      .set('Authorization', h.auth(alice))
      .set('X-OpenRosa-Version', '1.0')
      .expect(200);
    expect(xform.text).to.match(/<bind nodeset="\/data\/meet_at" type="dateTime"/);
    const send = (value: string) =>
      request(h.app)
        .post(`/api/v1/projects/${project}/submission`)
        .set('Authorization', h.auth(alice))
        .set('X-OpenRosa-Version', '1.0')
        .attach(
          'xml_submission_file',
          Buffer.from(
            `<data id="fieldhouse-${project}" version="1"><meet_at>${value}</meet_at>` +
              `<meta><instanceID>uuid:${randomUUID()}</instanceID></meta></data>`,
          ),
          { filename: 'submission.xml', contentType: 'text/xml' },
        );
    await send('2031-06-12T19:00:00.000+02:00').expect(201);
    const stored = await h.db('submissions').where('project_id', project).first();
    expect(stored.data).to.deep.equal([
      { field_uuid: field.body.data.uuid, type: 'datetime', value: '2031-06-12T19:00:00.000+02:00' },
    ]);
    const refused = await send('2031-06-12T19:00:00').expect(422);
    expect(refused.text).to.include('<message nature="error">');
    expect(refused.text).to.include('meet_at is a date-time field');
    expect(await h.db('submissions').where('project_id', project).count({ n: '*' })).to.deep.equal([
      { n: 1 },
    ]);
  });

  it('refuses a revoked app user and an unpublished project in OpenRosa words', async () => {
    await h.as(alice).post(`${base()}/unpublish`).expect(200);
    const closed = await submit(instance('<full_name>Di</full_name><age>5</age>')).expect(422);
    expect(closed.text).to.include('not published');
    const list = await request(h.app).get(`${base()}/formList`).set('Authorization', asAppUser()).expect(200);
    expect(list.text).not.to.include('<xform>');
    await h.as(alice).post(`${base()}/publish`).send({}).expect(200);
    await h.as(alice).post(`${base()}/app-users/${appUser}/revoke`).expect(200);
    const revoked = await submit(instance('<full_name>Di</full_name><age>5</age>')).expect(401);
    expect(revoked.text).to.include('revoked');
  });
});
