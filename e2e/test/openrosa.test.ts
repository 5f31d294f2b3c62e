import { expect } from 'chai';
import { PNG } from '@fieldhouse/testkit';
import { loadOdkEngine, type OdkClient } from './support/odk-client.ts';
import { startStack, type TestStack } from './support/stack.ts';
import { gatewayClient, registerUser } from './support/users.ts';

/*
 * A real client no one here wrote (issue 35): ODK's own form engine (@getodk/xforms-engine, the
 * engine of ODK Web Forms) reads the form list and the XForm through the gateway under an app
 * user's server address, fills the form (a skipped question, a constraint, a repeat with two
 * instances, a photo), serialises its instance and posts it as multipart, as ODK Collect does.
 */
describe('OpenRosa through the gateway with ODK’s engine (issue 35)', () => {
  let stack: TestStack;
  let odk: OdkClient;
  before(async () => {
    stack = await startStack();
    odk = await loadOdkEngine();
  });
  after(async () => {
    await stack?.stop();
  });

  type Entry = { field_uuid: string; type: string; value: unknown };
  /** A submission's data with each photo as its stored type and size (ids differ by submission). */
  const comparable = (data: Entry[]): unknown =>
    data.map((e) =>
      e.type === 'photo' && e.value && typeof e.value === 'object'
        ? {
            ...e,
            value: {
              content_type: (e.value as Record<string, unknown>).content_type,
              size: (e.value as Record<string, unknown>).size,
            },
          }
        : e.type === 'repeat' && Array.isArray(e.value)
          ? { ...e, value: (e.value as Entry[][]).map((i) => comparable(i)) }
          : e,
    );

  it('fetches, fills and sends a form as ODK Collect does, stored as the JSON API stores it, once', async () => {
    const alice = await registerUser(stack.gatewayUrl, 'Alice Manager');
    const o = gatewayClient(stack.gatewayUrl, alice.token);
    const ws = (await o.post('/api/v1/workspaces').send({ name: 'Field' }).expect(201)).body.data
      .id as number;
    const project = (
      await o.post(`/api/v1/workspaces/${ws}/projects`).send({ name: 'Households' }).expect(201)
    ).body.data.id as number;
    const version = (await o.post(`/api/v1/projects/${project}/versions`).send({}).expect(201)).body.data
      .id as number;
    const fields: Record<string, { uuid: string; type: string }> = {};
    const add = async (field: Record<string, unknown>) => {
      const r = await o.post(`/api/v1/versions/${version}/fields`).send(field).expect(201);
      fields[field.name as string] = { uuid: r.body.data.uuid, type: r.body.data.type };
    };
    await add({ name: 'head', type: 'text', label: 'Head of household', required: true });
    await add({
      name: 'age',
      type: 'integer',
      label: 'Age',
      required: true,
      constraint: '. >= 0 and . <= 120',
      constraint_message: 'Between 0 and 120',
    });
    await add({
      name: 'pregnant',
      type: 'select_one',
      label: 'Pregnant?',
      relevant: '${age} >= 15 and ${age} <= 49',
      choices: [
        { value: 'yes', label: 'Yes' },
        { value: 'no', label: 'No' },
      ],
    });
    await add({ name: 'child', type: 'repeat', label: 'Child' });
    await add({ name: 'child_name', type: 'text', label: 'Name', parent: 'child', required: true });
    await add({ name: 'child_age', type: 'integer', label: 'Age', parent: 'child' });
    await add({ name: 'house', type: 'photo', label: 'Photo of the house' });
    await o.post(`/api/v1/versions/${version}/publish`).expect(200);
    await o.post(`/api/v1/projects/${project}/publish`).send({ collect_access: 'members' }).expect(200);

    const created = await o
      .post(`/api/v1/projects/${project}/app-users`)
      .send({ display_name: 'Tablet 1' })
      .expect(201);
    const serverUrl = created.body.data.server_url as string;
    expect(serverUrl).to.equal(
      `${stack.gatewayUrl}/api/v1/key/${created.body.data.token}/projects/${project}`,
    );
    const openRosa = { 'X-OpenRosa-Version': '1.0' };

    // The form list and the XForm, as Collect fetches them.
    const list = await fetch(`${serverUrl}/formList`, { headers: openRosa });
    expect(list.status).to.equal(200);
    expect(list.headers.get('x-openrosa-version')).to.equal('1.0');
    const listXml = await list.text();
    const downloadUrl = /<downloadUrl>([^<]+)<\/downloadUrl>/.exec(listXml)![1]!;
    expect(downloadUrl.startsWith(`${serverUrl}/forms/`)).to.equal(true);
    const xform = await (await fetch(downloadUrl, { headers: openRosa })).text();
    const manifestUrl = /<manifestUrl>([^<]+)<\/manifestUrl>/.exec(listXml)![1]!;
    expect((await fetch(manifestUrl, { headers: openRosa })).status).to.equal(200);

    // Filled by ODK's engine.
    const form = await odk.createForm(xform);
    odk.answer(form, '/data/head', 'Ada');
    odk.answer(form, '/data/age', 200);
    const age = odk.find(form, '/data/age')!;
    const validity = () =>
      (age.validationState as { constraint: { valid: boolean; message?: unknown } }).constraint;
    expect(validity().valid).to.equal(false);
    odk.answer(form, '/data/age', 60);
    expect(validity().valid).to.equal(true);
    expect(odk.find(form, '/data/pregnant')!.currentState.relevant).to.equal(false);
    odk.addRepeat(form, '/data/child');
    odk.addRepeat(form, '/data/child');
    odk.answer(form, '/data/child[1]/child_name', 'Bo');
    odk.answer(form, '/data/child[1]/child_age', 7);
    odk.answer(form, '/data/child[2]/child_name', 'Cy');
    odk.answer(form, '/data/child[2]/child_age', 3);
    odk.answer(form, '/data/house', new File([PNG], 'house.png', { type: 'image/png' }));
    const payload = await form.prepareInstancePayload();
    expect(payload.status).to.equal('ready');
    const body = payload.data[0];
    const xml = await (body.get('xml_submission_file') as Blob).text();
    expect(xml).to.include('<instanceID>uuid:');

    // HEAD, then the multipart POST Collect makes.
    const head = await fetch(`${serverUrl}/submission`, { method: 'HEAD', headers: openRosa });
    expect(head.status).to.equal(204);
    expect(head.headers.get('x-openrosa-accept-content-length')).to.match(/^\d+$/);
    const send = () => fetch(`${serverUrl}/submission`, { method: 'POST', body, headers: openRosa });
    const sent = await send();
    expect(sent.status, await sent.clone().text()).to.equal(201);
    expect(await sent.text()).to.include('<OpenRosaResponse');

    // Stored as the JSON API stores the same answers.
    const page = await o.get(`/api/v1/projects/${project}/submissions`).expect(200);
    expect(page.body.pagination.total).to.equal(1);
    const viaOdk = (
      await o.get(`/api/v1/projects/${project}/submissions/${page.body.data[0].id}`).expect(200)
    ).body.data.data as Entry[];
    const e = (name: string, value: unknown) => ({
      field_uuid: fields[name]!.uuid,
      type: fields[name]!.type,
      value,
    });
    const json = await o
      .post(`/api/v1/projects/${project}/submissions`)
      .send({
        form_version_id: version,
        data: [
          e('head', 'Ada'),
          e('age', 60),
          e('child', [
            [e('child_name', 'Bo'), e('child_age', 7)],
            [e('child_name', 'Cy'), e('child_age', 3)],
          ]),
          e('house', PNG.toString('base64')),
        ],
      })
      .expect(201);
    expect(comparable(viaOdk)).to.deep.equal(comparable(json.body.data.data as Entry[]));

    // The same instance again: a success, stored once.
    const again = await send();
    expect(again.status).to.equal(202);
    expect(
      (await o.get(`/api/v1/projects/${project}/submissions`).expect(200)).body.pagination.total,
    ).to.equal(2);

    // Revoked: the next request is refused.
    await o.post(`/api/v1/projects/${project}/app-users/${created.body.data.id}/revoke`).expect(200);
    expect((await fetch(`${serverUrl}/formList`, { headers: openRosa })).status).to.equal(401);
    expect((await send()).status).to.equal(401);
  });

  it('takes a signed-in collector with HTTP Basic and a personal access token', async () => {
    const alice = await registerUser(stack.gatewayUrl, 'Alice Owner');
    const o = gatewayClient(stack.gatewayUrl, alice.token);
    const ws = (await o.post('/api/v1/workspaces').send({ name: 'W' }).expect(201)).body.data.id as number;
    const project = (await o.post(`/api/v1/workspaces/${ws}/projects`).send({ name: 'P' }).expect(201)).body
      .data.id as number;
    const version = (await o.post(`/api/v1/projects/${project}/versions`).send({}).expect(201)).body.data
      .id as number;
    await o
      .post(`/api/v1/versions/${version}/fields`)
      .send({ name: 'q', type: 'text', label: 'Q' })
      .expect(201);
    await o.post(`/api/v1/versions/${version}/publish`).expect(200);
    await o.post(`/api/v1/projects/${project}/publish`).send({}).expect(200);
    const url = `${stack.gatewayUrl}/api/v1/projects/${project}/formList`;
    const anonymous = await fetch(url);
    expect(anonymous.status).to.equal(401);
    expect(anonymous.headers.get('www-authenticate')).to.match(/^Basic/);
    const basic = `Basic ${Buffer.from(`${alice.email}:${alice.token}`).toString('base64')}`;
    const signedIn = await fetch(url, { headers: { authorization: basic } });
    expect(signedIn.status).to.equal(200);
    expect(await signedIn.text()).to.include(`<formID>fieldhouse-${project}</formID>`);
  });
});
