import { expect } from 'chai';
import { PNG } from '@fieldhouse/testkit';
import { startStack, type TestStack } from './support/stack.ts';
import { gatewayClient, registerUser } from './support/users.ts';

describe('collection through the gateway (real services)', () => {
  let stack: TestStack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack?.stop();
  });

  it('runs a collection round: workspace, members, form, publication, submissions, review, list, stats, photo', async () => {
    const alice = await registerUser(stack.gatewayUrl, 'Alice Owner');
    const bob = await registerUser(stack.gatewayUrl, 'Bob Collector');
    const mallory = await registerUser(stack.gatewayUrl, 'Mallory Stranger');
    const api = (token?: string) => gatewayClient(stack.gatewayUrl, token);
    const o = api(alice.token);
    const c = api(bob.token);
    const ws = (await o.post('/api/v1/workspaces').send({ name: 'Survey team' }).expect(201)).body.data
      .id as number;
    // the collector is known to the service once it has called it (JWT claims) or via user events
    await c.get('/api/v1/workspaces').expect(200);
    await o
      .post(`/api/v1/workspaces/${ws}/members`)
      .send({ email: bob.email, role: 'collector' })
      .expect(201);
    await o
      .post(`/api/v1/workspaces/${ws}/members`)
      .send({ email: 'ghost@example.test', role: 'viewer' })
      .expect(422);
    await api(mallory.token).get(`/api/v1/workspaces/${ws}`).expect(404);

    const project = (await o.post(`/api/v1/workspaces/${ws}/projects`).send({ name: 'Trees' }).expect(201))
      .body.data.id as number;
    const version = (await o.post(`/api/v1/projects/${project}/versions`).send({}).expect(201)).body.data
      .id as number;
    const species = (
      await o
        .post(`/api/v1/versions/${version}/fields`)
        .send({
          name: 'species',
          label: 'Species',
          type: 'select_one',
          required: true,
          choices: [{ value: 'oak', label: 'Oak' }],
        })
        .expect(201)
    ).body.data;
    const height = (
      await o
        .post(`/api/v1/versions/${version}/fields`)
        .send({ name: 'height', label: 'Height', type: 'decimal', constraints: { min: 0 } })
        .expect(201)
    ).body.data;
    const photo = (
      await o
        .post(`/api/v1/versions/${version}/fields`)
        .send({ name: 'photo', label: 'Photo', type: 'photo' })
        .expect(201)
    ).body.data;
    await o.post(`/api/v1/versions/${version}/publish`).expect(200);
    await o
      .post(`/api/v1/versions/${version}/fields`)
      .send({ name: 'late', label: 'Late', type: 'text' })
      .expect(409);

    const sub = (extra: object = {}) => ({
      form_version_id: version,
      latitude: 45.5,
      longitude: -73.6,
      altitude: 20,
      precision: 4,
      data: [
        { field_uuid: species.uuid, type: 'select_one', value: 'oak' },
        { field_uuid: height.uuid, type: 'decimal', value: 12.5 },
        { field_uuid: photo.uuid, type: 'photo', value: PNG.toString('base64') },
      ],
      ...extra,
    });
    expect(
      (await c.post(`/api/v1/projects/${project}/submissions`).send(sub()).expect(422)).body.code,
    ).to.equal('project_not_published');
    const published = await o
      .post(`/api/v1/workspaces/${ws}/projects/${project}/publish`)
      .send({ collect_access: 'members', require_consent: true, consent_text: 'I agree.' })
      .expect(200);
    expect(published.body.data).to.include({ is_published: true, consent_text: 'I agree.' });
    const noConsent = await c.post(`/api/v1/projects/${project}/submissions`).send(sub()).expect(422);
    expect(noConsent.body.errors).to.have.property('consent');
    const bad = await c
      .post(`/api/v1/projects/${project}/submissions`)
      .send(sub({ consent: true, data: [{ field_uuid: height.uuid, type: 'decimal', value: -1 }] }))
      .expect(422);
    expect(bad.body.errors).to.have.keys('data.0.value', 'data');
    const created = await c
      .post(`/api/v1/projects/${project}/submissions`)
      .send(sub({ consent: true }))
      .expect(201);
    const s = created.body.data;
    expect(s).to.include({ status: 'submitted', collector_id: bob.id, latitude: 45.5 });
    const url = s.data[2].value.url as string;
    const img = await c.get(url).expect(200);
    expect(img.headers['content-type']).to.equal('image/png');
    await api(mallory.token).get(url).expect(404);
    await api(mallory.token).get(`/api/v1/projects/${project}/submissions/${s.id}`).expect(404);

    await c.put(`/api/v1/projects/${project}/submissions/${s.id}`).send({ status: 'reviewed' }).expect(403);
    await o
      .put(`/api/v1/projects/${project}/submissions/${s.id}`)
      .send({ status: 'reviewed', comment: 'ok' })
      .expect(200);
    const detail = await o.get(`/api/v1/projects/${project}/submissions/${s.id}`).expect(200);
    expect(detail.body.data.history[1]).to.include({
      from_status: 'submitted',
      to_status: 'reviewed',
      user_id: alice.id,
      comment: 'ok',
    });

    const today = new Date().toISOString().slice(0, 10);
    const list = await o
      .get(`/api/v1/projects/${project}/submissions?status=reviewed&date_from=${today}&search=oak`)
      .expect(200);
    expect(list.body.pagination).to.deep.equal({ current_page: 1, last_page: 1, per_page: 15, total: 1 });
    await o.get(`/api/v1/projects/${project}/submissions?per_page=500`).expect(422);
    const stats = await o.get(`/api/v1/projects/${project}/stats`).expect(200);
    expect(stats.body.data.by_status.reviewed).to.equal(1);
    expect(stats.body.data.by_collector[0]).to.include({
      collector_id: bob.id,
      name: 'Bob Collector',
      count: 1,
    });
  });

  it('accepts anonymous submissions to a public project through the gateway', async () => {
    const alice = await registerUser(stack.gatewayUrl, 'Alice Owner');
    const o = gatewayClient(stack.gatewayUrl, alice.token);
    const anonymous = gatewayClient(stack.gatewayUrl);
    const ws = (await o.post('/api/v1/workspaces').send({ name: 'Open' }).expect(201)).body.data.id as number;
    const project = (await o.post(`/api/v1/workspaces/${ws}/projects`).send({ name: 'Poll' }).expect(201))
      .body.data.id as number;
    const version = (await o.post(`/api/v1/projects/${project}/versions`).send({}).expect(201)).body.data
      .id as number;
    const f = (
      await o
        .post(`/api/v1/versions/${version}/fields`)
        .send({ name: 'q', label: 'Q', type: 'text', required: true })
        .expect(201)
    ).body.data;
    await o.post(`/api/v1/versions/${version}/publish`).expect(200);
    const submit = () =>
      anonymous
        .post(`/api/v1/projects/${project}/submissions`)
        .send({ form_version_id: version, data: [{ field_uuid: f.uuid, type: 'text', value: 'hello' }] });
    await o.post(`/api/v1/projects/${project}/publish`).expect(200);
    await submit().expect(401);
    await o
      .post(`/api/v1/projects/${project}/publish`)
      .send({ collect_access: 'public', submission_limit: 1 })
      .expect(200);
    const form = await anonymous.get(`/api/v1/versions/${version}/fields`).expect(200);
    expect(form.body.data[0].uuid).to.equal(f.uuid);
    const created = await submit().expect(201);
    expect(created.body.data.collector_id).to.equal(null);
    expect((await submit().expect(422)).body.code).to.equal('submission_limit_reached');
  });
});
