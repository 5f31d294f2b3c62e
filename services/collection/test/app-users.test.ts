import { expect } from 'chai';
import request from 'supertest';
import { addMember, cast, makeForm, startHarness, type Form, type Harness } from './harness.ts';

/*
 * App users (issue 35; docs/collection.md, "ODK Collect and Enketo"): a project's credentials for
 * ODK Collect and Enketo. Managers create (the key shown once), list and revoke them; the gateway
 * looks a key up; an app user reaches nothing but its project's OpenRosa routes.
 */
describe('collection: app users', () => {
  let h: Harness;
  let form: Form;
  // alice owns the workspace, bob manages, carol collects, mallory is a stranger.
  const { alice, bob, carol, mallory } = cast;
  const gateway = () => h.auth(undefined, { amr: 'gateway' });
  const asAppUser = (id: number, projectId = form.projectId) =>
    h.auth(undefined, { amr: 'app_user', apu: { id, prj: projectId } });

  before(async () => {
    h = await startHarness();
    form = await makeForm(h, alice, { collect_access: 'members' });
    await addMember(h, alice, form.workspaceId, bob, 'manager');
    await addMember(h, alice, form.workspaceId, carol, 'collector');
  });
  after(async () => {
    await h?.close();
  });

  const create = (name: string) =>
    h.as(bob).post(`/api/v1/projects/${form.projectId}/app-users`).send({ display_name: name }).expect(201);

  it('creates an app user with its key and server address once, and lists it without them', async () => {
    const res = await request(h.app)
      .post(`/api/v1/projects/${form.projectId}/app-users`)
      .set('Authorization', h.auth(bob))
      .set('X-Forwarded-Proto', 'https')
      .set('X-Forwarded-Host', 'field.example.org')
      .send({ display_name: '  Tablet 1 ' })
      .expect(201);
    const created = res.body.data;
    expect(created.display_name).to.equal('Tablet 1');
    expect(created.token).to.match(/^[A-Za-z0-9]{40}[0-9a-f]{8}$/);
    expect(created.server_url).to.equal(
      `https://field.example.org/api/v1/key/${created.token}/projects/${form.projectId}`,
    );
    expect(created.revoked_at).to.equal(null);
    const stored = await h.db('app_users').where('id', created.id).first();
    expect(stored.key_hash).to.have.length(64);
    expect(JSON.stringify(stored)).not.to.include(created.token);
    const list = await h.as(bob).get(`/api/v1/projects/${form.projectId}/app-users`).expect(200);
    const listed = list.body.data.find((u: { id: number }) => u.id === created.id);
    expect(listed).to.deep.equal({
      id: created.id,
      display_name: 'Tablet 1',
      created_at: created.created_at,
      revoked_at: null,
    });
  });

  it('lets only owners, admins and managers manage them (collector 403, stranger 404)', async () => {
    const path = `/api/v1/projects/${form.projectId}/app-users`;
    await h.as(carol).post(path).send({ display_name: 'x' }).expect(403);
    await h.as(carol).get(path).expect(403);
    await h.as(mallory).post(path).send({ display_name: 'x' }).expect(404);
    await h.anonymous().get(path).expect(401);
    const bad = await h.as(bob).post(path).send({ display_name: '' }).expect(422);
    expect(bad.body.errors).to.have.property('display_name');
  });

  it('answers the gateway which app user a key is, and nobody else', async () => {
    const { id, token } = (await create('Tablet 2')).body.data;
    const ok = await request(h.app)
      .post('/api/v1/app-users/authenticate')
      .set('Authorization', gateway())
      .send({ key: token })
      .expect(200);
    expect(ok.body).to.deep.equal({ id, project_id: form.projectId, display_name: 'Tablet 2' });
    await h.as(alice).post('/api/v1/app-users/authenticate').send({ key: token }).expect(404);
    await h.anonymous().post('/api/v1/app-users/authenticate').send({ key: token }).expect(404);
    const wrong = `${token.slice(0, 39)}${token[39] === 'a' ? 'b' : 'a'}${token.slice(40)}`;
    await request(h.app)
      .post('/api/v1/app-users/authenticate')
      .set('Authorization', gateway())
      .send({ key: wrong })
      .expect(401);
  });

  it('revokes one: the gateway lookup and its next request are refused (401 app_user_revoked)', async () => {
    const { id, token } = (await create('Tablet 3')).body.data;
    // The project's published form, as an app user reads it (the gateway lets it reach only the
    // OpenRosa routes; the service's own check is project.open).
    await request(h.app)
      .get(`/api/v1/projects/${form.projectId}/versions/current`)
      .set('Authorization', asAppUser(id))
      .expect(200);
    await h.as(carol).post(`/api/v1/projects/${form.projectId}/app-users/${id}/revoke`).expect(403);
    const revoked = await h
      .as(bob)
      .post(`/api/v1/projects/${form.projectId}/app-users/${id}/revoke`)
      .expect(200);
    expect(revoked.body.data.revoked_at).to.be.a('string');
    const next = await request(h.app)
      .get(`/api/v1/projects/${form.projectId}/versions/current`)
      .set('Authorization', asAppUser(id))
      .expect(401);
    expect(next.body.code).to.equal('app_user_revoked');
    const lookup = await request(h.app)
      .post('/api/v1/app-users/authenticate')
      .set('Authorization', gateway())
      .send({ key: token })
      .expect(401);
    expect(lookup.body.code).to.equal('app_user_revoked');
    await h.as(bob).post(`/api/v1/projects/${form.projectId}/app-users/999999/revoke`).expect(404);
  });

  it('gives an app user what project.open gives a collector of its own project, nothing more', async () => {
    const { id } = (await create('Tablet 4')).body.data;
    const other = await makeForm(h, alice, { collect_access: 'public' });
    const as = (path: string) => request(h.app).get(path).set('Authorization', asAppUser(id));
    // The gateway keeps app users to the OpenRosa routes; the service itself lets them reach
    // what a collector of an open project reaches (the project and its current form), no more.
    await as(`/api/v1/projects/${form.projectId}`).expect(200);
    await as(`/api/v1/projects/${form.projectId}/stats`).expect(403);
    await as(`/api/v1/projects/${form.projectId}/app-users`).expect(403);
    // Use cases that need a signed-in user refuse it as anonymous.
    await as(`/api/v1/projects/${form.projectId}/submissions`).expect(401);
    await as(`/api/v1/workspaces/${form.workspaceId}`).expect(401);
    // Another project, even a public one: not its own.
    await request(h.app)
      .get(`/api/v1/projects/${other.projectId}/versions/current`)
      .set('Authorization', asAppUser(id, form.projectId))
      .expect(404);
  });
});
