import { expect } from 'chai';
import { cast, publishForm, startHarness, type Harness } from './harness.ts';

/**
 * Issue 34: an analysis's `split_by` on a field inside a repeat. It splits the counts of a field
 * in the same repeat instance (or in a repeat inside it) by the split field's answer in that
 * instance; anywhere else a submission holds one split answer per instance, and the chart is
 * refused naming why. The form: `region` (select_one), a repeat `members` holding `sex`
 * (select_one), `smokes` (select_one) and a repeat `visits` holding `reason` (select_one).
 */
describe('collection: analyses split by a field inside a repeat (issue 34)', () => {
  // alice owns the workspace, bob collects.
  const { alice, bob } = cast;
  let h: Harness;
  let projectId: number;
  const uuid: Record<string, string> = {};
  const choice = (...values: string[]) => values.map((value) => ({ value, label: value }));
  const fields = [
    { name: 'region', label: 'Region', type: 'select_one', choices: choice('north', 'south') },
    { name: 'members', label: 'Members', type: 'repeat' },
    { name: 'sex', label: 'Sex', type: 'select_one', parent: 'members', choices: choice('female', 'male') },
    { name: 'smokes', label: 'Smokes', type: 'select_one', parent: 'members', choices: choice('yes', 'no') },
    { name: 'visits', label: 'Visits', type: 'repeat', parent: 'members' },
    {
      name: 'reason',
      label: 'Reason',
      type: 'select_one',
      parent: 'visits',
      choices: choice('health', 'school'),
    },
  ];
  const e = (name: string, value: unknown) => ({
    field_uuid: uuid[name]!,
    type: fields.find((f) => f.name === name)!.type,
    value,
  });
  /** The rows of a new analysis's only chart, or the 422 of its creation. */
  const chart = async (def: object, status = 201) => {
    const a = await h
      .as(alice)
      .post(`/api/v1/projects/${projectId}/analyses`)
      .send({ name: 'A', charts: [{ title: 'C', ...def }] });
    expect(a.status, JSON.stringify(a.body)).to.equal(status);
    if (status !== 201) return a.body as { errors: Record<string, string[]> };
    const charts = await h.as(alice).get(`/api/v1/analyses/${a.body.data.id}/charts`).expect(200);
    return charts.body.data[0].data as Array<{ value: string; split: string | null; count: number }>;
  };

  before(async () => {
    h = await startHarness();
    const form = await publishForm(h, alice, fields, {
      names: { workspace: 'W', project: 'P' },
      members: [[bob, 'collector']],
    });
    projectId = form.projectId;
    const versionId = form.versionId;
    for (const [name, f] of Object.entries(form.fields)) uuid[name] = f.uuid;
    const send = (data: unknown[]) =>
      h
        .as(bob)
        .post(`/api/v1/projects/${projectId}/submissions`)
        .send({ form_version_id: versionId, data })
        .expect(201);
    await send([
      e('region', 'north'),
      e('members', [
        [
          e('sex', 'female'),
          e('smokes', 'no'),
          e('visits', [[e('reason', 'health')], [e('reason', 'school')]]),
        ],
        [e('sex', 'male'), e('smokes', 'yes'), e('visits', [[e('reason', 'health')]])],
        [e('sex', 'female'), e('smokes', 'yes')],
      ]),
    ]);
    await send([e('region', 'south'), e('members', [[e('sex', 'male'), e('smokes', 'yes')]])]);
  });
  after(async () => {
    await h?.close();
  });

  it('splits the answers of a repeat field by another field of the same instance', async () => {
    const rows = await chart({ kind: 'choice_counts', field: 'smokes', split_by: 'sex' });
    expect(rows).to.deep.equal([
      { value: 'no', split: 'female', count: 1 },
      { value: 'yes', split: 'female', count: 1 },
      { value: 'yes', split: 'male', count: 2 },
    ]);
  });

  it('splits the answers of a nested repeat by a field of the instance that holds them', async () => {
    const rows = await chart({ kind: 'choice_counts', field: 'reason', split_by: 'sex' });
    expect(rows).to.deep.equal([
      { value: 'health', split: 'female', count: 1 },
      { value: 'health', split: 'male', count: 1 },
      { value: 'school', split: 'female', count: 1 },
    ]);
  });

  it('splits the answers of a repeat field by a top-level field of their submission', async () => {
    const rows = await chart({ kind: 'choice_counts', field: 'smokes', split_by: 'region' });
    expect(rows).to.deep.equal([
      { value: 'no', split: 'north', count: 1 },
      { value: 'yes', split: 'north', count: 2 },
      { value: 'yes', split: 'south', count: 1 },
    ]);
  });

  it('refuses to split a top-level field by a field inside a repeat, naming the repeat (422)', async () => {
    const r = (await chart({ kind: 'choice_counts', field: 'region', split_by: 'sex' }, 422)) as {
      errors: Record<string, string[]>;
    };
    expect(r.errors['charts.0.split_by']![0]).to.contain(
      'inside the repeat members, which does not hold region',
    );
  });

  it('refuses to split a field of an outer repeat by a field of a repeat inside it (422)', async () => {
    const r = (await chart({ kind: 'choice_counts', field: 'smokes', split_by: 'reason' }, 422)) as {
      errors: Record<string, string[]>;
    };
    expect(r.errors['charts.0.split_by']![0]).to.contain('inside the repeat visits');
  });

  it('refuses to split submissions over time by a field inside a repeat (422)', async () => {
    const r = (await chart({ kind: 'over_time', split_by: 'sex' }, 422)) as {
      errors: Record<string, string[]>;
    };
    expect(r.errors['charts.0.split_by']![0]).to.contain('cannot split a count of submissions');
  });
});
