import { expect } from 'chai';
import { addMember, body, makeForm, seen, startHarness, type Form, type Harness } from './helpers.ts';

describe('collection: workspaces, members and access', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h?.close();
  });

  it('creates, lists (pagination envelope), shows, updates and deletes a workspace', async () => {
    const created = await h
      .as(1)
      .post('/api/v1/workspaces')
      .send({ name: 'Field team', description: 'd' })
      .expect(201);
    expect(created.body.data).to.include({ name: 'Field team', description: 'd', role: 'owner' });
    expect(created.body.data.id).to.be.a('number');
    expect(created.body.data.created_at).to.match(/Z$/);
    expect(created.body.data.members).to.have.length(1);
    const id = created.body.data.id as number;
    await h.as(1).post('/api/v1/workspaces').send({ name: 'Second' }).expect(201);
    const list = await h.as(1).get('/api/v1/workspaces?per_page=1').expect(200);
    expect(list.body.pagination).to.deep.equal({ current_page: 1, last_page: 2, per_page: 1, total: 2 });
    expect(list.body.data[0].name).to.equal('Second');
    await h.as(1).get('/api/v1/workspaces?per_page=101').expect(422);
    await h.as(1).get('/api/v1/workspaces?per_page=0').expect(422);
    const updated = await h.as(1).put(`/api/v1/workspaces/${id}`).send({ name: 'Renamed' }).expect(200);
    expect(updated.body.data.name).to.equal('Renamed');
    await h.as(1).put(`/api/v1/workspaces/${id}`).send({ name: '' }).expect(422);
    await h.as(1).delete(`/api/v1/workspaces/${id}`).expect(204);
    await h.as(1).get(`/api/v1/workspaces/${id}`).expect(404);
  });

  it('refuses anonymous callers and bad bodies with problem documents', async () => {
    const anon = await h.as(undefined).get('/api/v1/workspaces').expect(401);
    expect(anon.headers['content-type']).to.match(/application\/problem\+json/);
    const bad = await h.as(1).post('/api/v1/workspaces').send({}).expect(422);
    expect(bad.body.errors).to.have.property('name');
    await h.as(1).get('/api/v1/workspaces/abc').expect(404);
  });

  it('adds members by user_id or e-mail, refuses unknown users, changes roles and protects the last owner', async () => {
    await seen(h, 10, 11, 12);
    const ws = (await h.as(10).post('/api/v1/workspaces').send({ name: 'M' }).expect(201)).body.data
      .id as number;
    const byId = await h
      .as(10)
      .post(`/api/v1/workspaces/${ws}/members`)
      .send({ user_id: 11, role: 'collector' })
      .expect(201);
    expect(byId.body.data).to.include({ user_id: 11, role: 'collector', email: 'user11@example.test' });
    const byEmail = await h
      .as(10)
      .post(`/api/v1/workspaces/${ws}/members`)
      .send({ email: 'USER12@example.test', role: 'admin' })
      .expect(201);
    expect(byEmail.body.data.user_id).to.equal(12);
    const unknown = await h
      .as(10)
      .post(`/api/v1/workspaces/${ws}/members`)
      .send({ user_id: 999, role: 'viewer' })
      .expect(422);
    expect(unknown.body.errors).to.have.property('user_id');
    await h
      .as(10)
      .post(`/api/v1/workspaces/${ws}/members`)
      .send({ email: 'nobody@example.test', role: 'viewer' })
      .expect(422);
    await h.as(10).post(`/api/v1/workspaces/${ws}/members`).send({ user_id: 11, role: 'boss' }).expect(422);
    // role change of an existing member answers 200
    const changed = await h
      .as(10)
      .post(`/api/v1/workspaces/${ws}/members`)
      .send({ user_id: 11, role: 'manager' })
      .expect(200);
    expect(changed.body.data).to.include({ user_id: 11, role: 'manager' });
    // an admin may not grant the owner role
    await h.as(12).post(`/api/v1/workspaces/${ws}/members`).send({ user_id: 11, role: 'owner' }).expect(403);
    // the last owner can be neither demoted nor removed
    const demote = await h
      .as(10)
      .post(`/api/v1/workspaces/${ws}/members`)
      .send({ user_id: 10, role: 'admin' })
      .expect(422);
    expect(demote.body.code).to.equal('last_owner');
    await h.as(10).delete(`/api/v1/workspaces/${ws}/members/10`).expect(422);
    await h.as(12).delete(`/api/v1/workspaces/${ws}/members/10`).expect(403);
    // with a second owner, the first can go
    await h.as(10).post(`/api/v1/workspaces/${ws}/members`).send({ user_id: 12, role: 'owner' }).expect(200);
    await h.as(10).delete(`/api/v1/workspaces/${ws}/members/10`).expect(204);
    await h.as(10).get(`/api/v1/workspaces/${ws}`).expect(404);
    await h.as(12).delete(`/api/v1/workspaces/${ws}/members/77`).expect(404);
    const members = await h.as(12).get(`/api/v1/workspaces/${ws}/members`).expect(200);
    expect(members.body.pagination.total).to.equal(2);
  });

  describe('roles', () => {
    let form: Form;
    let submissionId: number;
    before(async () => {
      form = await makeForm(h, 20);
      await addMember(h, 20, form.workspaceId, 21, 'viewer');
      await addMember(h, 20, form.workspaceId, 22, 'collector');
      await addMember(h, 20, form.workspaceId, 23, 'collector');
      await addMember(h, 20, form.workspaceId, 24, 'manager');
      await addMember(h, 20, form.workspaceId, 25, 'admin');
      await seen(h, 29);
      submissionId = (
        await h.as(22).post(`/api/v1/projects/${form.projectId}/submissions`).send(body(form)).expect(201)
      ).body.data.id;
    });

    it('gives a non-member 404 on every workspace, project, version, field and submission route', async () => {
      const { workspaceId: w, projectId: p, versionId: v } = form;
      const f = form.fields.age!.id;
      const routes: Array<[string, string]> = [
        ['get', `/api/v1/workspaces/${w}`],
        ['put', `/api/v1/workspaces/${w}`],
        ['delete', `/api/v1/workspaces/${w}`],
        ['get', `/api/v1/workspaces/${w}/members`],
        ['post', `/api/v1/workspaces/${w}/members`],
        ['delete', `/api/v1/workspaces/${w}/members/20`],
        ['get', `/api/v1/workspaces/${w}/projects`],
        ['post', `/api/v1/workspaces/${w}/projects`],
        ['post', `/api/v1/workspaces/${w}/projects/${p}/publish`],
        ['get', `/api/v1/projects/${p}`],
        ['put', `/api/v1/projects/${p}`],
        ['delete', `/api/v1/projects/${p}`],
        ['get', `/api/v1/projects/${p}/stats`],
        ['post', `/api/v1/projects/${p}/publish`],
        ['post', `/api/v1/projects/${p}/unpublish`],
        ['get', `/api/v1/projects/${p}/versions`],
        ['post', `/api/v1/projects/${p}/versions`],
        ['get', `/api/v1/versions/${v}`],
        ['get', `/api/v1/versions/${v}/fields`],
        ['post', `/api/v1/versions/${v}/fields`],
        ['put', `/api/v1/versions/${v}/fields/${f}`],
        ['delete', `/api/v1/versions/${v}/fields/${f}`],
        ['post', `/api/v1/versions/${v}/publish`],
        ['get', `/api/v1/projects/${p}/submissions`],
        ['post', `/api/v1/projects/${p}/submissions`],
        ['get', `/api/v1/projects/${p}/submissions/${submissionId}`],
        ['put', `/api/v1/projects/${p}/submissions/${submissionId}`],
      ];
      for (const [method, path] of routes) {
        const res = await h.as(29)[method as 'get'](path).send({ name: 'x', role: 'viewer', user_id: 29 });
        expect(res.status, `${method} ${path}`).to.equal(404);
        expect(res.body.detail, `${method} ${path}`).to.be.a('string');
      }
    });

    it('lets a viewer read everything but write nothing', async () => {
      const { workspaceId: w, projectId: p, versionId: v } = form;
      await h.as(21).get(`/api/v1/workspaces/${w}`).expect(200);
      await h.as(21).get(`/api/v1/projects/${p}/submissions`).expect(200);
      await h.as(21).get(`/api/v1/projects/${p}/submissions/${submissionId}`).expect(200);
      await h.as(21).get(`/api/v1/projects/${p}/stats`).expect(200);
      await h.as(21).put(`/api/v1/workspaces/${w}`).send({ name: 'x' }).expect(403);
      await h.as(21).post(`/api/v1/workspaces/${w}/projects`).send({ name: 'x' }).expect(403);
      await h.as(21).post(`/api/v1/projects/${p}/versions`).send({}).expect(403);
      await h
        .as(21)
        .post(`/api/v1/versions/${v}/fields`)
        .send({ name: 'x', label: 'x', type: 'text' })
        .expect(403);
      await h.as(21).post(`/api/v1/projects/${p}/publish`).expect(403);
      await h.as(21).post(`/api/v1/projects/${p}/submissions`).send(body(form)).expect(403);
      await h
        .as(21)
        .put(`/api/v1/projects/${p}/submissions/${submissionId}`)
        .send({ status: 'reviewed' })
        .expect(403);
      await h
        .as(21)
        .post(`/api/v1/workspaces/${w}/members`)
        .send({ user_id: 29, role: 'viewer' })
        .expect(403);
    });

    it('lets a collector submit and see only their own submissions, and never review', async () => {
      const p = form.projectId;
      await h.as(23).get(`/api/v1/projects/${p}/submissions/${submissionId}`).expect(404);
      const own = await h.as(23).post(`/api/v1/projects/${p}/submissions`).send(body(form)).expect(201);
      const list = await h.as(23).get(`/api/v1/projects/${p}/submissions`).expect(200);
      expect(list.body.data.map((s: { id: number }) => s.id)).to.deep.equal([own.body.data.id]);
      const other = await h.as(23).get(`/api/v1/projects/${p}/submissions?collector_id=22`).expect(200);
      expect(other.body.pagination.total).to.equal(0);
      await h
        .as(23)
        .put(`/api/v1/projects/${p}/submissions/${own.body.data.id}`)
        .send({ status: 'reviewed' })
        .expect(403);
      await h.as(23).get(`/api/v1/projects/${p}/stats`).expect(403);
      await h.as(23).post(`/api/v1/projects/${p}/versions`).send({}).expect(403);
    });

    it('lets managers edit forms and review, admins manage members, only owners delete the workspace', async () => {
      const p = form.projectId;
      await h.as(24).post(`/api/v1/projects/${p}/versions`).send({}).expect(201);
      await h
        .as(24)
        .put(`/api/v1/projects/${p}/submissions/${submissionId}`)
        .send({ status: 'reviewed' })
        .expect(200);
      await h
        .as(24)
        .post(`/api/v1/workspaces/${form.workspaceId}/members`)
        .send({ user_id: 29, role: 'viewer' })
        .expect(403);
      await h.as(24).delete(`/api/v1/projects/${p}`).expect(403);
      await h
        .as(25)
        .post(`/api/v1/workspaces/${form.workspaceId}/members`)
        .send({ user_id: 29, role: 'viewer' })
        .expect(201);
      await h.as(25).delete(`/api/v1/workspaces/${form.workspaceId}`).expect(403);
      await h.as(29).delete(`/api/v1/workspaces/${form.workspaceId}/members/29`).expect(204); // leaving
    });
  });
});
