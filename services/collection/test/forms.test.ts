import { expect } from 'chai';
import { allTypeFields, cast, makeForm, seen, startHarness, type Harness } from './harness.ts';

// alice owns the workspaces; mallory is a stranger to them.
const { alice, mallory } = cast;

describe('collection: projects, versions and fields', () => {
  let h: Harness;
  let ws: number;
  let project: number;
  before(async () => {
    h = await startHarness();
    ws = (await h.as(alice).post('/api/v1/workspaces').send({ name: 'W' }).expect(201)).body.data.id;
    project = (
      await h
        .as(alice)
        .post(`/api/v1/workspaces/${ws}/projects`)
        .send({ name: 'Survey', description: 'd' })
        .expect(201)
    ).body.data.id;
  });
  after(async () => {
    await h?.close();
  });

  it('creates, lists, updates and deletes projects', async () => {
    const p = await h.as(alice).get(`/api/v1/projects/${project}`).expect(200);
    expect(p.body.data).to.include({
      name: 'Survey',
      is_published: false,
      current_version_id: null,
      consent_text: null,
    });
    const list = await h.as(alice).get(`/api/v1/workspaces/${ws}/projects`).expect(200);
    expect(list.body.pagination.total).to.equal(1);
    const updated = await h
      .as(alice)
      .put(`/api/v1/projects/${project}`)
      .send({ description: 'new' })
      .expect(200);
    expect(updated.body.data.description).to.equal('new');
    expect((await h.as(alice).get(`/api/v1/projects/${project}`).expect(200)).body.data.description).to.equal(
      'new',
    );
    const other = (
      await h.as(alice).post(`/api/v1/workspaces/${ws}/projects`).send({ name: 'Gone' }).expect(201)
    ).body.data.id;
    await h.as(alice).delete(`/api/v1/projects/${other}`).expect(204);
    await h.as(alice).get(`/api/v1/projects/${other}`).expect(404);
    await h.as(alice).post(`/api/v1/workspaces/${ws}/projects`).send({ name: 123 }).expect(422);
  });

  it('edits fields of drafts only, freezes on publish (409), and copies the last published version', async () => {
    const v1 = (await h.as(alice).post(`/api/v1/projects/${project}/versions`).send({}).expect(201)).body
      .data;
    expect(v1).to.include({ number: 1, status: 'draft' });
    await h.as(alice).post(`/api/v1/versions/${v1.id}/publish`).expect(422); // no fields yet
    const f = await h
      .as(alice)
      .post(`/api/v1/versions/${v1.id}/fields`)
      .send({ name: 'q1', label: 'Q1', type: 'text' })
      .expect(201);
    expect(f.body.data.id).to.be.a('number');
    expect(f.body.data.uuid).to.match(/^[0-9a-f-]{36}$/);
    expect(f.body.data).to.include({ required: false, type: 'text' });
    const dup = await h
      .as(alice)
      .post(`/api/v1/versions/${v1.id}/fields`)
      .send({ name: 'q1', label: 'Again', type: 'integer' })
      .expect(422);
    expect(dup.body.errors).to.have.property('name');
    const upd = await h
      .as(alice)
      .put(`/api/v1/versions/${v1.id}/fields/${f.body.data.id}`)
      .send({ label: 'Question 1', required: true, constraints: { max_length: 10 } })
      .expect(200);
    expect(upd.body.data).to.include({ label: 'Question 1', required: true, uuid: f.body.data.uuid });
    const tmp = await h
      .as(alice)
      .post(`/api/v1/versions/${v1.id}/fields`)
      .send({ name: 'tmp', label: 'T', type: 'date' })
      .expect(201);
    await h.as(alice).delete(`/api/v1/versions/${v1.id}/fields/${tmp.body.data.id}`).expect(204);
    await h.as(alice).delete(`/api/v1/versions/${v1.id}/fields/${tmp.body.data.id}`).expect(404);

    // not published yet: the project cannot be published
    const early = await h.as(alice).post(`/api/v1/projects/${project}/publish`).expect(422);
    expect(early.body.code).to.equal('no_published_version');

    const pub = await h.as(alice).post(`/api/v1/versions/${v1.id}/publish`).expect(200);
    expect(pub.body.data).to.include({ status: 'published', is_published: true });
    expect((await h.as(alice).get(`/api/v1/projects/${project}`)).body.data.current_version_id).to.equal(
      v1.id,
    );
    await h.as(alice).post(`/api/v1/versions/${v1.id}/publish`).expect(409);
    const frozen = await h
      .as(alice)
      .post(`/api/v1/versions/${v1.id}/fields`)
      .send({ name: 'q2', label: 'Q2', type: 'text' })
      .expect(409);
    expect(frozen.body.message).to.match(/published and frozen/);
    await h
      .as(alice)
      .put(`/api/v1/versions/${v1.id}/fields/${f.body.data.id}`)
      .send({ label: 'x' })
      .expect(409);
    await h.as(alice).delete(`/api/v1/versions/${v1.id}/fields/${f.body.data.id}`).expect(409);

    const v2 = (
      await h
        .as(alice)
        .post(`/api/v1/projects/${project}/versions`)
        .send({ copy_last_published: true })
        .expect(201)
    ).body.data;
    expect(v2).to.include({ number: 2, status: 'draft', field_count: 1, copied_from_version_id: v1.id });
    const fields = await h.as(alice).get(`/api/v1/versions/${v2.id}/fields`).expect(200);
    expect(fields.body.data[0]).to.include({ name: 'q1', uuid: f.body.data.uuid, label: 'Question 1' });
    expect(fields.body.data[0].id).to.not.equal(f.body.data.id);
    const versions = await h.as(alice).get(`/api/v1/projects/${project}/versions`).expect(200);
    expect(versions.body.pagination.total).to.equal(2);
    expect(versions.body.data[0].number).to.equal(2);
    // the current version stays the published one until v2 is published
    expect((await h.as(alice).get(`/api/v1/projects/${project}`)).body.data.current_version_id).to.equal(
      v1.id,
    );
  });

  it('validates field definitions: types, choices, constraints, names', async () => {
    const v = (await h.as(alice).post(`/api/v1/projects/${project}/versions`).send({}).expect(201)).body.data
      .id;
    const bad: Array<[object, string]> = [
      [{ name: 'a', label: 'A', type: 'colour' }, 'type'],
      [{ name: '1a', label: 'A', type: 'text' }, 'name'],
      [{ label: 'A', type: 'text' }, 'name'],
      [{ name: 's', label: 'S', type: 'select_one' }, 'choices'],
      [
        {
          name: 's',
          label: 'S',
          type: 'select_one',
          choices: [
            { value: 'a', label: 'A' },
            { value: 'a', label: 'B' },
          ],
        },
        'choices.1',
      ],
      [{ name: 't', label: 'T', type: 'text', choices: [{ value: 'a', label: 'A' }] }, 'choices'],
      [{ name: 'n', label: 'N', type: 'integer', constraints: { min: 5, max: 1 } }, 'constraints.min'],
      [{ name: 'n', label: 'N', type: 'text', constraints: { min: 1 } }, 'constraints'],
      [{ name: 'n', label: 'N', type: 'integer', constraints: { pattern: 'a' } }, 'constraints'],
      [{ name: 'n', label: 'N', type: 'text', constraints: { pattern: '(' } }, 'constraints.pattern'],
    ];
    for (const [b, key] of bad) {
      const res = await h.as(alice).post(`/api/v1/versions/${v}/fields`).send(b).expect(422);
      expect(res.body.errors, JSON.stringify(b)).to.have.property(key);
    }
  });
});

