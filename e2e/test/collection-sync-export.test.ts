import { expect } from 'chai';
import request from 'supertest';
import { startExportWorker } from '@fieldhouse/collection';
import { Broker, OutboxRelay } from '@fieldhouse/messaging';
import { backingUrl, eventually, randomPrefix, testLogger } from '@fieldhouse/testkit';
import { startStack, type TestStack } from './support/stack.ts';
import { gatewayClient, registerUser } from './support/users.ts';

describe('collection sync and exports through the gateway (real services)', () => {
  const logger = testLogger('e2e-collection-exports');
  let stack: TestStack;
  let broker: Broker;
  let relay: OutboxRelay;
  let worker: { close: () => Promise<void> };
  before(async () => {
    stack = await startStack();
    broker = new Broker({
      url: await backingUrl('amqp'),
      logger,
      name: 'e2e-collection-worker',
      prefix: randomPrefix('e2e-coll'),
    });
    relay = new OutboxRelay({ knex: stack.collection.db, table: 'outbox', broker, logger, intervalMs: 50 });
    relay.start();
    worker = await startExportWorker({
      broker,
      db: stack.collection.db,
      blobs: stack.collection.blobs,
      logger,
      settings: { ttlHours: 1, leaseMs: 10_000, heartbeatMs: 500, publicUrl: 'http://localhost:8080' },
      onOutbox: () => relay.kick(),
    });
  });
  after(async () => {
    await worker?.close();
    await relay?.stop();
    await broker?.close();
    await stack?.stop();
  });

  it('syncs an offline batch (replay creates nothing), then exports it to CSV for the owner only', async () => {
    const alice = await registerUser(stack.gatewayUrl, 'Alice Owner');
    const bob = await registerUser(stack.gatewayUrl, 'Bob Collector');
    const o = gatewayClient(stack.gatewayUrl, alice.token);
    const c = gatewayClient(stack.gatewayUrl, bob.token);
    const ws = (await o.post('/api/v1/workspaces').send({ name: 'Field team' }).expect(201)).body.data
      .id as number;
    await c.get('/api/v1/workspaces').expect(200);
    await o
      .post(`/api/v1/workspaces/${ws}/members`)
      .send({ email: bob.email, role: 'collector' })
      .expect(201);
    const project = (await o.post(`/api/v1/workspaces/${ws}/projects`).send({ name: 'Wells' }).expect(201))
      .body.data.id as number;
    const version = (await o.post(`/api/v1/projects/${project}/versions`).send({}).expect(201)).body.data
      .id as number;
    const field = (
      await o
        .post(`/api/v1/versions/${version}/fields`)
        .send({ name: 'depth', label: 'Depth', type: 'integer', required: true })
        .expect(201)
    ).body.data as { uuid: string };
    await o.post(`/api/v1/versions/${version}/publish`).expect(200);
    await o.post(`/api/v1/projects/${project}/publish`).send({}).expect(200);

    const batch = {
      device_id: 'tablet-7',
      submissions: [12, 30, -1].map((depth, i) => ({
        local_id: `w${i}`,
        form_version_id: version,
        client_updated_at: '2026-06-01T09:00:00Z',
        data: [{ field_uuid: field.uuid, type: 'integer', value: depth }],
      })),
    };
    batch.submissions[2]!.data[0]!.value = 'deep' as unknown as number;
    const first = await c.post('/api/v1/sync').send(batch).expect(200);
    expect(first.body.data.results.map((r: { status: string }) => r.status)).to.deep.equal([
      'created',
      'created',
      'rejected',
    ]);
    const replay = await c.post('/api/v1/sync').send(batch).expect(200);
    expect(replay.body.data.results.map((r: { status: string }) => r.status)).to.deep.equal([
      'unchanged',
      'unchanged',
      'rejected',
    ]);

    const queued = await o
      .post(`/api/v1/projects/${project}/submissions/export`)
      .send({ format: 'csv', filters: { status: 'submitted' } })
      .expect(202);
    expect(queued.body.status).to.equal('success');
    const jobId = queued.body.data.job_id as string;
    const job = await eventually(async () => {
      const s = await o.get(`/api/v1/exports/${jobId}`).expect(200);
      return s.body.data.status === 'completed' ? s.body.data : null;
    });
    expect(job.rows_written).to.equal(2);
    const file = await o
      .get(`/api/v1/exports/${jobId}/download`)
      .buffer(true)
      .parse((r, cb) => {
        let text = '';
        r.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        r.on('end', () => cb(null, text));
      });
    expect(file.status).to.equal(200);
    const lines = (file.body as string).trim().split('\n');
    expect(lines[0]).to.equal(
      'id,status,collector_id,collector_name,form_version,created_at,updated_at,latitude,longitude,depth',
    );
    // the items of a batch are stored concurrently: their order in time is not the batch order
    expect(
      lines
        .slice(1)
        .map((l) => l.split(',').at(-1))
        .sort(),
    ).to.deep.equal(['12', '30']);
    expect(lines[1]).to.contain(`,submitted,${bob.id},Bob Collector,1,`);
    await c.get(`/api/v1/exports/${jobId}/download`).expect(404);
  });

  it('publishes the area A routes of issue 4 in the OpenAPI document under the gateway /docs', async () => {
    const doc = await request(stack.gatewayUrl).get('/docs/collection.json').expect(200);
    expect(doc.body.openapi).to.equal('3.1.0');
    expect(doc.body.paths).to.include.keys(
      '/api/v1/sync',
      '/api/v1/projects/{project_id}/submissions/export',
      '/api/v1/exports/{job_id}',
      '/api/v1/exports/{job_id}/download',
      '/api/v1/projects/{project_id}/analyses',
      '/api/v1/analyses/{analysis_id}',
      '/api/v1/analyses/{analysis_id}/charts',
      '/api/v1/analyses/{analysis_id}/charts/{index}.svg',
    );
  });
});
