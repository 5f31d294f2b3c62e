import { expect } from 'chai';
import { startStack, type TestStack } from './support/stack.ts';
import { gatewayClient, registerUser } from './support/users.ts';

describe('forms with logic through the gateway (issue 34)', () => {
  let stack: TestStack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack?.stop();
  });

  it('collects a bilingual household survey: repeats per member, skip logic, a calculated total, French messages', async () => {
    // alice writes the form, bob collects.
    const alice = await registerUser(stack.gatewayUrl, 'Alice Owner');
    const bob = await registerUser(stack.gatewayUrl, 'Bob Collector');
    const api = (token?: string) => gatewayClient(stack.gatewayUrl, token);
    const o = api(alice.token);
    const c = api(bob.token);
    const ws = (await o.post('/api/v1/workspaces').send({ name: 'Census' }).expect(201)).body.data
      .id as number;
    await c.get('/api/v1/workspaces').expect(200);
    await o
      .post(`/api/v1/workspaces/${ws}/members`)
      .send({ email: bob.email, role: 'collector' })
      .expect(201);
    const project = (
      await o.post(`/api/v1/workspaces/${ws}/projects`).send({ name: 'Households' }).expect(201)
    ).body.data.id as number;
    const version = (
      await o
        .post(`/api/v1/projects/${project}/versions`)
        .send({ languages: ['en', 'fr'] })
        .expect(201)
    ).body.data.id as number;
    const fields: Record<string, { uuid: string; type: string }> = {};
    const add = async (field: Record<string, unknown>) => {
      const r = await o.post(`/api/v1/versions/${version}/fields`).send(field).expect(201);
      fields[field.name as string] = { uuid: r.body.data.uuid, type: r.body.data.type };
      return r.body.data;
    };
    await add({
      name: 'hh_size',
      type: 'integer',
      label: { en: 'People in the household', fr: 'Personnes dans le ménage' },
      required: true,
      constraint: '. >= 1 and . <= 20',
      constraint_message: { en: 'Between 1 and 20', fr: 'Entre 1 et 20' },
    });
    await add({ name: 'member', type: 'repeat', label: 'Member', repeat_count: '${hh_size}' });
    await add({ name: 'age', type: 'integer', label: 'Age', parent: 'member', required: true });
    await add({
      name: 'sex',
      type: 'select_one',
      label: 'Sex',
      parent: 'member',
      choices: [
        { value: 'female', label: { en: 'Female', fr: 'Femme' } },
        { value: 'male', label: { en: 'Male', fr: 'Homme' } },
      ],
    });
    await add({
      name: 'pregnant',
      type: 'select_one',
      label: 'Pregnant?',
      parent: 'member',
      relevant: "${sex} = 'female' and ${age} >= 15 and ${age} <= 49",
      choices: [
        { value: 'yes', label: 'Yes' },
        { value: 'no', label: 'No' },
      ],
    });
    await add({ name: 'total_age', type: 'calculate', label: 'Total age', calculation: 'sum(${age})' });
    // a reference to a field that does not exist is refused when saved, naming it
    const typo = await o
      .post(`/api/v1/versions/${version}/fields`)
      .send({ name: 'note1', type: 'note', label: 'N', relevant: '${agee} > 1' })
      .expect(422);
    expect(typo.body.code).to.equal('expression_invalid');
    expect(typo.body.errors.relevant[0]).to.contain('agee');
    await o.post(`/api/v1/versions/${version}/publish`).expect(200);
    await o.post(`/api/v1/projects/${project}/publish`).send({}).expect(200);

    const e = (name: string, value: unknown) => ({
      field_uuid: fields[name]!.uuid,
      type: fields[name]!.type,
      value,
    });
    const household = (size: number) => [
      e('hh_size', size),
      e('member', [
        [e('age', 30), e('sex', 'female'), e('pregnant', 'no')],
        [e('age', 8), e('sex', 'male')],
      ]),
      e('total_age', '0'),
    ];
    const refused = await c
      .post(`/api/v1/projects/${project}/submissions`)
      .set('Accept-Language', 'fr')
      .send({ form_version_id: version, data: household(25) })
      .expect(422);
    expect(refused.body.errors['data.0.value']).to.deep.equal(['Entre 1 et 20']);
    const created = await c
      .post(`/api/v1/projects/${project}/submissions`)
      .send({ form_version_id: version, data: household(2) })
      .expect(201);
    const stored = (
      await c.get(`/api/v1/projects/${project}/submissions/${created.body.data.id}`).expect(200)
    ).body.data.data as Array<{ field_uuid: string; value: unknown }>;
    expect(stored.find((x) => x.field_uuid === fields.total_age!.uuid)?.value).to.equal('38');
    expect(stored.find((x) => x.field_uuid === fields.member!.uuid)?.value).to.have.length(2);
  });
});
