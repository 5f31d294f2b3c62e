import { expect } from 'chai';
import { addMember, body, cast, makeForm, PNG, startHarness, type Form, type Harness } from './harness.ts';

describe('collection: offline synchronisation (POST /sync)', () => {
  // alice owns the workspace, bob collects on his phone, dave views.
  const { alice, bob, dave } = cast;
  let h: Harness;
  let form: Form;
  before(async () => {
    h = await startHarness();
    form = await makeForm(h, alice, { allow_edits: true });
    await addMember(h, alice, form.workspaceId, bob, 'collector');
    await addMember(h, alice, form.workspaceId, dave, 'viewer');
  });
  after(async () => {
    await h?.close();
  });

  /** One sync item for `form` (required fields, name `name`). */
  const item = (localId: string, at: string, name = 'Ada', extra: Record<string, unknown> = {}) => {
    const b = body(form, { full_name: name, ...extra });
    return { local_id: localId, client_updated_at: at, ...b };
  };
  const sync = (submissions: unknown[], device = 'phone-1', user = bob) =>
    h.as(user).post('/api/v1/sync').send({ device_id: device, submissions });
  const count = async () => Number((await h.db('submissions').count({ n: '*' }))[0]!.n);

  it('creates each item of a device once: a replayed batch creates nothing and answers unchanged', async () => {
    const batch = [item('a1', '2026-01-01T10:00:00.000Z'), item('a2', '2026-01-01T10:01:00Z', 'Bob')];
    const before = await count();
    const first = await sync(batch).expect(200);
    expect(first.body.data.server_time).to.match(/^\d{4}-\d\d-\d\dT.*Z$/);
    expect(first.body.data.results.map((r: { status: string }) => r.status)).to.deep.equal([
      'created',
      'created',
    ]);
    expect(await count()).to.equal(before + 2);
    const ids = first.body.data.results.map((r: { id: number }) => r.id);
    const stored = await h
      .as(bob)
      .get(`/api/v1/projects/${form.projectId}/submissions/${ids[1]}`)
      .expect(200);
    expect(stored.body.data.data[0].value).to.equal('Bob');
    expect(stored.body.data.collector_id).to.equal(bob.id);

    const replay = await sync(batch).expect(200);
    expect(replay.body.data.results).to.deep.equal([
      { local_id: 'a1', id: ids[0], status: 'unchanged', client_updated_at: '2026-01-01T10:00:00.000Z' },
      { local_id: 'a2', id: ids[1], status: 'unchanged', client_updated_at: '2026-01-01T10:01:00.000Z' },
    ]);
    expect(await count()).to.equal(before + 2);
    // Another device with the same local ids is another item.
    const other = await sync(batch, 'phone-2').expect(200);
    expect(other.body.data.results.map((r: { status: string }) => r.status)).to.deep.equal([
      'created',
      'created',
    ]);
  });

  it('applies an item newer than the stored submission', async () => {
    const created = await sync([item('c1', '2026-02-01T12:00:00Z', 'First')]).expect(200);
    const id = created.body.data.results[0].id as number;
    const newer = await sync([item('c1', '2026-02-01T13:00:00Z', 'Second')]).expect(200);
    expect(newer.body.data.results[0]).to.include({ id, status: 'updated' });
  });

  it('answers an item older than the stored submission with conflict and the server version', async () => {
    const created = await sync([item('c2', '2026-02-01T12:00:00Z', 'First')]).expect(200);
    const id = created.body.data.results[0].id as number;
    await sync([item('c2', '2026-02-01T13:00:00Z', 'Second')]).expect(200);
    const older = await sync([item('c2', '2026-02-01T12:30:00Z', 'Stale')]).expect(200);
    const r = older.body.data.results[0];
    expect(r).to.include({ id, status: 'conflict', client_updated_at: '2026-02-01T13:00:00.000Z' });
    expect(r.server.data[0].value).to.equal('Second');
    const stored = await h.as(bob).get(`/api/v1/projects/${form.projectId}/submissions/${id}`).expect(200);
    expect(stored.body.data.data[0].value).to.equal('Second');
  });

  it('resubmits a submission sent back for correction when a newer item says submitted, as PUT would', async () => {
    const created = await sync([item('r1', '2026-04-01T08:00:00Z', 'Draft answer')]).expect(200);
    const id = created.body.data.results[0].id as number;
    const url = `/api/v1/projects/${form.projectId}/submissions/${id}`;
    await h.as(alice).put(url).send({ status: 'requires_correction', comment: 'fix the name' }).expect(200);
    const fixed = await sync([item('r1', '2026-04-01T09:00:00Z', 'Fixed answer')]).expect(200);
    expect(fixed.body.data.results[0]).to.include({ id, status: 'updated' });
    const stored = await h.as(bob).get(url).expect(200);
    expect(stored.body.data).to.include({ status: 'submitted' });
    expect(stored.body.data.data[0].value).to.equal('Fixed answer');
    expect(
      stored.body.data.history.map((e: { to_status: string; user_id: number; comment: string | null }) => [
        e.to_status,
        e.user_id,
        e.comment,
      ]),
    ).to.deep.equal([
      ['submitted', bob.id, null],
      ['requires_correction', alice.id, 'fix the name'],
      ['submitted', bob.id, null],
    ]);
  });

  it('keeps a photo of a newer item as the server stored it, whatever url, content_type or size the item says (issue 31)', async () => {
    const created = await sync([
      item('p1', '2026-06-01T08:00:00Z', 'Pic', { picture: PNG.toString('base64') }),
    ]).expect(200);
    const id = created.body.data.results[0].id as number;
    const url = `/api/v1/projects/${form.projectId}/submissions/${id}`;
    const at = body(form, { picture: null }).data.findIndex((e) => e.type === 'photo');
    const stored = (await h.as(bob).get(url).expect(200)).body.data.data[at].value as Record<string, unknown>;
    expect(stored).to.include({
      content_type: 'image/png',
      size: PNG.length,
      url: `/api/v1/photos/${stored.photo_id}`,
    });
    const phish = {
      photo_id: stored.photo_id,
      url: 'http://127.0.0.1:18999/phish-login',
      content_type: 'text/html',
      size: -1,
    };
    const newer = await sync([item('p1', '2026-06-01T09:00:00Z', 'Pic 2', { picture: phish })]).expect(200);
    expect(newer.body.data.results[0]).to.include({ id, status: 'updated' });
    const read = (await h.as(alice).get(url).expect(200)).body.data.data;
    expect(read[0].value).to.equal('Pic 2');
    expect(read[at].value).to.deep.equal(stored);
    // A new item cannot name a stored photo: it has none to keep.
    const fresh = await sync([item('p2', '2026-06-01T09:00:00Z', 'Pic', { picture: phish })]).expect(200);
    expect(fresh.body.data.results[0]).to.include({ status: 'rejected', code: 'validation_failed' });
    expect(fresh.body.data.results[0].errors).to.have.property(`data.${at}.value`);
  });

  it('refuses an update when the project does not allow edits of submitted data', async () => {
    const f = await makeForm(h, alice, {});
    await addMember(h, alice, f.workspaceId, bob, 'collector');
    const mk = (at: string, name: string) => ({
      local_id: 'e1',
      client_updated_at: at,
      ...body(f, { full_name: name }),
    });
    const first = await sync([mk('2026-03-01T00:00:00Z', 'One')]).expect(200);
    expect(first.body.data.results[0].status).to.equal('created');
    const second = await sync([mk('2026-03-02T00:00:00Z', 'Two')]).expect(200);
    expect(second.body.data.results[0]).to.include({ status: 'rejected', code: 'edits_not_allowed' });
  });

  it('reports each bad item on its own while the good ones are stored', async () => {
    const before = await count();
    const res = await sync([
      item('g1', '2026-04-01T00:00:00Z'),
      item('b1', '2026-04-01T00:00:00Z', 'x'.repeat(30)),
      { local_id: 'b2', data: [] },
      'not an object',
      { ...item('b3', '2026-04-01T00:00:00Z'), form_version_id: 999999 },
      { ...item('b4', '2026-04-01T00:00:00Z'), client_updated_at: 'yesterday' },
      item('g2', '2026-04-01T00:00:00Z', 'Eve', { age: 40 }),
    ]).expect(200);
    const results = res.body.data.results as Array<{
      local_id: string;
      status: string;
      errors?: object;
      code?: string;
    }>;
    expect(results.map((r) => [r.local_id, r.status])).to.deep.equal([
      ['g1', 'created'],
      ['b1', 'rejected'],
      ['b2', 'rejected'],
      [null, 'rejected'],
      ['b3', 'rejected'],
      ['b4', 'rejected'],
      ['g2', 'created'],
    ]);
    expect(results[1]!.errors).to.have.property('data.0.value');
    expect(results[2]!.errors).to.include.keys('form_version_id', 'client_updated_at');
    expect(results[4]!.code).to.equal('unknown_form_version');
    expect(results[5]!.errors).to.have.property('client_updated_at');
    expect(await count()).to.equal(before + 2);
  });

  it("refuses a viewer's items: a viewer may not submit", async () => {
    const viewer = await sync([item('v1', '2026-05-01T00:00:00Z')], 'tablet', dave).expect(200);
    expect(viewer.body.data.results[0].status).to.equal('rejected');
    expect(viewer.body.data.results[0].message).to.match(/\(viewer\) may not submit/);
  });

  it('refuses the items of a project that is not published', async () => {
    await h.as(alice).post(`/api/v1/projects/${form.projectId}/unpublish`).send({}).expect(200);
    const unpublished = await sync([item('u0', '2026-05-01T00:00:00Z')]).expect(200);
    expect(unpublished.body.data.results[0]).to.include({
      status: 'rejected',
      code: 'project_not_published',
    });
    const f2 = await makeForm(h, alice, null);
    await addMember(h, alice, f2.workspaceId, bob, 'collector');
    const res = await sync([
      { local_id: 'u1', client_updated_at: '2026-05-01T00:00:00Z', ...body(f2) },
    ]).expect(200);
    expect(res.body.data.results[0]).to.include({ status: 'rejected', code: 'project_not_published' });
  });

  it('refuses a batch of more than 500 items (413)', async () => {
    const many = Array.from({ length: 501 }, (_, i) => ({ local_id: `m${i}` }));
    const big = await sync(many).expect(413);
    expect(big.body).to.include({ code: 'sync_batch_too_large', max_items: 500 });
  });

  it('refuses an envelope without a device_id or a submissions array (422)', async () => {
    expect(
      (await h.as(bob).post('/api/v1/sync').send({ submissions: [] }).expect(422)).body.errors,
    ).to.have.property('device_id');
    await h.as(bob).post('/api/v1/sync').send({ device_id: 'x', submissions: 'no' }).expect(422);
  });

  it('answers an anonymous caller 401', async () => {
    await h.anonymous().post('/api/v1/sync').send({ device_id: 'x', submissions: [] }).expect(401);
  });

  it('answers an empty batch with no results', async () => {
    const empty = await sync([]).expect(200);
    expect(empty.body.data.results).to.deep.equal([]);
  });
});
