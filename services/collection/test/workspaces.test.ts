import { expect } from 'chai';
import { addMember, body, cast, makeForm, seen, startHarness, type Form, type Harness } from './harness.ts';

describe('collection: workspaces, members and access', () => {
  // alice and bob own workspaces; judy owns those where kevin and laura become members; trent owns
  // the roles' workspace where ursula views, victor and walter collect, xena manages, yusuf
  // administers and sybil joins to leave; zoe is a stranger to it.
  const { alice, bob, judy, kevin, laura, trent, ursula, victor, walter, xena, yusuf, sybil, zoe } = cast;
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h?.close();
  });

  it('creates a workspace with its creator as its owner and only member', async () => {
    const created = await h
      .as(alice)
      .post('/api/v1/workspaces')
      .send({ name: 'Field team', description: 'd' })
      .expect(201);
    expect(created.body.data).to.include({ name: 'Field team', description: 'd', role: 'owner' });
    expect(created.body.data.id).to.be.a('number');
    expect(created.body.data.created_at).to.match(/Z$/);
    expect(created.body.data.members).to.have.length(1);
  });

  it('lists workspaces newest first in the pagination envelope, 1 to 100 a page', async () => {
    await h.as(bob).post('/api/v1/workspaces').send({ name: 'First' }).expect(201);
    await h.as(bob).post('/api/v1/workspaces').send({ name: 'Second' }).expect(201);
    const list = await h.as(bob).get('/api/v1/workspaces?per_page=1').expect(200);
    expect(list.body.pagination).to.deep.equal({ current_page: 1, last_page: 2, per_page: 1, total: 2 });
    expect(list.body.data[0].name).to.equal('Second');
    await h.as(bob).get('/api/v1/workspaces?per_page=101').expect(422);
    await h.as(bob).get('/api/v1/workspaces?per_page=0').expect(422);
  });

  it('renames a workspace, refusing an empty name (422)', async () => {
    const id = (await h.as(alice).post('/api/v1/workspaces').send({ name: 'Old' }).expect(201)).body.data
      .id as number;
    const updated = await h.as(alice).put(`/api/v1/workspaces/${id}`).send({ name: 'Renamed' }).expect(200);
    expect(updated.body.data.name).to.equal('Renamed');
    await h.as(alice).put(`/api/v1/workspaces/${id}`).send({ name: '' }).expect(422);
  });

  it('deletes a workspace, which then answers 404', async () => {
    const id = (await h.as(alice).post('/api/v1/workspaces').send({ name: 'Gone' }).expect(201)).body.data
      .id as number;
    await h.as(alice).delete(`/api/v1/workspaces/${id}`).expect(204);
    await h.as(alice).get(`/api/v1/workspaces/${id}`).expect(404);
  });

  it('answers an anonymous caller 401 with a problem document', async () => {
    const anon = await h.anonymous().get('/api/v1/workspaces').expect(401);
    expect(anon.headers['content-type']).to.match(/application\/problem\+json/);
  });

  it('refuses a workspace without a name (422 naming it)', async () => {
    const bad = await h.as(alice).post('/api/v1/workspaces').send({}).expect(422);
    expect(bad.body.errors).to.have.property('name');
  });

  it('answers 404 for a workspace id that is not a number', async () => {
    await h.as(alice).get('/api/v1/workspaces/abc').expect(404);
  });

  describe('members', () => {
    before(async () => {
      await seen(h, judy, kevin, laura);
    });
    /** A workspace of judy's where kevin joins as a collector by user_id, laura as an admin by e-mail. */
    const team = async () => {
      const ws = (await h.as(judy).post('/api/v1/workspaces').send({ name: 'M' }).expect(201)).body.data
        .id as number;
      const byId = await h
        .as(judy)
        .post(`/api/v1/workspaces/${ws}/members`)
        .send({ user_id: kevin.id, role: 'collector' })
        .expect(201);
      const byEmail = await h
        .as(judy)
        .post(`/api/v1/workspaces/${ws}/members`)
        .send({ email: laura.email.toUpperCase(), role: 'admin' })
        .expect(201);
      return { ws, byId, byEmail };
    };

    it('adds a member by user_id, answering the member with its e-mail', async () => {
      const { byId } = await team();
      expect(byId.body.data).to.include({ user_id: kevin.id, role: 'collector', email: kevin.email });
    });

    it('adds a member by e-mail, whatever its case', async () => {
      const { byEmail } = await team();
      expect(byEmail.body.data.user_id).to.equal(laura.id);
    });

    it('refuses an unknown user (by user_id or e-mail) or an unknown role (422)', async () => {
      const { ws } = await team();
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
    });

    it('changes the role of an existing member (200)', async () => {
      const { ws } = await team();
      const changed = await h
        .as(judy)
        .post(`/api/v1/workspaces/${ws}/members`)
        .send({ user_id: kevin.id, role: 'manager' })
        .expect(200);
      expect(changed.body.data).to.include({ user_id: kevin.id, role: 'manager' });
    });

    it('refuses an admin granting the owner role (403)', async () => {
      const { ws } = await team();
      await h
        .as(laura)
        .post(`/api/v1/workspaces/${ws}/members`)
        .send({ user_id: kevin.id, role: 'owner' })
        .expect(403);
    });

    it('keeps the last owner: neither demoted nor removed', async () => {
      const { ws } = await team();
      const demote = await h
        .as(judy)
        .post(`/api/v1/workspaces/${ws}/members`)
        .send({ user_id: judy.id, role: 'admin' })
        .expect(422);
      expect(demote.body.code).to.equal('last_owner');
      await h.as(judy).delete(`/api/v1/workspaces/${ws}/members/${judy.id}`).expect(422);
      await h.as(laura).delete(`/api/v1/workspaces/${ws}/members/${judy.id}`).expect(403);
    });

    it('lets an owner leave once the workspace has a second owner', async () => {
      const { ws } = await team();
      await h
        .as(judy)
        .post(`/api/v1/workspaces/${ws}/members`)
        .send({ user_id: laura.id, role: 'owner' })
        .expect(200);
      await h.as(judy).delete(`/api/v1/workspaces/${ws}/members/${judy.id}`).expect(204);
      await h.as(judy).get(`/api/v1/workspaces/${ws}`).expect(404);
      const members = await h.as(laura).get(`/api/v1/workspaces/${ws}/members`).expect(200);
      expect(members.body.pagination.total).to.equal(2);
    });

    it('answers 404 for removing a user who is not a member', async () => {
      const { ws } = await team();
      await h.as(laura).delete(`/api/v1/workspaces/${ws}/members/77`).expect(404);
    });
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

    it('limits a collector to submitting and reading their own submissions', async () => {
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

    it('lets a manager edit forms and review, but neither add members nor delete a project', async () => {
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
    });

    it('lets an admin add members, but not delete the workspace', async () => {
      await h
        .as(yusuf)
        .post(`/api/v1/workspaces/${form.workspaceId}/members`)
        .send({ user_id: zoe.id, role: 'viewer' })
        .expect(201);
      await h.as(yusuf).delete(`/api/v1/workspaces/${form.workspaceId}`).expect(403);
    });

    it('lets a member leave the workspace', async () => {
      await addMember(h, trent, form.workspaceId, sybil, 'viewer');
      await h.as(sybil).delete(`/api/v1/workspaces/${form.workspaceId}/members/${sybil.id}`).expect(204);
    });
  });
});
