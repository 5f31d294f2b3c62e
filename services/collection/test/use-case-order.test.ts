import { expect } from 'chai';
import { addMember, cast, makeForm, startHarness, type Form, type Harness } from './harness.ts';

/*
 * The use cases (src/domain/) check access and their rules before they read the request body,
 * as the routes always did: a caller learns nothing from a 422 about a body they may not send.
 */
describe('collection: use cases check access and rules before the body', () => {
  let h: Harness;
  let form: Form;
  // alice owns the workspace, bob views it, mallory is a stranger to it.
  const { alice, bob, mallory } = cast;
  before(async () => {
    h = await startHarness();
    form = await makeForm(h, alice, { collect_access: 'members' });
    await addMember(h, alice, form.workspaceId, bob, 'viewer');
  });
  after(async () => {
    await h?.close();
  });

  it('answers an anonymous caller 401, not 422, for a bad workspace body', async () => {
    await h.anonymous().post('/api/v1/workspaces').send({}).expect(401);
  });

  it('answers a non-member 404, not 422, for a bad project body', async () => {
    await h.as(mallory).put(`/api/v1/projects/${form.projectId}`).send({ name: '' }).expect(404);
  });

  it('answers a viewer 403, not 422, for a bad project or analysis body', async () => {
    await h.as(bob).put(`/api/v1/projects/${form.projectId}`).send({ name: '' }).expect(403);
    await h.as(bob).post(`/api/v1/projects/${form.projectId}/analyses`).send({}).expect(403);
  });

  it('answers 409 version_frozen, not 422, for a bad field body on a published version', async () => {
    const res = await h.as(alice).post(`/api/v1/versions/${form.versionId}/fields`).send({}).expect(409);
    expect(res.body.code).to.equal('version_frozen');
  });

  it('writes an export job and its queue message together, and neither for a refused request', async () => {
    const exports = async () => Number((await h.db('exports').count({ n: '*' }))[0]!.n);
    const requested = async () =>
      (await h.db('outbox').select('message')).filter((r) => r.message.type === 'export.requested').length;
    const before = { jobs: await exports(), messages: await requested() };
    await h
      .as(alice)
      .post(`/api/v1/projects/${form.projectId}/submissions/export`)
      .send({ format: 'csv', filters: { status: 'nope' } })
      .expect(422);
    expect({ jobs: await exports(), messages: await requested() }).to.deep.equal(before);
    const ok = await h
      .as(alice)
      .post(`/api/v1/projects/${form.projectId}/submissions/export`)
      .send({ format: 'csv' })
      .expect(202);
    expect({ jobs: await exports(), messages: await requested() }).to.deep.equal({
      jobs: before.jobs + 1,
      messages: before.messages + 1,
    });
    const message = (await h.db('outbox').select('message')).find(
      (r) => r.message.type === 'export.requested' && r.message.data.export_id === ok.body.data.job_id,
    );
    expect(message, 'the outbox message of the new job').to.not.equal(undefined);
  });
});