describe('collection: the current form version of a project', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h?.close();
  });

  it('gives the published version collectors fill, to those who may read the project', async () => {
    const f = await makeForm(h, alice, { collect_access: 'members' });
    const current = await h.as(alice).get(`/api/v1/projects/${f.projectId}/versions/current`).expect(200);
    const byId = await h.as(alice).get(`/api/v1/versions/${f.versionId}`).expect(200);
    expect(current.body).to.deep.equal(byId.body);
    expect(current.body.data.status).to.equal('published');
    expect(current.body.data.fields).to.have.length(allTypeFields.length);

    // Not open to non-members or anonymous callers while collect_access is `members`.
    await seen(h, mallory);
    const other = await h.as(mallory).get(`/api/v1/projects/${f.projectId}/versions/current`).expect(404);
    expect(other.body.code).to.equal('not_found');
    await h.anonymous().get(`/api/v1/projects/${f.projectId}/versions/current`).expect(401);
    await h
      .as(alice)
      .post(`/api/v1/projects/${f.projectId}/publish`)
      .send({ collect_access: 'public' })
      .expect(200);
    const anonymous = await h.anonymous().get(`/api/v1/projects/${f.projectId}/versions/current`).expect(200);
    expect(anonymous.body.data.id).to.equal(f.versionId);

    // A newer published version becomes the current one.
    const next = (
      await h
        .as(alice)
        .post(`/api/v1/projects/${f.projectId}/versions`)
        .send({ copy_last_published: true })
        .expect(201)
    ).body.data.id as number;
    expect(
      (await h.as(alice).get(`/api/v1/projects/${f.projectId}/versions/current`).expect(200)).body.data.id,
    ).to.equal(f.versionId);
    await h.as(alice).post(`/api/v1/versions/${next}/publish`).expect(200);
    expect(
      (await h.anonymous().get(`/api/v1/projects/${f.projectId}/versions/current`).expect(200)).body.data.id,
    ).to.equal(next);
  });

  it('answers 404 no_published_version before any version is published, and 404 for unknown projects', async () => {
    const ws = (await h.as(alice).post('/api/v1/workspaces').send({ name: 'W' }).expect(201)).body.data.id;
    const project = (
      await h.as(alice).post(`/api/v1/workspaces/${ws}/projects`).send({ name: 'P' }).expect(201)
    ).body.data.id;
    await h.as(alice).post(`/api/v1/projects/${project}/versions`).send({}).expect(201); // a draft only
    const none = await h.as(alice).get(`/api/v1/projects/${project}/versions/current`).expect(404);
    expect(none.body.code).to.equal('no_published_version');
    expect(none.headers['content-type']).to.match(/problem\+json/);
    const unknown = await h.as(alice).get('/api/v1/projects/999999/versions/current').expect(404);
    expect(unknown.body.code).to.equal('not_found');
    await h.as(alice).get('/api/v1/projects/abc/versions/current').expect(404);
  });
});
