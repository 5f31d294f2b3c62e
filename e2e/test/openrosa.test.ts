import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
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

    // Revoked: the next request is refused, in words Collect shows its user (with or without
    // X-OpenRosa-Version: under an app user's address the client is an OpenRosa client).
    await o.post(`/api/v1/projects/${project}/app-users/${created.body.data.id}/revoke`).expect(200);
    for (const headers of [openRosa, {}]) {
      const refused = await fetch(`${serverUrl}/formList`, { headers });
      expect(refused.status).to.equal(401);
      expectOpenRosaError(refused, await refused.text(), /revoked/);
    }
    const refusedSend = await send();
    expect(refusedSend.status).to.equal(401);
    expectOpenRosaError(refusedSend, await refusedSend.text(), /revoked/);
  });

  it('refuses an unknown or malformed key, another project and an oversized body as OpenRosa responses', async () => {
    const { serverUrl, project, o } = await projectWithAppUser(stack, 'Refusals');
    const base = `${stack.gatewayUrl}/api/v1/key`;
    // The gateway refuses these itself: a key of the wrong shape, then one of the right shape
    // that names no app user (the service's answer to the gateway's question).
    for (const key of ['short', `${'A'.repeat(40)}00000000`])
      for (const path of ['formList', 'submission', `forms/fieldhouse-${project}.xml`]) {
        const res = await fetch(`${base}/${key}/projects/${project}/${path}`, {
          method: path === 'submission' ? 'POST' : 'GET',
        });
        expect(res.status, `${key} ${path}`).to.equal(401);
        expect(res.headers.get('www-authenticate'), 'no sign-in prompt: the key is the credential').to.equal(
          null,
        );
        expectOpenRosaError(res, await res.text(), /./);
      }
    const short = await fetch(`${base}/short/projects/${project}/formList`);
    expect(await short.text()).to.equal(
      '<?xml version="1.0" encoding="UTF-8"?><OpenRosaResponse xmlns="http://openrosa.org/http/response">' +
        '<message nature="error">This server address holds no valid app user key.</message></OpenRosaResponse>',
    );
    // Another project's routes under this app user's key: 403 app_user_scope, in OpenRosa words.
    const key = /\/key\/([^/]+)\//.exec(serverUrl)![1]!;
    const other = await fetch(`${base}/${key}/projects/${project + 1000}/formList`);
    expect(other.status).to.equal(403);
    expectOpenRosaError(other, await other.text(), /only download its project/);
    // A route that is not OpenRosa keeps the problem document.
    const json = await fetch(`${base}/${key}/projects/${project}/submissions`);
    expect(json.status).to.equal(403);
    expect(json.headers.get('content-type')).to.match(/^application\/problem\+json/);

    // 50 MB posted to the submission route, streamed (never held in memory): refused with 413
    // at once when its length is declared, by the service's photo limit when it is not; nothing
    // stored either way, never a 5xx.
    const declared = await postLarge(`${serverUrl}/submission`, project, 50 * 1024 * 1024, true);
    expect(declared.status).to.equal(413);
    expect(declared.headers['x-openrosa-accept-content-length']).to.match(/^\d+$/);
    expectOpenRosaError(declared, declared.body, /too large/i);
    const chunked = await postLarge(`${serverUrl}/submission`, project, 50 * 1024 * 1024, false);
    expect(chunked.status).to.equal(413);
    expectOpenRosaError(chunked, chunked.body, /./);
    expect(
      (await o.get(`/api/v1/projects/${project}/submissions`).expect(200)).body.pagination.total,
    ).to.equal(0);
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

describe('OpenRosa through the gateway: the rate limit in OpenRosa words (issue 35)', () => {
  let stack: TestStack;
  before(async () => {
    // An hour's window: a minute's fixed window could roll over between two requests of a test.
    stack = await startStack({
      gatewayEnv: {
        RATE_LIMIT_USER: '20',
        RATE_LIMIT_IP: '100000',
        RATE_LIMIT_SYNC_MS: '50',
        RATE_LIMIT_WINDOW_SECONDS: '3600',
      },
    });
  });
  after(async () => {
    await stack?.stop();
  });

  it('answers an app user over its limit 429 with Retry-After and an OpenRosaResponse', async () => {
    const { serverUrl } = await projectWithAppUser(stack, 'Limited');
    let res = await fetch(`${serverUrl}/formList`);
    for (let i = 0; i < 21 && res.status !== 429; i++) {
      expect(res.status).to.equal(200);
      await res.arrayBuffer();
      res = await fetch(`${serverUrl}/formList`);
    }
    expect(res.status).to.equal(429);
    expect(Number(res.headers.get('retry-after'))).to.be.within(1, 3600);
    expectOpenRosaError(res, await res.text(), /Too many requests/);
  });
});

/** A published one-question project of a new user, and an app user's server address for it. */
async function projectWithAppUser(stack: TestStack, name: string) {
  const alice = await registerUser(stack.gatewayUrl, `Alice ${name}`);
  const o = gatewayClient(stack.gatewayUrl, alice.token);
  const ws = (await o.post('/api/v1/workspaces').send({ name }).expect(201)).body.data.id as number;
  const project = (await o.post(`/api/v1/workspaces/${ws}/projects`).send({ name }).expect(201)).body.data
    .id as number;
  const version = (await o.post(`/api/v1/projects/${project}/versions`).send({}).expect(201)).body.data
    .id as number;
  await o
    .post(`/api/v1/versions/${version}/fields`)
    .send({ name: 'photo', type: 'photo', label: 'Photo' })
    .expect(201);
  await o.post(`/api/v1/versions/${version}/publish`).expect(200);
  await o.post(`/api/v1/projects/${project}/publish`).send({}).expect(200);
  const created = await o
    .post(`/api/v1/projects/${project}/app-users`)
    .send({ display_name: 'Tablet' })
    .expect(201);
  return { o, project, serverUrl: created.body.data.server_url as string };
}

/** An OpenRosa error answer: `text/xml`, `X-OpenRosa-Version: 1.0`, a `<message nature="error">` matching `message`. */
function expectOpenRosaError(
  res: Response | { headers: Record<string, string | string[] | undefined> },
  body: string,
  message: RegExp,
) {
  const header = (name: string) =>
    res.headers instanceof Headers ? res.headers.get(name) : (res.headers[name] as string | undefined);
  expect(header('content-type')).to.match(/^text\/xml/);
  expect(header('x-openrosa-version')).to.equal('1.0');
  const m =
    /^<\?xml version="1.0" encoding="UTF-8"\?><OpenRosaResponse xmlns="http:\/\/openrosa.org\/http\/response"><message nature="error">([^<]*)<\/message><\/OpenRosaResponse>$/.exec(
      body,
    );
  expect(m, body).not.to.equal(null);
  expect(m![1]).to.match(message);
}

/**
 * POSTs a multipart OpenRosa submission of about `size` bytes (a small instance, then a photo
 * part of zeros) as a stream of 64 KiB chunks, with its `Content-Length` declared or chunked.
 * Resolves with the answer as soon as it comes, whether or not the body was all sent.
 */
function postLarge(
  url: string,
  project: number,
  size: number,
  declareLength: boolean,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const boundary = '----fieldhouse-large';
  const xml =
    `<data id="fieldhouse-${project}" version="1"><photo>big.jpg</photo>` +
    '<meta><instanceID>uuid:6f1a8a5e-8b0e-4c3b-9a43-2f6f0c2b1d11</instanceID></meta></data>';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="xml_submission_file"; filename="submission.xml"\r\n` +
      `Content-Type: text/xml\r\n\r\n${xml}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="big.jpg"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(64 * 1024);
  const photoBytes = size - head.length - tail.length;
  async function* body() {
    yield head;
    for (let sent = 0; sent < photoBytes; sent += chunk.length)
      yield sent + chunk.length <= photoBytes ? chunk : chunk.subarray(0, photoBytes - sent);
    yield tail;
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'x-openrosa-version': '1.0',
        ...(declareLength ? { 'content-length': String(size) } : {}),
      },
    });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => {
        resolve({
          status: res.statusCode!,
          headers: res.headers,
          body: Buffer.concat(parts).toString('utf8'),
        });
        req.destroy();
      });
      res.on('error', reject);
    });
    // Once answered, the server may stop reading: a write error then is not the test's concern.
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    Readable.from(body()).pipe(req);
  });
}
