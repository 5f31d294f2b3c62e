import { expect } from 'chai';
import { expectProblemNaming } from '@fieldhouse/testkit';
import { body, cast, makeForm, seen, startHarness, type Form, type Harness } from './harness.ts';

describe('collection: inputs PostgreSQL cannot take are 4xx problems naming the field, never 500', () => {
  const { alice, bob } = cast; // alice owns the workspace; bob is a user it could add
  let h: Harness;
  let form: Form;
  before(async () => {
    h = await startHarness();
    form = await makeForm(h, alice, { collect_access: 'members' });
    await seen(h, bob);
  });
  after(async () => {
    await h?.close();
  });
  const submit = (b: object) => h.as(alice).post(`/api/v1/projects/${form.projectId}/submissions`).send(b);

  it('refuses a NUL character or an unpaired surrogate in a workspace name (422 naming it)', async () => {
    expectProblemNaming(await h.as(alice).post('/api/v1/workspaces').send({ name: 'a\u0000b' }), 422, 'name');
    expectProblemNaming(await h.as(alice).post('/api/v1/workspaces').send({ name: 'x\ud800' }), 422, 'name');
    const raw = await h
      .as(alice)
      .post('/api/v1/workspaces')
      .set('Content-Type', 'application/json')
      .send('{"name":"ok","description":"\\udc00"}');
    expectProblemNaming(raw, 422, 'description');
    expectProblemNaming(
      await h.as(alice).put(`/api/v1/workspaces/${form.workspaceId}`).send({ name: '\u0000' }),
      422,
      'name',
    );
  });

  it('refuses NUL and unpaired surrogates in submission answers, the text column and the jsonb one', async () => {
    expectProblemNaming(await submit(body(form, { full_name: 'Ada\u0000' })), 422, 'data.0.value');
    expectProblemNaming(await submit(body(form, { full_name: '\ud83d' })), 422, 'data.0.value');
    expectProblemNaming(await submit(body(form, {}, { device_id: 'a\u0000' })), 422, 'device_id');
    expectProblemNaming(await submit({ ...body(form), 'bad\u0000key': 1 }), 422, '_');
    await submit(body(form, { full_name: 'Ada 😀' })).expect(201);
  });

  it('refuses NUL in the JSON part of a multipart submission (422 naming the field)', async () => {
    const res = await h
      .as(alice)
      .post(`/api/v1/projects/${form.projectId}/submissions`)
      .field('submission', JSON.stringify(body(form, { full_name: 'Ada\u0000' })));
    expectProblemNaming(res, 422, 'data.0.value');
  });

  it('refuses a search or filter holding NUL (422 naming the query parameter)', async () => {
    const res = await h.as(alice).get(`/api/v1/projects/${form.projectId}/submissions?search=a%00b`);
    expectProblemNaming(res, 422, 'query.search');
  });

  it('answers ids past the integer column with 404 naming the parameter, signed in or anonymous', async () => {
    for (const id of ['2147483648', '9007199254740993', '99999999999999999999']) {
      expectProblemNaming(await h.as(alice).get(`/api/v1/workspaces/${id}`), 404, 'workspaceId');
      expectProblemNaming(await h.anonymous().get(`/api/v1/workspaces/${id}`), 404, 'workspaceId');
      expectProblemNaming(await h.anonymous().get(`/api/v1/projects/${id}`), 404, 'projectId');
      expectProblemNaming(await h.as(alice).get(`/api/v1/versions/${id}/fields`), 404, 'versionId');
    }
    await h.as(alice).get(`/api/v1/workspaces/2147483647`).expect(404);
    // submissions have bigint ids: 2^31 is a possible one, simply not found
    await h.as(alice).get(`/api/v1/projects/${form.projectId}/submissions/2147483648`).expect(404);
    expectProblemNaming(
      await h.as(alice).get(`/api/v1/projects/${form.projectId}/submissions/9007199254740993`),
      404,
      'submissionId',
    );
  });

  it('answers ids past the integer column in bodies and queries with 422 naming the field', async () => {
    expectProblemNaming(
      await h
        .as(alice)
        .post(`/api/v1/workspaces/${form.workspaceId}/members`)
        .send({ user_id: 2 ** 31, role: 'viewer' }),
      422,
      'user_id',
    );
    expectProblemNaming(await submit(body(form, {}, { form_version_id: 2 ** 31 })), 422, 'form_version_id');
    expectProblemNaming(await submit(body(form, {}, { form_version_id: 1e308 })), 422, 'form_version_id');
    expectProblemNaming(
      await h.as(alice).get(`/api/v1/projects/${form.projectId}/submissions?collector_id=2147483648`),
      422,
      'collector_id',
    );
    // A sync item is answered on its own: rejected, naming the field.
    const sync = await h
      .as(alice)
      .post('/api/v1/sync')
      .send({
        device_id: 'hostile-device',
        submissions: [
          {
            ...body(form),
            local_id: 'l1',
            client_updated_at: new Date().toISOString(),
            form_version_id: 2 ** 31,
          },
        ],
      })
      .expect(200);
    const [item] = sync.body.data.results as Array<{ status: string; errors?: Record<string, string[]> }>;
    expect(item!.status, JSON.stringify(sync.body)).to.equal('rejected');
    expect(item!.errors).to.have.property('form_version_id');
  });

  it('draws a histogram of decimals spanning more than float8 can subtract (1e308 and -1e308)', async () => {
    const { project, submitValue } = await oneFieldForm('decimal');
    for (const value of [1e308, -1e308, 0]) expect((await submitValue(value)).status).to.equal(201);
    const a = await h
      .as(alice)
      .post(`/api/v1/projects/${project}/analyses`)
      .send({ name: 'Huge', charts: [{ title: 'X', kind: 'histogram', field: 'x', bins: 4 }] })
      .expect(201);
    const charts = await h.as(alice).get(`/api/v1/analyses/${a.body.data.id}/charts`).expect(200);
    const bins = charts.body.data[0].data as Array<{ bin: number; from: number; to: number; count: number }>;
    expect(bins.map((b) => b.count)).to.deep.equal([1, 0, 1, 1]);
    expect(bins[0]!.from).to.equal(-1e308);
    expect(bins[3]!.to).to.equal(1e308);
  });

  /** A published project whose form has one unconstrained field `x` of `type`. */
  async function oneFieldForm(type: string) {
    const ws = (await h.as(alice).post('/api/v1/workspaces').send({ name: 'One field' }).expect(201)).body
      .data.id;
    const project = (
      await h.as(alice).post(`/api/v1/workspaces/${ws}/projects`).send({ name: 'P' }).expect(201)
    ).body.data.id as number;
    const version = (await h.as(alice).post(`/api/v1/projects/${project}/versions`).send({}).expect(201)).body
      .data.id as number;
    const field = (
      await h
        .as(alice)
        .post(`/api/v1/versions/${version}/fields`)
        .send({ name: 'x', label: 'X', type })
        .expect(201)
    ).body.data as { uuid: string };
    await h.as(alice).post(`/api/v1/versions/${version}/publish`).expect(200);
    await h
      .as(alice)
      .post(`/api/v1/projects/${project}/publish`)
      .send({ collect_access: 'members' })
      .expect(200);
    const submitValue = (value: unknown) =>
      h
        .as(alice)
        .post(`/api/v1/projects/${project}/submissions`)
        .send({ form_version_id: version, data: [{ field_uuid: field.uuid, type, value }] });
    return { project, submitValue };
  }

  it('takes a long text answer whose search vector would pass 1 MiB, found by its beginning', async () => {
    const { project, submitValue } = await oneFieldForm('text');
    const words = Array.from({ length: 20_000 }, (_, i) => `w${i.toString(36)}x${(i * 7919).toString(36)}`);
    const created = await submitValue(words.join(' '));
    expect(created.status, JSON.stringify(created.body).slice(0, 300)).to.equal(201);
    const found = await h
      .as(alice)
      .get(`/api/v1/projects/${project}/submissions?search=${words[1]}`)
      .expect(200);
    expect(found.body.data.map((x: { id: number }) => x.id)).to.deep.equal([created.body.data.id]);
  });

  it('answers photo ids that only look like UUIDs with 404, not a uuid cast error', async () => {
    for (const id of ['-'.repeat(36), '0'.repeat(34) + '-0', 'abcdefab-cdef-abcd-efab-cdefabcdef-1'])
      await h.as(alice).get(`/api/v1/photos/${id}`).expect(404);
  });

  it('answers a path that is not valid percent-encoded UTF-8 with 400 naming the path', async () => {
    for (const bad of ['%ED%A0%80', '%C0%AF', '%E2%82', '%FF'])
      expectProblemNaming(await h.as(alice).get(`/api/v1/workspaces/${bad}`), 400, 'path');
    expectProblemNaming(await h.anonymous().get(`/api/v1/projects/%ED%A0%80/submissions`), 400, 'path');
  });

  it('answers a JSON body that is not an object or nests too deep with a 4xx problem', async () => {
    for (const raw of ['null', '42', '"text"', '[]', '[{"name":"x"}]']) {
      const res = await h
        .as(alice)
        .post('/api/v1/workspaces')
        .set('Content-Type', 'application/json')
        .send(raw);
      expect(res.status, raw).to.be.within(400, 499);
      expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
    }
    const deep = `{"name":"x","description":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    const res = await h
      .as(alice)
      .post('/api/v1/workspaces')
      .set('Content-Type', 'application/json')
      .send(deep);
    expect(res.status).to.be.within(400, 499);
    const keyed = await h
      .as(alice)
      .post('/api/v1/workspaces')
      .set('Content-Type', 'application/json')
      .send('{"name":"x","__proto__":"\\u0000"}');
    expectProblemNaming(keyed, 422, '__proto__');
  });
});
