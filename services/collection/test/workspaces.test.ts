import { expect } from 'chai';
import { addMember, body, cast, makeForm, seen, startHarness, type Form, type Harness } from './harness.ts';

describe('collection: workspaces, members and access', () => {
  // alice owns workspaces; judy owns one where kevin and laura become members; trent owns the roles'
  // workspace where ursula views, victor and walter collect, xena manages, yusuf administers;
  // zoe is a stranger to it.
  const { alice, judy, kevin, laura, trent, ursula, victor, walter, xena, yusuf, zoe } = cast;
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h?.close();
  });

  it('creates, lists (pagination envelope), shows, updates and deletes a workspace', async () => {
    const created = await h
      .as(alice)
      .post('/api/v1/workspaces')
      .send({ name: 'Field team', description: 'd' })
      .expect(201);
    expect(created.body.data).to.include({ name: 'Field team', description: 'd', role: 'owner' });
    expect(created.body.data.id).to.be.a('number');
    expect(created.body.data.created_at).to.match(/Z$/);
    expect(created.body.data.members).to.have.length(1);
    const id = created.body.data.id as number;
    await h.as(alice).post('/api/v1/workspaces').send({ name: 'Second' }).expect(201);
    const list = await h.as(alice).get('/api/v1/workspaces?per_page=1').expect(200);
    expect(list.body.pagination).to.deep.equal({ current_page: 1, last_page: 2, per_page: 1, total: 2 });
    expect(list.body.data[0].name).to.equal('Second');
    await h.as(alice).get('/api/v1/workspaces?per_page=101').expect(422);
    await h.as(alice).get('/api/v1/workspaces?per_page=0').expect(422);
    const updated = await h.as(alice).put(`/api/v1/workspaces/${id}`).send({ name: 'Renamed' }).expect(200);
    expect(updated.body.data.name).to.equal('Renamed');
    await h.as(alice).put(`/api/v1/workspaces/${id}`).send({ name: '' }).expect(422);
    await h.as(alice).delete(`/api/v1/workspaces/${id}`).expect(204);
    await h.as(alice).get(`/api/v1/workspaces/${id}`).expect(404);
  });

  it('refuses anonymous callers and bad bodies with problem documents', async () => {
    const anon = await h.anonymous().get('/api/v1/workspaces').expect(401);
    expect(anon.headers['content-type']).to.match(/application\/problem\+json/);
    const bad = await h.as(alice).post('/api/v1/workspaces').send({}).expect(422);
    expect(bad.body.errors).to.have.property('name');
    await h.as(alice).get('/api/v1/workspaces/abc').expect(404);
  });

  it('adds members by user_id or e-mail, refuses unknown users, changes roles and protects the last owner', async () => {
    await seen(h, judy, kevin, laura);
    const ws = (await h.as(judy).post('/api/v1/workspaces').send({ name: 'M' }).expect(201)).body.data
      .id as number;
    const byId = await h
      .as(judy)
      .post(`/api/v1/workspaces/${ws}/members`)
      .send({ user_id: kevin.id, role: 'collector' })
      .expect(201);
    expect(byId.body.data).to.include({ user_id: kevin.id, role: 'collector', email: kevin.email });
    const byEmail = await h
      .as(judy)
      .post(`/api/v1/workspaces/${ws}/members`)
      .send({ email: laura.email.toUpperCase(), role: 'admin' })
      .expect(201);
    expect(byEmail.body.data.user_id).to.equal(laura.id);
    const unknown = await h
      .as(judy)
      .post(`/api/v1/workspaces/${ws}/members`)
      .send({ user_id: 999, role: 'viewer' })
      .expect(422);
    expect(unknown.body.errors).to.have.property('user_id');
    await h
      .as(judy)
      .post(`/api/v1/workspaces/${ws}/members`)
      .send({ email: 'nobody@example.test', role: 'viewer' })
      .expect(422);
    await h
      .as(judy)
      .post(`/api/v1/workspaces/${ws}/members`)
      .send({ user_id: kevin.id, role: 'boss' })
      .expect(422);
    // role change of an existing member answers 200
    const changed = await h
      .as(judy)
      .post(`/api/v1/workspaces/${ws}/members`)
      .send({ user_id: kevin.id, role: 'manager' })
      .expect(200);
    expect(changed.body.data).to.include({ user_id: kevin.id, role: 'manager' });
    // an admin may not grant the owner role
    await h
      .as(laura)
      .post(`/api/v1/workspaces/${ws}/members`)
      .send({ user_id: kevin.id, role: 'owner' })
      .expect(403);
    // the last owner can be neither demoted nor removed
    const demote = await h
      .as(judy)
      .post(`/api/v1/workspaces/${ws}/members`)
      .send({ user_id: judy.id, role: 'admin' })
      .expect(422);
    expect(demote.body.code).to.equal('last_owner');
    await h.as(judy).delete(`/api/v1/workspaces/${ws}/members/${judy.id}`).expect(422);
    await h.as(laura).delete(`/api/v1/workspaces/${ws}/members/${judy.id}`).expect(403);
    // with a second owner, the first can go
    await h
      .as(judy)
      .post(`/api/v1/workspaces/${ws}/members`)
      .send({ user_id: laura.id, role: 'owner' })
      .expect(200);
    await h.as(judy).delete(`/api/v1/workspaces/${ws}/members/${judy.id}`).expect(204);
    await h.as(judy).get(`/api/v1/workspaces/${ws}`).expect(404);
    await h.as(laura).delete(`/api/v1/workspaces/${ws}/members/77`).expect(404);
    const members = await h.as(laura).get(`/api/v1/workspaces/${ws}/members`).expect(200);
    expect(members.body.pagination.total).to.equal(2);
  });

  describe('roles', () => {
    let form: Form;
    let submissionId: number;
    before(async () => {
      form = await makeForm(h, trent);
      await addMember(h, trent, form.workspaceId, ursula, 'viewer');
      await addMember(h, trent, form.workspaceId, victor, 'collector');
      await addMember(h, trent, form.workspaceId, walter, 'collector');
      await addMember(h, trent, form.workspaceId, xena, 'manager');
      await addMember(h, trent, form.workspaceId, yusuf, 'admin');
      await seen(h, zoe);
      submissionId = (
        await h.as(victor).post(`/api/v1/projects/${form.projectId}/submissions`).send(body(form)).expect(201)
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
        ['delete', `/api/v1/workspaces/${w}/members/${trent.id}`],
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
        const asZoe = h.as(zoe);
        const res = await asZoe[method as 'get'](path).send({ name: 'x', role: 'viewer', user_id: zoe.id });
        expect(res.status, `${method} ${path}`).to.equal(404);
        expect(res.body.detail, `${method} ${path}`).to.be.a('string');
      }
    });

    it('lets a viewer read everything but write nothing', async () => {
      const { workspaceId: w, projectId: p, versionId: v } = form;
      await h.as(ursula).get(`/api/v1/workspaces/${w}`).expect(200);
      await h.as(ursula).get(`/api/v1/projects/${p}/submissions`).expect(200);
      await h.as(ursula).get(`/api/v1/projects/${p}/submissions/${submissionId}`).expect(200);
      await h.as(ursula).get(`/api/v1/projects/${p}/stats`).expect(200);
      await h.as(ursula).put(`/api/v1/workspaces/${w}`).send({ name: 'x' }).expect(403);
      await h.as(ursula).post(`/api/v1/workspaces/${w}/projects`).send({ name: 'x' }).expect(403);
      await h.as(ursula).post(`/api/v1/projects/${p}/versions`).send({}).expect(403);
      await h
        .as(ursula)
        .post(`/api/v1/versions/${v}/fields`)
        .send({ name: 'x', label: 'x', type: 'text' })
        .expect(403);
      await h.as(ursula).post(`/api/v1/projects/${p}/publish`).expect(403);
      await h.as(ursula).post(`/api/v1/projects/${p}/submissions`).send(body(form)).expect(403);
      await h
        .as(ursula)
        .put(`/api/v1/projects/${p}/submissions/${submissionId}`)
        .send({ status: 'reviewed' })
        .expect(403);
      await h
        .as(ursula)
        .post(`/api/v1/workspaces/${w}/members`)
        .send({ user_id: zoe.id, role: 'viewer' })
        .expect(403);
    });

    it('lets a collector submit and see only their own submissions, and never review', async () => {
      const p = form.projectId;
      await h.as(walter).get(`/api/v1/projects/${p}/submissions/${submissionId}`).expect(404);
      const own = await h.as(walter).post(`/api/v1/projects/${p}/submissions`).send(body(form)).expect(201);
      const list = await h.as(walter).get(`/api/v1/projects/${p}/submissions`).expect(200);
      expect(list.body.data.map((s: { id: number }) => s.id)).to.deep.equal([own.body.data.id]);
      const other = await h
        .as(walter)
        .get(`/api/v1/projects/${p}/submissions?collector_id=${victor.id}`)
        .expect(200);
      expect(other.body.pagination.total).to.equal(0);
      await h
        .as(walter)
        .put(`/api/v1/projects/${p}/submissions/${own.body.data.id}`)
        .send({ status: 'reviewed' })
        .expect(403);
      await h.as(walter).get(`/api/v1/projects/${p}/stats`).expect(403);
      await h.as(walter).post(`/api/v1/projects/${p}/versions`).send({}).expect(403);
    });

    it('lets managers edit forms and review, admins manage members, only owners delete the workspace', async () => {
      const p = form.projectId;
      await h.as(xena).post(`/api/v1/projects/${p}/versions`).send({}).expect(201);
      await h
        .as(xena)
        .put(`/api/v1/projects/${p}/submissions/${submissionId}`)
        .send({ status: 'reviewed' })
        .expect(200);
      await h
        .as(xena)
        .post(`/api/v1/workspaces/${form.workspaceId}/members`)
        .send({ user_id: zoe.id, role: 'viewer' })
        .expect(403);
      await h.as(xena).delete(`/api/v1/projects/${p}`).expect(403);
      await h
        .as(yusuf)
        .post(`/api/v1/workspaces/${form.workspaceId}/members`)
        .send({ user_id: zoe.id, role: 'viewer' })
        .expect(201);
      await h.as(yusuf).delete(`/api/v1/workspaces/${form.workspaceId}`).expect(403);
      await h.as(zoe).delete(`/api/v1/workspaces/${form.workspaceId}/members/${zoe.id}`).expect(204); // leaving
    });
  });
});
