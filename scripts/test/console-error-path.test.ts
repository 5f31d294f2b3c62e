import { expect } from 'chai';
import { errorPathOfKey } from '../../console/src/pages/collect/answers.ts';
import type { DataEntry } from '../../console/src/pages/collect/answers.ts';
import { cast, publishForm, startHarness, type Harness } from '../../services/collection/test/harness.ts';

/**
 * Issue 34: the web form shows a refusal under the field it is about, in its repeat instance. The
 * keys come from the real collection service (its `errors` of a 422), and the console's
 * errorPathOfKey must turn each into the path the form keys its messages by
 * (`<repeat uuid>.<instance>.<field uuid>`, docs/collection.md, "Error keys"). The form: `site`
 * (text, required) and a repeat `members` of at most 2 instances holding `member_name` (required)
 * and `age` (integer, constraint `. <= 120`).
 */
describe('console: a service refusal lands under its field, in its repeat instance (issue 34)', () => {
  const { alice, bob } = cast;
  let h: Harness;
  let projectId: number;
  let versionId: number;
  const uuid: Record<string, string> = {};
  const fields = [
    { name: 'site', label: 'Site', type: 'text', required: true },
    { name: 'members', label: 'Members', type: 'repeat', max_repeats: 2 },
    { name: 'member_name', label: 'Name', type: 'text', parent: 'members', required: true },
    { name: 'age', label: 'Age', type: 'integer', parent: 'members', constraint: '. <= 120' },
  ];
  const e = (name: string, value: unknown): DataEntry =>
    ({ field_uuid: uuid[name]!, type: fields.find((f) => f.name === name)!.type, value }) as DataEntry;
  /** The 422's `errors` for `data`, each key mapped by errorPathOfKey (undefined: no entry named). */
  const refusedAt = async (data: DataEntry[]) => {
    const r = await h
      .as(bob)
      .post(`/api/v1/projects/${projectId}/submissions`)
      .send({ form_version_id: versionId, data });
    expect(r.status, JSON.stringify(r.body)).to.equal(422);
    const errors = r.body.errors as Record<string, unknown>;
    return Object.keys(errors).map((key) => ({ key, path: errorPathOfKey(key, data) }));
  };

  before(async () => {
    h = await startHarness();
    const form = await publishForm(h, alice, fields, {
      names: { workspace: 'Census', project: 'Households' },
      members: [[bob, 'collector']],
    });
    projectId = form.projectId;
    versionId = form.versionId;
    for (const [name, f] of Object.entries(form.fields)) uuid[name] = f.uuid;
  });
  after(async () => {
    await h?.close();
  });

  it('a constraint broken in the second instance: the path names the repeat, instance 1 and the field', async () => {
    const got = await refusedAt([
      e('site', 'North'),
      e('members', [
        [e('member_name', 'Ada'), e('age', 36)],
        [e('member_name', 'Old'), e('age', 200)],
      ]),
    ]);
    expect(got).to.deep.equal([{ key: 'data.1.value.1.1.value', path: `${uuid.members}.1.${uuid.age}` }]);
  });

  it('a required answer missing inside an instance: the path ends with the field it names', async () => {
    const got = await refusedAt([e('site', 'North'), e('members', [[e('age', 4)]])]);
    expect(got).to.deep.equal([{ key: 'data.1.value.0.member_name', path: `${uuid.members}.0.member_name` }]);
  });

  it('too many instances points at the repeat; a top-level refusal at its entry; a missing top-level answer at none', async () => {
    const three = [[e('member_name', 'A')], [e('member_name', 'B')], [e('member_name', 'C')]];
    const tooMany = await refusedAt([e('site', 'North'), e('members', three)]);
    expect(tooMany.map((x) => x.path)).to.deep.equal([uuid.members]);
    const badSite = await refusedAt([e('site', 42), e('members', [[e('member_name', 'A')]])]);
    expect(badSite).to.deep.equal([{ key: 'data.0.value', path: uuid.site }]);
    const noSite = await refusedAt([e('members', [[e('member_name', 'A')]])]);
    expect(noSite).to.deep.equal([{ key: 'data.site', path: undefined }]);
  });
});
