import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { startCollectionWebhookWorker, startExportWorker } from '@fieldhouse/collection';
import { listenTo } from '@fieldhouse/db';
import { Broker, OutboxRelay } from '@fieldhouse/messaging';
import { webhookWorkerSettings } from '@fieldhouse/webhooks';
import {
  backingUrl,
  eventually,
  expectPayloadMatchesAsyncApi,
  randomPrefix,
  startWebhookReceiver,
  testLogger,
  type ReceivedWebhook,
  type WebhookReceiver,
} from '@fieldhouse/testkit';
import { startStack, testWebhookVars, type TestStack } from './support/stack.ts';
import { gatewayClient, registerUser } from './support/users.ts';

type Payload = { type: string; timestamp: string; data: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('webhooks of area A through the gateway (real receivers, workers, RabbitMQ)', function () {
  this.timeout(60_000);
  const logger = testLogger('e2e-webhooks-a');
  let stack: TestStack;
  let broker: Broker;
  let relay: OutboxRelay;
  let notices: { close: () => Promise<void> };
  const closers: Array<{ close: () => Promise<void> }> = [];
  let receiver: WebhookReceiver;

  before(async () => {
    stack = await startStack();
    broker = new Broker({
      url: await backingUrl('amqp'),
      logger,
      name: 'e2e-wh-a',
      prefix: randomPrefix('e2e-wh-a'),
    });
    relay = new OutboxRelay({ knex: stack.collection.db, table: 'outbox', broker, logger, intervalMs: 1000 });
    relay.start();
    notices = listenTo(stack.databaseUrls.collection, 'outbox', () => relay.kick(), logger);
    receiver = await startWebhookReceiver();
    closers.push(
      await startCollectionWebhookWorker({
        broker,
        db: stack.collection.db,
        logger,
        ...webhookWorkerSettings({ ...testWebhookVars, WEBHOOK_RETRY_SCHEDULE: '200ms' }),
        pollIntervalMs: 100,
      }),
      await startExportWorker({
        broker,
        db: stack.collection.db,
        blobs: stack.collection.blobs,
        logger,
        settings: { ttlHours: 1, leaseMs: 10_000, heartbeatMs: 500, publicUrl: 'http://localhost:8080' },
        onOutbox: () => relay.kick(),
      }),
    );
  });
  after(async () => {
    for (const c of closers) await c.close();
    await notices?.close();
    await relay?.stop();
    await broker?.close();
    await receiver?.close();
    await stack?.stop();
  });

  it('delivers the submission and export kinds of a workspace, signed, only to its managers’ subscriptions', async () => {
    const [alice, bob, mallory] = [
      await registerUser(stack.gatewayUrl, 'Alice Owner'),
      await registerUser(stack.gatewayUrl, 'Bob Collector'),
      await registerUser(stack.gatewayUrl, 'Mallory Outsider'),
    ];
    const o = gatewayClient(stack.gatewayUrl, alice.token);
    const c = gatewayClient(stack.gatewayUrl, bob.token);
    const x = gatewayClient(stack.gatewayUrl, mallory.token);
    const ws = (await o.post('/api/v1/workspaces').send({ name: 'Hooks' }).expect(201)).body.data
      .id as number;
    await c.get('/api/v1/workspaces').expect(200);
    await o
      .post(`/api/v1/workspaces/${ws}/members`)
      .send({ email: bob.email, role: 'collector' })
      .expect(201);
    const project = (await o.post(`/api/v1/workspaces/${ws}/projects`).send({ name: 'Wells' }).expect(201))
      .body.data.id as number;
    const otherWs = (await x.post('/api/v1/workspaces').send({ name: 'Theirs' }).expect(201)).body.data
      .id as number;
    const foreignProject = (
      await x.post(`/api/v1/workspaces/${otherWs}/projects`).send({ name: 'P' }).expect(201)
    ).body.data.id as number;

    const hooks = `/api/v1/workspaces/${ws}/webhooks`;
    const all = [
      'submission.created',
      'submission.updated',
      'submission.reviewed',
      'export.completed',
      'submission.deleted',
      'export.failed',
    ];
    await c
      .post(hooks)
      .send({ url: `${receiver.url}/a`, events: all })
      .expect(403);
    await c.get(hooks).expect(403);
    await x.get(hooks).expect(404);
    const refused = await o
      .post(hooks)
      .send({ url: `${receiver.url}/a`, events: all, project_ids: [foreignProject] })
      .expect(422);
    expect(refused.body.errors).to.have.property('project_ids');
    const created = await o
      .post(hooks)
      .send({ url: `${receiver.url}/a`, events: all, project_ids: [project] })
      .expect(201);
    const hook = created.body.data as { id: string; secret: string };
    expect(created.body.data).to.include({ workspace_id: ws });
    expect(created.body.data.project_ids).to.deep.equal([project]);
    // No one reads another workspace's delivery log, even with the webhook's id.
    await x.get(`${hooks}/${hook.id}/deliveries`).expect(404);
    await x.get(`/api/v1/workspaces/${otherWs}/webhooks/${hook.id}/deliveries`).expect(404);

    const version = (await o.post(`/api/v1/projects/${project}/versions`).send({}).expect(201)).body.data
      .id as number;
    const field = (
      await o
        .post(`/api/v1/versions/${version}/fields`)
        .send({ name: 'depth', label: 'Depth', type: 'integer', required: true })
        .expect(201)
    ).body.data as { uuid: string };
    await o.post(`/api/v1/versions/${version}/publish`).expect(200);
    await o.post(`/api/v1/projects/${project}/publish`).send({ allow_edits: true }).expect(200);
    const submission = (
      await c
        .post(`/api/v1/projects/${project}/submissions`)
        .send({ form_version_id: version, data: [{ field_uuid: field.uuid, type: 'integer', value: 12 }] })
        .expect(201)
    ).body.data as { id: number };
    await c
      .put(`/api/v1/projects/${project}/submissions/${submission.id}`)
      .send({ data: [{ field_uuid: field.uuid, type: 'integer', value: 13 }] })
      .expect(200);
    await o
      .put(`/api/v1/projects/${project}/submissions/${submission.id}`)
      .send({ status: 'reviewed', comment: 'Checked on site' })
      .expect(200);
    const job = (
      await o.post(`/api/v1/projects/${project}/submissions/export`).send({ format: 'csv' }).expect(202)
    ).body.data.job_id as string;

    const got = await eventually(
      async () => (receiver.on('/a').length >= 4 ? receiver.on('/a') : undefined),
      20_000,
    );
    const verified = (r: ReceivedWebhook) =>
      new Webhook(hook.secret).verify(r.body, r.headers as Record<string, string>) as Payload;
    /** The first delivery of `kind` received at `/a`, verified, with its request. */
    const receivedOfType = (kind: string) =>
      eventually(async () =>
        receiver
          .on('/a')
          .map((r) => ({ r, p: verified(r) }))
          .find((x) => x.p.type === kind),
      );
    const payloads = got.map(verified);
    // Every payload received matches the AsyncAPI document the gateway serves (fetched once).
    const asyncApi = (await o.get('/docs/collection.asyncapi.json').expect(200)).body as object;
    payloads.forEach((p, i) => expectPayloadMatchesAsyncApi(asyncApi, p.type, p, got[i]!.headers));
    const byType = Object.fromEntries(payloads.map((p) => [p.type, p.data]));
    const later = ['submission.deleted', 'export.failed'];
    expect(Object.keys(byType).sort()).to.deep.equal(all.filter((k) => !later.includes(k)).sort());
    expect(byType['submission.created']!.submission).to.include({
      id: submission.id,
      project_id: project,
      collector_id: bob.id,
      status: 'submitted',
    });
    expect(byType['submission.created']!.links.submission).to.equal(
      `/api/v1/projects/${project}/submissions/${submission.id}`,
    );
    expect(JSON.stringify(byType['submission.updated']!.previous.data)).to.contain('12');
    expect(JSON.stringify(byType['submission.updated']!.submission.data)).to.contain('13');
    expect(byType['submission.reviewed']).to.include({
      submission_id: submission.id,
      from: 'submitted',
      to: 'reviewed',
      comment: 'Checked on site',
    });
    expect(byType['submission.reviewed']!.reviewer).to.include({ id: alice.id });
    expect(byType['export.completed']!.export).to.include({
      id: job,
      status: 'completed',
      format: 'csv',
      rows: 1,
    });
    expect(byType['export.completed']!.links.download).to.equal(`/api/v1/exports/${job}/download`);

    const list = await o.get(`${hooks}/${hook.id}/deliveries?per_page=50`).expect(200);
    expect(list.body.pagination.total).to.equal(4);
    expect(list.body.data.every((d: { status: string }) => d.status === 'succeeded')).to.equal(true);

    // Deleted through the API (managers and up; its collector may not): sent as it was.
    const one = `/api/v1/projects/${project}/submissions/${submission.id}`;
    await c.delete(one).expect(403);
    await o.delete(one).expect(204);
    const deleted = await receivedOfType('submission.deleted');
    expectPayloadMatchesAsyncApi(asyncApi, deleted.p.type, deleted.p, deleted.r.headers);
    expect(deleted.p.data.submission).to.include({ id: submission.id, status: 'reviewed' });
    expect(deleted.p.data).to.include({ workspace_id: ws });
    expect(deleted.p.data.links.project).to.equal(`/api/v1/projects/${project}`);

    // An export that fails: ended as the export worker ends one it gives up on (its row to
    // `failed` with the error), which is what the trigger announces.
    const db = stack.collection.db;
    const failingId = randomUUID();
    await db('exports').insert({
      ...(await db('exports').where({ id: job }).first()),
      id: failingId,
      status: 'running',
      blob_key: null,
      finished_at: null,
    });
    await db('exports')
      .where({ id: failingId })
      .update({ status: 'failed', error: 'disk full', finished_at: new Date() });
    const failed = await receivedOfType('export.failed');
    expectPayloadMatchesAsyncApi(asyncApi, failed.p.type, failed.p, failed.r.headers);
    expect(failed.p.data.export).to.include({ id: failingId, status: 'failed', error: 'disk full' });
    expect(failed.p.data.links).to.not.have.property('download');
  });
});
