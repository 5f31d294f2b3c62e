import { expect } from 'chai';
import { parseInstance } from '@fieldhouse/collection';
import { loadOdkEngine, type OdkClient, type OdkForm } from './support/odk-client.ts';
import { startStack, type TestStack } from './support/stack.ts';
import { gatewayClient, registerUser } from './support/users.ts';

/** The validation state of a value node as the engine reports it. */
interface Validity {
  validationState: {
    constraint: { valid: boolean; message: { asString: string } | null };
  };
}

describe('XForms: ODK’s own engine fills a Fieldhouse form as the web form does (issue 35)', () => {
  let stack: TestStack;
  let odk: OdkClient;
  before(async () => {
    stack = await startStack();
    odk = await loadOdkEngine();
  });
  after(async () => {
    await stack?.stop();
  });

  it('loads the XForm fetched through the gateway: skip logic, a constraint, two languages, a group, a repeat of two, a calculation; its instance reads into the data the JSON API stores', async () => {
    const alice = await registerUser(stack.gatewayUrl, 'Alice Owner');
    const o = gatewayClient(stack.gatewayUrl, alice.token);
    const ws = (await o.post('/api/v1/workspaces').send({ name: 'Census' }).expect(201)).body.data
      .id as number;
    const project = (
      await o.post(`/api/v1/workspaces/${ws}/projects`).send({ name: 'Households' }).expect(201)
    ).body.data.id as number;
    const version = (
      await o
        .post(`/api/v1/projects/${project}/versions`)
        .send({ languages: ['en', 'fr'], default_language: 'en' })
        .expect(201)
    ).body.data.id as number;
    const fields: Record<string, { uuid: string; type: string }> = {};
    for (const field of [
      {
        name: 'age',
        type: 'integer',
        label: { en: 'Your age', fr: 'Votre âge' },
        required: true,
        constraint: '. >= 15',
        constraint_message: { en: 'At least 15', fr: 'Au moins 15 ans' },
      },
      {
        name: 'pregnant',
        type: 'select_one',
        label: { en: 'Pregnant?', fr: 'Enceinte ?' },
        relevant: '${age} <= 49',
        choices: [
          { value: 'yes', label: { en: 'Yes', fr: 'Oui' } },
          { value: 'no', label: { en: 'No', fr: 'Non' } },
        ],
      },
      { name: 'home', type: 'group', label: { en: 'Home', fr: 'Foyer' }, appearance: 'field-list' },
      { name: 'village', type: 'text', label: 'Village', parent: 'home' },
      { name: 'member', type: 'repeat', label: { en: 'Member', fr: 'Membre' } },
      { name: 'm_name', type: 'text', label: { en: 'Name', fr: 'Nom' }, parent: 'member', required: true },
      { name: 'm_age', type: 'integer', label: { en: 'Age', fr: 'Âge' }, parent: 'member' },
      { name: 'total', type: 'calculate', label: 'Total age', calculation: 'sum(${m_age})' },
    ]) {
      const r = await o.post(`/api/v1/versions/${version}/fields`).send(field);
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
      fields[field.name] = { uuid: r.body.data.uuid, type: r.body.data.type };
    }
    await o.post(`/api/v1/versions/${version}/publish`).expect(200);
    await o.post(`/api/v1/projects/${project}/publish`).send({}).expect(200);

    const xform = await o.get(`/api/v1/versions/${version}/xform`).expect(200);
    expect(xform.headers['content-type']).to.equal('application/xml; charset=utf-8');
    const form: OdkForm = await odk.createForm(xform.text);
    const node = (ref: string) => {
      const n = odk.find(form, ref);
      if (!n) throw new Error(`no node ${ref}`);
      return n;
    };
    expect(form.languages.map((l) => l.language)).to.deep.equal(['English (en)', 'French (fr)']);
    expect(node('/data/age').currentState.label?.asString).to.equal('Your age');

    // the constraint fails, with the form's message in each language, then holds
    odk.answer(form, '/data/age', 12);
    const age = node('/data/age') as unknown as Validity;
    expect(age.validationState.constraint.valid).to.equal(false);
    expect(age.validationState.constraint.message?.asString).to.equal('At least 15');
    odk.setLanguage(form, 'French (fr)');
    expect(node('/data/age').currentState.label?.asString).to.equal('Votre âge');
    expect(age.validationState.constraint.message?.asString).to.equal('Au moins 15 ans');
    odk.setLanguage(form, 'English (en)');
    odk.answer(form, '/data/age', 30);
    expect(age.validationState.constraint.valid).to.equal(true);
    expect(node('/data/pregnant').currentState.relevant).to.equal(true);
    // relevance hides the question
    odk.answer(form, '/data/age', 60);
    expect(node('/data/pregnant').currentState.relevant).to.equal(false);

    odk.answer(form, '/data/home/village', 'Kolda');
    odk.addRepeat(form, '/data/member');
    odk.addRepeat(form, '/data/member');
    odk.answer(form, '/data/member[1]/m_name', 'Awa');
    odk.answer(form, '/data/member[1]/m_age', 34);
    odk.answer(form, '/data/member[2]/m_name', 'Musa');
    odk.answer(form, '/data/member[2]/m_age', 8);
    expect(node('/data/total').currentState.value).to.equal('42');

    const xml = await odk.instanceXml(form);
    const v = (await o.get(`/api/v1/versions/${version}`).expect(200)).body.data;
    const parsed = parseInstance(xml, {
      title: 'Households',
      version: v,
      fields: v.fields.map((f: Record<string, unknown>) => ({ ...f, logic: f })),
    });
    expect(parsed.instanceId).to.match(/^uuid:[0-9a-f-]{36}$/);
    const e = (name: string, value: unknown) => ({
      field_uuid: fields[name]!.uuid,
      type: fields[name]!.type,
      value,
    });
    const asJson = [
      e('age', 60),
      e('village', 'Kolda'),
      e('member', [
        [e('m_name', 'Awa'), e('m_age', 34)],
        [e('m_name', 'Musa'), e('m_age', 8)],
      ]),
      e('total', '42'),
    ];
    expect(parsed.data).to.deep.equal(asJson);
    const stored = async (data: unknown) =>
      (
        await o
          .post(`/api/v1/projects/${project}/submissions`)
          .send({ form_version_id: version, data })
          .expect(201)
      ).body.data.data;
    expect(await stored(parsed.data)).to.deep.equal(await stored(asJson));
  });

  it('fills a counted repeat with a nested repeat and a cascading select, dates, times, a date-time, several choices and a point: the same data as the JSON API', async () => {
    const alice = await registerUser(stack.gatewayUrl, 'Alice Owner');
    const o = gatewayClient(stack.gatewayUrl, alice.token);
    const ws = (await o.post('/api/v1/workspaces').send({ name: 'Wells' }).expect(201)).body.data
      .id as number;
    const project = (await o.post(`/api/v1/workspaces/${ws}/projects`).send({ name: 'Visits' }).expect(201))
      .body.data.id as number;
    const version = (await o.post(`/api/v1/projects/${project}/versions`).send({}).expect(201)).body.data
      .id as number;
    const fields: Record<string, { uuid: string; type: string }> = {};
    for (const field of [
      { name: 'intro', type: 'note', label: 'Count the wells of the village.' },
      { name: 'visited', type: 'date', label: 'Day' },
      { name: 'at', type: 'time', label: 'Time' },
      { name: 'meet_at', type: 'datetime', label: 'Next meeting' },
      { name: 'where', type: 'geopoint', label: 'Place' },
      {
        name: 'uses',
        type: 'select_multiple',
        label: 'Uses',
        choices: [
          { value: 'drink', label: 'Drinking' },
          { value: 'farm', label: 'Farming' },
        ],
      },
      { name: 'wells', type: 'integer', label: 'Wells', constraint: '. <= 5' },
      { name: 'well', type: 'repeat', label: 'Well', repeat_count: '${wells}' },
      { name: 'depth', type: 'decimal', label: 'Depth (m)', parent: 'well' },
      {
        name: 'region',
        type: 'select_one',
        label: 'Region',
        parent: 'well',
        choices: [
          { value: 'north', label: 'North' },
          { value: 'south', label: 'South' },
        ],
      },
      {
        name: 'district',
        type: 'select_one',
        label: 'District',
        parent: 'well',
        choice_filter: 'region = ${region}',
        choices: [
          { value: 'n1', label: 'North 1', properties: { region: 'north' } },
          { value: 's1', label: 'South 1', properties: { region: 'south' } },
        ],
      },
      { name: 'info', type: 'group', label: 'Details', parent: 'well' },
      { name: 'number', type: 'calculate', label: 'Number', parent: 'info', calculation: 'position(..)' },
      { name: 'pump', type: 'repeat', label: 'Pump', parent: 'well' },
      { name: 'brand', type: 'text', label: 'Brand', parent: 'pump', relevant: '${depth} > 3' },
    ]) {
      const r = await o.post(`/api/v1/versions/${version}/fields`).send(field);
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
      fields[field.name] = { uuid: r.body.data.uuid, type: r.body.data.type };
    }
    await o.post(`/api/v1/versions/${version}/publish`).expect(200);
    await o.post(`/api/v1/projects/${project}/publish`).send({}).expect(200);

    const form = await odk.createForm((await o.get(`/api/v1/versions/${version}/xform`).expect(200)).text);
    expect(odk.find(form, '/data/intro')?.nodeType).to.equal('note');
    odk.answer(form, '/data/visited', '2026-11-20');
    odk.answer(form, '/data/at', '09:30:00');
    odk.answer(form, '/data/meet_at', '2026-11-21T10:15:00.000+01:00');
    odk.answer(form, '/data/where', '12.9 -14.9 40 5');
    odk.answer(form, '/data/uses', 'drink farm');
    odk.answer(form, '/data/wells', 2);
    // the count makes the instances: the collector does not add them
    expect(odk.find(form, '/data/well[2]')).not.to.equal(undefined);
    expect(odk.find(form, '/data/well[3]')).to.equal(undefined);
    odk.answer(form, '/data/well[1]/depth', 12.5);
    odk.answer(form, '/data/well[1]/region', 'south');
    const options = (odk.find(form, '/data/well[1]/district')!.currentState.valueOptions ??
      []) as ReadonlyArray<{
      value: string;
    }>;
    expect(options.map((c) => c.value)).to.deep.equal(['s1']);
    odk.answer(form, '/data/well[1]/district', 's1');
    odk.addRepeat(form, '/data/well[1]/pump');
    odk.answer(form, '/data/well[1]/pump[1]/brand', 'India Mark II');
    odk.answer(form, '/data/well[2]/depth', 2);
    odk.addRepeat(form, '/data/well[2]/pump');
    expect(odk.find(form, '/data/well[2]/pump[1]/brand')!.currentState.relevant).to.equal(false);

    const v = (await o.get(`/api/v1/versions/${version}`).expect(200)).body.data;
    const parsed = parseInstance(await odk.instanceXml(form), {
      title: 'Visits',
      version: v,
      fields: v.fields.map((f: Record<string, unknown>) => ({ ...f, logic: f })),
    });
    const e = (name: string, value: unknown) => ({
      field_uuid: fields[name]!.uuid,
      type: fields[name]!.type,
      value,
    });
    const asJson = [
      e('visited', '2026-11-20'),
      e('at', '09:30:00'),
      e('meet_at', '2026-11-21T10:15:00.000+01:00'),
      e('where', [12.9, -14.9, 40, 5]),
      e('uses', ['drink', 'farm']),
      e('wells', 2),
      e('well', [
        [
          e('depth', 12.5),
          e('region', 'south'),
          e('district', 's1'),
          e('number', '1'),
          e('pump', [[e('brand', 'India Mark II')]]),
        ],
        [e('depth', 2), e('number', '2'), e('pump', [[]])],
      ]),
    ];
    expect(parsed.data).to.deep.equal(asJson);
    const stored = async (data: unknown) =>
      (
        await o
          .post(`/api/v1/projects/${project}/submissions`)
          .send({ form_version_id: version, data })
          .expect(201)
      ).body.data.data;
    expect(await stored(parsed.data)).to.deep.equal(await stored(asJson));
  });
});
