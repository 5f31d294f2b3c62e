import { expect } from 'chai';
import { addMember, body, cast, makeForm, seen, startHarness, type Form, type Harness } from './harness.ts';

/**
 * Editing a submission and its versions (issue 32; docs/collection.md, "Editing a submission
 * and its versions"): reviewers correct sent submissions, each edit is kept as a version with
 * who, when and the changes, written with the edit or not at all; names beside user ids.
 */
describe('collection: submission edits and versions', () => {
  // alice owns the workspace, bob and carol collect, dave views, erin manages (and reviews);
  // ivan is a stranger to it.
  const { alice, bob, carol, dave, erin, ivan } = cast;
  let h: Harness;
  let form: Form;
  // 1 owner, 2 and 3 collectors, 4 viewer, 5 manager, 9 a stranger.
  before(async () => {
    h = await startHarness(64 * 1024);
    form = await makeForm(h, alice);
    await addMember(h, alice, form.workspaceId, bob, 'collector');
    await addMember(h, alice, form.workspaceId, carol, 'collector');
    await addMember(h, alice, form.workspaceId, dave, 'viewer');
    await addMember(h, alice, form.workspaceId, erin, 'manager');
    await seen(h, ivan);
  });
  after(async () => {
    await h?.close();
  });
  const send = async (extra: Record<string, unknown> = {}, top: object = {}) =>
    (
      await h
        .as(bob)
        .post(`/api/v1/projects/${form.projectId}/submissions`)
        .send(body(form, extra, top))
        .expect(201)
    ).body.data as { id: number };
  const urlOf = (id: number) => `/api/v1/projects/${form.projectId}/submissions/${id}`;
  const versionCount = async (id: number) =>
    Number((await h.db('submission_versions').where({ submission_id: id }).count({ n: '*' }))[0]!.n);

  it("keeps a reviewer's edit of a sent submission as a version: who, when, before → after", async () => {
    const s = await send({ colour: 'red' });
    const url = urlOf(s.id);
    const before = Date.now();
    const edited = await h
      .as(erin)
      .put(url)
      .send({ data: body(form, { age: 37, colour: 'blue', full_name: 'Ada' }).data, latitude: 10 })
      .expect(200);
    expect(
      edited.body.data.data.find((e: { field_uuid: string }) => e.field_uuid === form.fields.age!.uuid).value,
    ).to.equal(37);
    expect(edited.body.data.status).to.equal('submitted'); // an edit is not a review
    expect(edited.body.data.collector_name).to.equal(bob.name);

    // A second edit, by the owner after a review.
    await h.as(alice).put(url).send({ status: 'reviewed', comment: 'ok' }).expect(200);
    await h
      .as(alice)
      .put(url)
      .send({ data: body(form, { age: 38, colour: 'blue' }).data })
      .expect(200);

    const list = await h.as(alice).get(`${url}/versions`).expect(200);
    expect(list.body.pagination).to.deep.equal({ current_page: 1, last_page: 1, per_page: 15, total: 2 });
    const [second, first] = list.body.data;
    expect(first).to.deep.include({ number: 1, user_id: erin.id, user_name: erin.name });
    expect(new Date(first.created_at).getTime()).to.be.within(before - 1000, Date.now() + 1000);
    expect(first.created_at).to.match(/Z$/);
    expect(first.changes).to.have.deep.members([
      { field_uuid: form.fields.age!.uuid, type: 'integer', before: 36, after: 37 },
      { field_uuid: form.fields.colour!.uuid, type: 'select_one', before: 'red', after: 'blue' },
    ]);
    expect(first.location).to.deep.equal({
      before: { latitude: 48.85, longitude: 2.35, altitude: 35, precision: 5 },
      after: { latitude: 10, longitude: 2.35, altitude: 35, precision: 5 },
    });
    expect(second).to.deep.include({ number: 2, user_id: alice.id, user_name: alice.name, location: null });
    expect(second.changes).to.deep.equal([
      { field_uuid: form.fields.age!.uuid, type: 'integer', before: 37, after: 38 },
    ]);

    // The review history names its people too.
    const detail = await h.as(alice).get(url).expect(200);
    expect(detail.body.data.history.map((x: { user_name: string }) => x.user_name)).to.deep.equal([
      bob.name,
      alice.name,
    ]);
    // An edit that changes nothing is no version.
    await h
      .as(alice)
      .put(url)
      .send({ data: body(form, { age: 38, colour: 'blue' }).data })
      .expect(200);
    expect(await versionCount(s.id)).to.equal(2);
  });

  it('refuses an invalid edit with a problem naming the entry, and stores nothing', async () => {
    const s = await send();
    const url = urlOf(s.id);
    const bad = await h
      .as(erin)
      .put(url)
      .send({ data: body(form, { age: 500 }).data })
      .expect(422);
    expect(bad.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(bad.body).to.include({ status: 422, code: 'validation_failed' });
    expect(bad.body.errors['data.1.value'][0]).to.match(/age/);
    // Required fields hold for a sent submission, whoever edits it.
    const missing = await h
      .as(erin)
      .put(url)
      .send({ data: body(form, { full_name: null }).data })
      .expect(422);
    expect(Object.keys(missing.body.errors)).to.deep.equal(['data.0.value']);
    const detail = await h.as(alice).get(url).expect(200);
    expect(detail.body.data.data.map((e: { value: unknown }) => e.value)).to.deep.equal(['Ada', 36]);
    expect(await versionCount(s.id)).to.equal(0);
  });

  it('keeps a draft to its collector, and records no version of its edits', async () => {
    const d = await send({}, { status: 'draft' });
    const url = urlOf(d.id);
    await h
      .as(erin)
      .put(url)
      .send({ data: body(form, { age: 40 }).data })
      .expect(403);
    await h
      .as(bob)
      .put(url)
      .send({ data: body(form, { age: 40 }).data })
      .expect(200);
    await h.as(bob).put(url).send({ status: 'submitted' }).expect(200);
    expect(await versionCount(d.id)).to.equal(0);
  });

  it('lets a collector edit their sent submission only with allow_edits, each edit a version', async () => {
    const url = urlOf((await send()).id);
    // The collector of a submitted one needs allow_edits; then their edits are versions too.
    await h
      .as(bob)
      .put(url)
      .send({ data: body(form, { age: 41 }).data })
      .expect(403);
    await h
      .as(alice)
      .post(`/api/v1/projects/${form.projectId}/publish`)
      .send({ allow_edits: true })
      .expect(200);
    await h
      .as(bob)
      .put(url)
      .send({ data: body(form, { age: 41 }).data })
      .expect(200);
    await h
      .as(alice)
      .post(`/api/v1/projects/${form.projectId}/publish`)
      .send({ allow_edits: false })
      .expect(200);
    const list = await h.as(bob).get(`${url}/versions`).expect(200);
    expect(list.body.data).to.have.length(1);
    expect(list.body.data[0]).to.deep.include({ number: 1, user_id: bob.id, user_name: bob.name });
  });

  it('refuses a viewer editing a submission (403)', async () => {
    const url = urlOf((await send()).id);
    // A viewer may read but not edit.
    await h
      .as(dave)
      .put(url)
      .send({ data: body(form, { age: 42 }).data })
      .expect(403);
  });

  it('keeps a newer offline-sync item of a sent submission as a version by its collector', async () => {
    const item = (at: string, age: number) => ({
      local_id: 'versions-1',
      client_updated_at: at,
      ...body(form, { age }),
    });
    const sync = (at: string, age: number) =>
      h
        .as(bob)
        .post('/api/v1/sync')
        .send({ device_id: 'phone-versions', submissions: [item(at, age)] })
        .expect(200);
    const id = (await sync('2026-01-01T10:00:00Z', 30)).body.data.results[0].id as number;
    await h
      .as(alice)
      .post(`/api/v1/projects/${form.projectId}/publish`)
      .send({ allow_edits: true })
      .expect(200);
    const second = await sync('2026-01-01T11:00:00Z', 31);
    await h
      .as(alice)
      .post(`/api/v1/projects/${form.projectId}/publish`)
      .send({ allow_edits: false })
      .expect(200);
    expect(second.body.data.results[0].status).to.equal('updated');
    const list = await h
      .as(alice)
      .get(`${urlOf(id)}/versions`)
      .expect(200);
    expect(list.body.data).to.have.length(1);
    expect(list.body.data[0]).to.deep.include({ number: 1, user_id: bob.id, user_name: bob.name });
    expect(list.body.data[0].changes).to.deep.equal([
      { field_uuid: form.fields.age!.uuid, type: 'integer', before: 30, after: 31 },
    ]);
  });

  /** A new submission of bob's that erin edited once; resolves with its id and URL. */
  const editedOnce = async () => {
    const s = await send();
    const url = urlOf(s.id);
    await h
      .as(erin)
      .put(url)
      .send({ data: body(form, { age: 50 }).data })
      .expect(200);
    return { id: s.id, url };
  };

  it('shows versions only to those who may see the submission', async () => {
    const { url } = await editedOnce();
    await h.as(bob).get(`${url}/versions`).expect(200); // its collector
    await h.as(dave).get(`${url}/versions`).expect(200); // a viewer reads every submission
    await h.as(carol).get(`${url}/versions`).expect(404); // another collector
    await h.as(ivan).get(`${url}/versions`).expect(404); // not a member
    await h.anonymous().get(`${url}/versions`).expect(401);
    await h
      .as(alice)
      .get(`${urlOf(999999999)}/versions`)
      .expect(404);
  });

  it('refuses a page of versions over 100 (422 naming per_page)', async () => {
    const { url } = await editedOnce();
    const bad = await h.as(alice).get(`${url}/versions?per_page=101`).expect(422);
    expect(bad.body.errors).to.have.property('per_page');
  });

  it('deletes the versions of a submission with it', async () => {
    const { id, url } = await editedOnce();
    await h.as(erin).delete(url).expect(204);
    expect(await versionCount(id)).to.equal(0);
    await h.as(alice).get(`${url}/versions`).expect(404);
  });
});
