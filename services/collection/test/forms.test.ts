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

  /** A new project of the workspace with a draft version 1 holding the text field `q1`. */
  const draftWithField = async () => {
    const id = (await h.as(alice).post(`/api/v1/workspaces/${ws}/projects`).send({ name: 'P' }).expect(201))
      .body.data.id as number;
    const v1 = (await h.as(alice).post(`/api/v1/projects/${id}/versions`).send({}).expect(201)).body.data;
    const field = (
      await h
        .as(alice)
        .post(`/api/v1/versions/${v1.id}/fields`)
        .send({ name: 'q1', label: 'Q1', type: 'text' })
        .expect(201)
    ).body.data;
    return { project: id, v1, field };
  };

  it('shows a new project unpublished, without a current version', async () => {
    const p = await h.as(alice).get(`/api/v1/projects/${project}`).expect(200);
    expect(p.body.data).to.include({
      name: 'Survey',
      is_published: false,
      current_version_id: null,
      consent_text: null,
    });
  });

  it('lists the projects of a workspace', async () => {
    const own = (await h.as(alice).post('/api/v1/workspaces').send({ name: 'Listed' }).expect(201)).body.data
      .id as number;
    await h.as(alice).post(`/api/v1/workspaces/${own}/projects`).send({ name: 'Only' }).expect(201);
    const list = await h.as(alice).get(`/api/v1/workspaces/${own}/projects`).expect(200);
    expect(list.body.pagination.total).to.equal(1);
  });

  it("updates a project's description", async () => {
    const updated = await h
      .as(alice)
      .put(`/api/v1/projects/${project}`)
      .send({ description: 'new' })
      .expect(200);
    expect(updated.body.data.description).to.equal('new');
    expect((await h.as(alice).get(`/api/v1/projects/${project}`).expect(200)).body.data.description).to.equal(
      'new',
    );
  });

  it('deletes a project, which then answers 404', async () => {
    const other = (
      await h.as(alice).post(`/api/v1/workspaces/${ws}/projects`).send({ name: 'Gone' }).expect(201)
    ).body.data.id;
    await h.as(alice).delete(`/api/v1/projects/${other}`).expect(204);
    await h.as(alice).get(`/api/v1/projects/${other}`).expect(404);
  });

  it('refuses a project whose name is not a string (422)', async () => {
    await h.as(alice).post(`/api/v1/workspaces/${ws}/projects`).send({ name: 123 }).expect(422);
  });

  it('refuses publishing a version without fields (422)', async () => {
    const v1 = (await h.as(alice).post(`/api/v1/projects/${project}/versions`).send({}).expect(201)).body
      .data;
    expect(v1).to.include({ number: 1, status: 'draft' });
    await h.as(alice).post(`/api/v1/versions/${v1.id}/publish`).expect(422); // no fields yet
  });

  it('edits the fields of a draft version, each name once in it', async () => {
    const { v1, field: f } = await draftWithField();
    expect(f.id).to.be.a('number');
    expect(f.uuid).to.match(/^[0-9a-f-]{36}$/);
    expect(f).to.include({ required: false, type: 'text' });
    const dup = await h
      .as(alice)
      .post(`/api/v1/versions/${v1.id}/fields`)
      .send({ name: 'q1', label: 'Again', type: 'integer' })
      .expect(422);
    expect(dup.body.errors).to.have.property('name');
    const upd = await h
      .as(alice)
      .put(`/api/v1/versions/${v1.id}/fields/${f.id}`)
      .send({ label: 'Question 1', required: true, constraints: { max_length: 10 } })
      .expect(200);
    expect(upd.body.data).to.include({ label: 'Question 1', required: true, uuid: f.uuid });
    const tmp = await h
      .as(alice)
      .post(`/api/v1/versions/${v1.id}/fields`)
      .send({ name: 'tmp', label: 'T', type: 'date' })
      .expect(201);
    await h.as(alice).delete(`/api/v1/versions/${v1.id}/fields/${tmp.body.data.id}`).expect(204);
    await h.as(alice).delete(`/api/v1/versions/${v1.id}/fields/${tmp.body.data.id}`).expect(404);
  });

  it('refuses publishing a project before one of its versions is published (422 no_published_version)', async () => {
    const { project: id } = await draftWithField();
    const early = await h.as(alice).post(`/api/v1/projects/${id}/publish`).expect(422);
    expect(early.body.code).to.equal('no_published_version');
  });

  it('makes a published version the current version of its project', async () => {
    const { project: id, v1 } = await draftWithField();
    const pub = await h.as(alice).post(`/api/v1/versions/${v1.id}/publish`).expect(200);
    expect(pub.body.data).to.include({ status: 'published', is_published: true });
    expect((await h.as(alice).get(`/api/v1/projects/${id}`)).body.data.current_version_id).to.equal(v1.id);
  });

  it('freezes a published version: publishing it again or changing its fields answers 409', async () => {
    const { v1, field: f } = await draftWithField();
    await h.as(alice).post(`/api/v1/versions/${v1.id}/publish`).expect(200);
    await h.as(alice).post(`/api/v1/versions/${v1.id}/publish`).expect(409);
    const frozen = await h
      .as(alice)
      .post(`/api/v1/versions/${v1.id}/fields`)
      .send({ name: 'q2', label: 'Q2', type: 'text' })
      .expect(409);
    expect(frozen.body.message).to.match(/published and frozen/);
    await h.as(alice).put(`/api/v1/versions/${v1.id}/fields/${f.id}`).send({ label: 'x' }).expect(409);
    await h.as(alice).delete(`/api/v1/versions/${v1.id}/fields/${f.id}`).expect(409);
  });

  it('copies the last published version into a new draft, the current version unchanged', async () => {
    const { project: id, v1, field: f } = await draftWithField();
    await h
      .as(alice)
      .put(`/api/v1/versions/${v1.id}/fields/${f.id}`)
      .send({ label: 'Question 1', required: true, constraints: { max_length: 10 } })
      .expect(200);
    await h.as(alice).post(`/api/v1/versions/${v1.id}/publish`).expect(200);
    const v2 = (
      await h
        .as(alice)
        .post(`/api/v1/projects/${id}/versions`)
        .send({ copy_last_published: true })
        .expect(201)
    ).body.data;
    expect(v2).to.include({ number: 2, status: 'draft', field_count: 1, copied_from_version_id: v1.id });
    const fields = await h.as(alice).get(`/api/v1/versions/${v2.id}/fields`).expect(200);
    expect(fields.body.data[0]).to.include({ name: 'q1', uuid: f.uuid, label: 'Question 1' });
    expect(fields.body.data[0].id).to.not.equal(f.id);
    const versions = await h.as(alice).get(`/api/v1/projects/${id}/versions`).expect(200);
    expect(versions.body.pagination.total).to.equal(2);
    expect(versions.body.data[0].number).to.equal(2);
    // the current version stays the published one until v2 is published
    expect((await h.as(alice).get(`/api/v1/projects/${id}`)).body.data.current_version_id).to.equal(v1.id);
  });

  it('refuses a field definition that is not valid, naming the wrong part (422): type, choices, constraints, name', async () => {
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

  it('gives the published version collectors fill, with its fields', async () => {
    const f = await makeForm(h, alice, { collect_access: 'members' });
    const current = await h.as(alice).get(`/api/v1/projects/${f.projectId}/versions/current`).expect(200);
    const byId = await h.as(alice).get(`/api/v1/versions/${f.versionId}`).expect(200);
    expect(current.body).to.deep.equal(byId.body);
    expect(current.body.data.status).to.equal('published');
    expect(current.body.data.fields).to.have.length(allTypeFields.length);
  });

  it('gives the current version only to those who may read the project', async () => {
    const f = await makeForm(h, alice, { collect_access: 'members' });
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
  });

  it('makes a newer published version the current one', async () => {
    const f = await makeForm(h, alice, { collect_access: 'public' });
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

  it('answers 404 no_published_version before any version is published', async () => {
    const ws = (await h.as(alice).post('/api/v1/workspaces').send({ name: 'W' }).expect(201)).body.data.id;
    const project = (
      await h.as(alice).post(`/api/v1/workspaces/${ws}/projects`).send({ name: 'P' }).expect(201)
    ).body.data.id;
    await h.as(alice).post(`/api/v1/projects/${project}/versions`).send({}).expect(201); // a draft only
    const none = await h.as(alice).get(`/api/v1/projects/${project}/versions/current`).expect(404);
    expect(none.body.code).to.equal('no_published_version');
    expect(none.headers['content-type']).to.match(/problem\+json/);
  });

  it('answers 404 not_found for a project that does not exist', async () => {
    const unknown = await h.as(alice).get('/api/v1/projects/999999/versions/current').expect(404);
    expect(unknown.body.code).to.equal('not_found');
    await h.as(alice).get('/api/v1/projects/abc/versions/current').expect(404);
  });
});
