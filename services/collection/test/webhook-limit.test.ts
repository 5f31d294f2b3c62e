import { expect } from 'chai';
import request from 'supertest';
import { expectWebhookLimit } from '@fieldhouse/testkit';
import { DEFAULT_MAX_SUBSCRIPTIONS } from '@fieldhouse/webhooks';
import { cast, seen, startHarness, type Harness } from './harness.ts';

const CAP = DEFAULT_MAX_SUBSCRIPTIONS;

/**
 * Issue 31: at most `WEBHOOK_MAX_SUBSCRIPTIONS` (default 20) webhooks reach any one project of a
 * workspace: one for the whole workspace counts against every project, one limited to projects
 * against those.
 */
describe('collection service: the cap on the webhooks reaching a project (real PostgreSQL)', () => {
  const { alice } = cast; // owns the workspaces
  let h: Harness;
  before(async () => {
    h = await startHarness();
    await seen(h, alice);
  });
  after(async () => h?.close());

  /** A workspace of alice's with two projects. */
  const workspace = async () => {
    const ws = await h.as(alice).post('/api/v1/workspaces').send({ name: 'Hooks' }).expect(201);
    const workspaceId = ws.body.data.id as number;
    const project = async (name: string) =>
      (await h.as(alice).post(`/api/v1/workspaces/${workspaceId}/projects`).send({ name }).expect(201)).body
        .data.id as number;
    return { workspaceId, a: await project('A'), b: await project('B') };
  };
  const create = (workspaceId: number, n: number, projectIds?: number[] | null) =>
    h
      .as(alice)
      .post(`/api/v1/workspaces/${workspaceId}/webhooks`)
      .send({
        url: `https://hooks.example.test/a/${n}`,
        events: ['submission.created'],
        ...(projectIds === undefined ? {} : { project_ids: projectIds }),
      });
  const patch = (workspaceId: number, id: string, body: object) =>
    request(h.app)
      .patch(`/api/v1/workspaces/${workspaceId}/webhooks/${id}`)
      .set('Authorization', h.auth(alice))
      .send(body);
  const stored = async (workspaceId: number) => {
    const [{ n }] = (await h
      .db('webhook_subscriptions')
      .where({ workspace_id: workspaceId })
      .count({ n: '*' })) as [{ n: string }];
    return Number(n);
  };
  const expectLimit = (res: request.Response) => expectWebhookLimit(res, CAP);

  it('refuses a webhook reaching a project at the cap (422 webhook_limit_reached), storing nothing', async () => {
    const { workspaceId, a, b } = await workspace();
    for (let n = 0; n < CAP; n++) await create(workspaceId, n, [a]).expect(201);
    expectLimit(await create(workspaceId, 99, [a]));
    // One for the whole workspace would reach project A too.
    expectLimit(await create(workspaceId, 98));
    expectLimit(await create(workspaceId, 97, null));
    expectLimit(await create(workspaceId, 96, [b, a]));
    expect(await stored(workspaceId)).to.equal(CAP);
    // Project B has room.
    await create(workspaceId, 95, [b]).expect(201);
    expect(await stored(workspaceId)).to.equal(CAP + 1);
  });

  it('counts webhooks for the whole workspace against every project', async () => {
    const { workspaceId, a, b } = await workspace();
    for (let n = 0; n < CAP - 1; n++) await create(workspaceId, n).expect(201);
    await create(workspaceId, 50, [b]).expect(201);
    // Project B now has the cap (19 for all + 1): neither project takes one more for all.
    expectLimit(await create(workspaceId, 51));
    await create(workspaceId, 52, [a]).expect(201);
    expectLimit(await create(workspaceId, 53, [a]));
  });

  /** A workspace whose projects A and B are both at the cap: CAP - 1 webhooks for all, one on each. */
  const bothFull = async () => {
    const { workspaceId, a, b } = await workspace();
    for (let n = 0; n < CAP - 1; n++) await create(workspaceId, n).expect(201);
    const onB = (await create(workspaceId, 50, [b]).expect(201)).body.data as { id: string };
    await create(workspaceId, 52, [a]).expect(201);
    return { workspaceId, a, b, onB };
  };

  it('refuses moving or widening a webhook into a full project, and changes nothing', async () => {
    const { workspaceId, a, b, onB } = await bothFull();
    // Moving the one of B to A would make A exceed the cap; nothing changes.
    expectLimit(await patch(workspaceId, onB.id, { project_ids: [a] }));
    expectLimit(await patch(workspaceId, onB.id, { project_ids: null }));
    const { body } = await h
      .as(alice)
      .get(`/api/v1/workspaces/${workspaceId}/webhooks/${onB.id}`)
      .expect(200);
    expect(body.data.project_ids).to.deep.equal([b]);
  });

  it('takes the other changes of a webhook at the cap', async () => {
    const { workspaceId, b, onB } = await bothFull();
    // Other changes of a webhook at the cap still go through.
    await patch(workspaceId, onB.id, { description: 'still here', project_ids: [b] }).expect(200);
    expect(await stored(workspaceId)).to.equal(CAP + 1);
  });

  it('holds under concurrent creations: exactly the cap is stored', async () => {
    const { workspaceId } = await workspace();
    const answers = await Promise.all(Array.from({ length: CAP + 10 }, (_, n) => create(workspaceId, n)));
    expect(answers.filter((r) => r.status === 201)).to.have.length(CAP);
    for (const r of answers.filter((x) => x.status !== 201)) expectLimit(r);
    expect(await stored(workspaceId)).to.equal(CAP);
  });
});
