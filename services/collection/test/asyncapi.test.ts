import { expect } from 'chai';
import request from 'supertest';
import {
  expectPayloadMatchesAsyncApi,
  expectWebhookChannels,
  outboxWebhookBodies,
} from '@fieldhouse/testkit';
import { WORKSPACE_WEBHOOK_KINDS } from '../src/domain/webhooks.ts';
import { collectionAsyncApiDocument } from '../src/http/asyncapi-route.ts';
import { body, cast, makeForm, seen, startHarness, type Harness } from './harness.ts';

describe('collection service: the AsyncAPI document of its webhooks', () => {
  const { alice } = cast; // owns the workspace
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  it('is valid AsyncAPI 3.0.0 (official parser) with a send channel for each kind of area A and ping', async () => {
    await expectWebhookChannels(collectionAsyncApiDocument, WORKSPACE_WEBHOOK_KINDS);
  });

  it('serves it at /asyncapi.json without authentication, as /openapi.json', async () => {
    const { body: served } = await request(h.app).get('/asyncapi.json').expect(200);
    expect(served).to.deep.equal(JSON.parse(JSON.stringify(collectionAsyncApiDocument)));
  });

  it('describes what the triggers write, every kind (exports finished as the worker would)', async () => {
    await seen(h, alice);
    const form = await makeForm(h, alice, { allow_edits: true });
    await h
      .as(alice)
      .post(`/api/v1/workspaces/${form.workspaceId}/webhooks`)
      .send({ url: 'https://hooks.example.test/a', events: [...WORKSPACE_WEBHOOK_KINDS] })
      .expect(201);
    const submissions = `/api/v1/projects/${form.projectId}/submissions`;
    const created = await h
      .as(alice)
      .post(submissions)
      .send(body(form, { colour: 'red', fruits: ['apple', 'kiwi'] }))
      .expect(201);
    const id = created.body.data.id as number;
    await h
      .as(alice)
      .put(`${submissions}/${id}`)
      .send({ data: body(form, { age: 37 }).data })
      .expect(200);
    await h
      .as(alice)
      .put(`${submissions}/${id}`)
      .send({ status: 'reviewed', comment: 'Checked' })
      .expect(200);
    const jobs: string[] = [];
    for (const format of ['csv', 'geojson'])
      jobs.push(
        (
          await h
            .as(alice)
            .post(`${submissions}/export`)
            .send({ format, filters: { status: 'reviewed' } })
            .expect(202)
        ).body.data.job_id as string,
      );
    const finished = { finished_at: new Date(), expires_at: new Date(Date.now() + 3_600_000) };
    await h
      .db('exports')
      .where('id', jobs[0])
      .update({ status: 'completed', rows_written: 1, ...finished });
    await h
      .db('exports')
      .where('id', jobs[1])
      .update({ status: 'failed', error: 'disk full', finished_at: new Date() });
    await h.db('submissions').where('id', id).delete();

    const bodies = await outboxWebhookBodies(h.db);
    expect(new Set(bodies.map((b) => b.type))).to.deep.equal(new Set(WORKSPACE_WEBHOOK_KINDS));
    for (const b of bodies) expectPayloadMatchesAsyncApi(collectionAsyncApiDocument, b.type, b);
  });
});
