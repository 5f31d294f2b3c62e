import { expect } from 'chai';
import {
  addMember,
  body,
  cast,
  makeForm,
  startHarness,
  type Form,
  type Harness,
  type TestUser,
} from './harness.ts';

describe('collection: analyses and charts', () => {
  // alice owns the workspace, bob and carol collect, dave views, ivan is a stranger to it.
  const { alice, bob, carol, dave, ivan } = cast;
  let h: Harness;
  let form: Form;
  before(async () => {
    h = await startHarness();
    form = await makeForm(h, alice);
    await addMember(h, alice, form.workspaceId, bob, 'collector');
    await addMember(h, alice, form.workspaceId, carol, 'collector');
    await addMember(h, alice, form.workspaceId, dave, 'viewer');
    const post = async (user: TestUser, extra: Record<string, unknown>, at: string, top: object = {}) => {
      const r = await h
        .as(user)
        .post(`/api/v1/projects/${form.projectId}/submissions`)
        .send(body(form, extra, top))
        .expect(201);
      await h.db('submissions').where({ id: r.body.data.id }).update({ created_at: at });
    };
    await post(
      bob,
      { age: 10, colour: 'red', fruits: ['apple', 'kiwi'], place: [10, 20] },
      '2025-03-01T08:00:00Z',
    );
    await post(bob, { age: 20, colour: 'blue', fruits: ['apple'], place: [30, 40] }, '2025-03-01T09:00:00Z');
    await post(carol, { age: 30, colour: 'red', fruits: [] }, '2025-03-02T10:00:00Z', { status: 'draft' });
    await post(carol, { age: 40 }, '2025-03-03T23:59:59Z');
  });
  after(async () => {
    await h?.close();
  });

  const create = (payload: object, user = alice) =>
    h.as(user).post(`/api/v1/projects/${form.projectId}/analyses`).send(payload);

  it('computes every chart kind in SQL, matching hand-computed aggregates, with Vega-Lite and SVG', async () => {
    const a = await create({
      name: 'Overview',
      charts: [
        { title: 'Colours', kind: 'choice_counts', field: 'colour' },
        { title: 'Fruits', kind: 'choice_counts', field: 'fruits' },
        { title: 'Fruits by colour', kind: 'choice_counts', field: 'fruits', split_by: 'colour' },
        { title: 'Ages', kind: 'histogram', field: 'age', bins: 3 },
        { title: 'Per day', kind: 'over_time' },
        { title: 'Places', kind: 'map', field: 'place' },
        { title: 'Statuses', kind: 'status' },
      ],
    }).expect(201);
    const id = a.body.data.id as number;
    const res = await h.as(dave).get(`/api/v1/analyses/${id}/charts`).expect(200);
    const data = (res.body.data as Array<{ data: unknown[] }>).map((c) => c.data);
    expect(data[0]).to.deep.equal([
      { value: 'blue', count: 1 },
      { value: 'red', count: 2 },
    ]);
    expect(data[1]).to.deep.equal([
      { value: 'apple', count: 2 },
      { value: 'kiwi', count: 1 },
    ]);
    expect(data[2]).to.deep.equal([
      { value: 'apple', split: 'blue', count: 1 },
      { value: 'apple', split: 'red', count: 1 },
      { value: 'kiwi', split: 'red', count: 1 },
    ]);
    expect(data[3]).to.deep.equal([
      { bin: 1, from: 10, to: 20, count: 1 },
      { bin: 2, from: 20, to: 30, count: 1 },
      { bin: 3, from: 30, to: 40, count: 2 },
    ]);
    expect(data[4]).to.deep.equal([
      { day: '2025-03-01', count: 2 },
      { day: '2025-03-02', count: 1 },
      { day: '2025-03-03', count: 1 },
    ]);
    expect(
      (data[5] as Array<{ latitude: number; longitude: number }>).map((p) => [p.latitude, p.longitude]),
    ).to.deep.equal([
      [30, 40],
      [10, 20],
    ]);
    expect(data[6]).to.deep.equal([
      { status: 'draft', count: 1 },
      { status: 'submitted', count: 3 },
    ]);
    const first = res.body.data[0];
    expect(first.vega_lite).to.include({ mark: 'bar', title: 'Colours' });
    expect(first.vega_lite.data.values).to.deep.equal(data[0]);
    const svg = await h
      .as(dave)
      .get(first.svg_url)
      .buffer(true)
      .parse((r, cb) => {
        let t = '';
        r.on('data', (c: Buffer) => (t += c.toString('utf8')));
        r.on('end', () => cb(null, t));
      });
    expect(svg.status).to.equal(200);
    expect(svg.headers['content-type']).to.match(/^image\/svg\+xml/);
    expect(svg.body as string).to.match(/^<svg[^>]*>/);
    expect(svg.body as string).to.contain('Colours');
    // Counts of 1 to 3 on whole-number ticks (no 0.5, 1.5...), in the specification and its SVG.
    expect(first.vega_lite.encoding.y.axis).to.deep.equal({ tickMinStep: 1, format: 'd' });
    expect(svg.body as string).not.to.match(/>\d+\.\d+<\/text>/);
    for (const c of res.body.data) await h.as(dave).get(c.svg_url).expect(200);
    await h.as(dave).get(`/api/v1/analyses/${id}/charts/99.svg`).expect(404);
  });

  it('applies the list filters of the analysis', async () => {
    const a = await create({
      name: 'Collector Bob, March 1st',
      filters: { collector_id: bob.id, date_from: '2025-03-01', date_to: '2025-03-01' },
      charts: [{ title: 'Statuses', kind: 'status' }],
    }).expect(201);
    const res = await h.as(alice).get(`/api/v1/analyses/${a.body.data.id}/charts`).expect(200);
    expect(res.body.data[0].data).to.deep.equal([{ status: 'submitted', count: 2 }]);
  });

  /** A new analysis of the project (one status chart), by alice; resolves with its id. */
  const statusAnalysis = async (name: string) =>
    (await create({ name, charts: [{ title: 'S', kind: 'status' }] }).expect(201)).body.data.id as number;

  it('shows a viewer the analyses of the project, listed and one by one', async () => {
    const id = await statusAnalysis('Shown');
    const list = await h.as(dave).get(`/api/v1/projects/${form.projectId}/analyses`).expect(200);
    expect(list.body.data.map((x: { id: number }) => x.id)).to.include(id);
    expect(list.body.pagination.total).to.be.at.least(1);
    expect((await h.as(dave).get(`/api/v1/analyses/${id}`).expect(200)).body.data).to.include({
      name: 'Shown',
    });
  });

  it('refuses an analysis to a collector (403) and to a stranger to the workspace (404)', async () => {
    const id = await statusAnalysis('Hidden');
    await h.as(bob).get(`/api/v1/analyses/${id}`).expect(403);
    await h.as(ivan).get(`/api/v1/analyses/${id}`).expect(404);
  });

  it('refuses a viewer creating or deleting an analysis (403)', async () => {
    const id = await statusAnalysis('Kept');
    await h.as(dave).delete(`/api/v1/analyses/${id}`).expect(403);
    await create({ name: 'x', charts: [{ title: 'S', kind: 'status' }] }, dave).expect(403);
  });

  it('lets the owner delete an analysis, which then answers 404', async () => {
    const id = await statusAnalysis('To delete');
    await h.as(alice).delete(`/api/v1/analyses/${id}`).expect(204);
    await h.as(alice).get(`/api/v1/analyses/${id}`).expect(404);
  });

  it('refuses an analysis whose charts or filters are not valid (422, every error named)', async () => {
    const res = await create({
      name: 'Bad',
      charts: [
        { title: 'a', kind: 'histogram', field: 'full_name' },
        { title: 'b', kind: 'choice_counts' },
        { title: 'c', kind: 'status', field: 'age' },
        { title: 'd', kind: 'over_time', split_by: 'fruits' },
        { title: 'e', kind: 'map', field: 'nowhere' },
        { title: 'f', kind: 'pie' },
      ],
    }).expect(422);
    expect(res.body.errors).to.have.property('charts.5.kind');
    const res2 = await create({
      name: 'Bad',
      charts: [
        { title: 'a', kind: 'histogram', field: 'full_name' },
        { title: 'b', kind: 'choice_counts' },
        { title: 'c', kind: 'status', field: 'age' },
        { title: 'd', kind: 'over_time', split_by: 'fruits' },
        { title: 'e', kind: 'map', field: 'nowhere' },
      ],
    }).expect(422);
    expect(res2.body.errors).to.have.keys(
      'charts.0.field',
      'charts.1.field',
      'charts.2.field',
      'charts.3.split_by',
      'charts.4.field',
    );
    await create({ name: 'Bad', charts: [{ title: 'S', kind: 'status' }], filters: { status: 'x' } }).expect(
      422,
    );
  });
});
