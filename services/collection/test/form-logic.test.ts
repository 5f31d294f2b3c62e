import { expect } from 'chai';
import { addMember, cast, startHarness, type Harness } from './harness.ts';

// alice owns the workspace and writes the forms; bob collects.
const { alice, bob } = cast;

/** A field of the household survey as the API answered it. */
interface SavedField {
  id: number;
  uuid: string;
  type: string;
}

/**
 * The household survey of issue 34, in English and French: a household size with a constraint,
 * cascading region → district, one `member` instance per person (repeat_count ${hh_size}) with
 * pregnancy asked only to women aged 15–49, the total of ages calculated, a phone required when
 * more than one person lives there, a note and a group.
 */
const survey = [
  { name: 'welcome', type: 'note', label: { en: 'Welcome', fr: 'Bienvenue' } },
  {
    name: 'hh_size',
    type: 'integer',
    label: { en: 'Household size', fr: 'Taille du ménage' },
    required: true,
    constraint: '. >= 1 and . <= 20',
    constraint_message: { en: 'Between 1 and 20 people', fr: 'Entre 1 et 20 personnes' },
  },
  {
    name: 'region',
    type: 'select_one',
    label: 'Region',
    choices: [
      { value: 'north', label: { en: 'North', fr: 'Nord' } },
      { value: 'south', label: { en: 'South', fr: 'Sud' } },
    ],
  },
  {
    name: 'district',
    type: 'select_one',
    label: 'District',
    choice_filter: 'region = ${region}',
    choices: [
      { value: 'n1', label: 'North 1', properties: { region: 'north' } },
      { value: 's1', label: 'South 1', properties: { region: 'south' } },
    ],
  },
  { name: 'member', type: 'repeat', label: 'Member', repeat_count: '${hh_size}' },
  { name: 'm_name', type: 'text', label: 'Name', parent: 'member', required: true },
  { name: 'm_age', type: 'integer', label: 'Age', parent: 'member' },
  {
    name: 'm_sex',
    type: 'select_one',
    label: 'Sex',
    parent: 'member',
    choices: [
      { value: 'female', label: 'Female' },
      { value: 'male', label: 'Male' },
    ],
  },
  {
    name: 'pregnant',
    type: 'select_one',
    label: 'Pregnant?',
    parent: 'member',
    relevant: "${m_sex} = 'female' and ${m_age} >= 15 and ${m_age} <= 49",
    choices: [
      { value: 'yes', label: 'Yes' },
      { value: 'no', label: 'No' },
    ],
  },
  { name: 'total_age', type: 'calculate', label: 'Total age', calculation: 'sum(${m_age})' },
  {
    name: 'phone',
    type: 'text',
    label: 'Phone',
    required_if: '${hh_size} > 1',
    required_message: { en: 'A phone number is needed', fr: 'Un numéro est nécessaire' },
  },
  { name: 'contact', type: 'group', label: 'Contact', relevant: '${hh_size} > 2' },
  { name: 'neighbour', type: 'text', label: 'Neighbour', parent: 'contact' },
];

describe('collection: form logic (issue 34)', () => {
  let h: Harness;
  let ws: number;
  let projectId: number;
  let versionId: number;
  const f: Record<string, SavedField> = {};

  /** A new project with a draft version (languages `languages`), its id and the version's. */
  const draft = async (languages?: string[]) => {
    const p = (await h.as(alice).post(`/api/v1/workspaces/${ws}/projects`).send({ name: 'P' }).expect(201))
      .body.data.id as number;
    const v = (
      await h
        .as(alice)
        .post(`/api/v1/projects/${p}/versions`)
        .send(languages ? { languages } : {})
        .expect(201)
    ).body.data;
    return { project: p, version: v.id as number, body: v };
  };
  const addField = (version: number, field: object) =>
    h.as(alice).post(`/api/v1/versions/${version}/fields`).send(field);

  /** An entry of the survey. */
  const e = (name: string, value: unknown) => ({ field_uuid: f[name]!.uuid, type: f[name]!.type, value });
  /** A member instance. */
  const member = (name: string, age: number, sex: string, extra: object[] = []) => [
    e('m_name', name),
    e('m_age', age),
    e('m_sex', sex),
    ...extra,
  ];
  const submit = (data: unknown[], status = 'submitted', language?: string) => {
    const req = h.as(bob).post(`/api/v1/projects/${projectId}/submissions`);
    if (language) req.set('Accept-Language', language);
    return req.send({ form_version_id: versionId, status, data });
  };
  /** A complete household of two: alice (30, female, not pregnant) and bob (40, male). */
  const household = () => [
    e('hh_size', 2),
    e('region', 'north'),
    e('district', 'n1'),
    e('member', [member('Alice', 30, 'female', [e('pregnant', 'no')]), member('Bob', 40, 'male')]),
    e('phone', '555-0101'),
  ];

  before(async () => {
    h = await startHarness();
    ws = (await h.as(alice).post('/api/v1/workspaces').send({ name: 'W' }).expect(201)).body.data.id;
    await addMember(h, alice, ws, bob, 'collector');
    const d = await draft(['en', 'fr']);
    projectId = d.project;
    versionId = d.version;
    for (const field of survey) {
      const r = await addField(versionId, field);
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
      f[field.name] = { id: r.body.data.id, uuid: r.body.data.uuid, type: r.body.data.type };
    }
    await h.as(alice).post(`/api/v1/versions/${versionId}/publish`).expect(200);
    await h.as(alice).post(`/api/v1/projects/${projectId}/publish`).send({}).expect(200);
  });
  after(async () => {
    await h?.close();
  });

  describe('the form model on versions and fields', () => {
    it('answers a version with its languages and default language', async () => {
      const v = await h.as(alice).get(`/api/v1/versions/${versionId}`).expect(200);
      expect(v.body.data).to.include({ default_language: 'en' });
      expect(v.body.data.languages).to.deep.equal(['en', 'fr']);
    });

    it('answers a one-language version with no languages and a null default', async () => {
      const d = await draft();
      expect(d.body.languages).to.deep.equal([]);
      expect(d.body.default_language).to.equal(null);
    });

    it('normalises texts given per language: the default language in the property, the others in translations', async () => {
      const v = await h.as(alice).get(`/api/v1/versions/${versionId}`).expect(200);
      const hh = v.body.data.fields.find((x: { name: string }) => x.name === 'hh_size');
      expect(hh).to.include({
        label: 'Household size',
        constraint_message: 'Between 1 and 20 people',
        constraint: '. >= 1 and . <= 20',
        parent: null,
        read_only: false,
        relevant: null,
      });
      expect(hh.translations).to.deep.equal({
        fr: { label: 'Taille du ménage', constraint_message: 'Entre 1 et 20 personnes' },
      });
      const region = v.body.data.fields.find((x: { name: string }) => x.name === 'region');
      expect(region.choices[0]).to.deep.equal({
        value: 'north',
        label: 'North',
        translations: { fr: { label: 'Nord' } },
      });
      const name = v.body.data.fields.find((x: { name: string }) => x.name === 'm_name');
      expect(name.parent).to.equal('member');
    });

    it('copies the languages, parents, logic and translations of the last published version', async () => {
      const copy = await h
        .as(alice)
        .post(`/api/v1/projects/${projectId}/versions`)
        .send({ copy_last_published: true })
        .expect(201);
      expect(copy.body.data).to.deep.include({ languages: ['en', 'fr'], default_language: 'en' });
      const v = await h.as(alice).get(`/api/v1/versions/${copy.body.data.id}`).expect(200);
      const pregnant = v.body.data.fields.find((x: { name: string }) => x.name === 'pregnant');
      expect(pregnant).to.include({ parent: 'member', uuid: f.pregnant!.uuid });
      expect(pregnant.relevant).to.contain('${m_sex}');
      const hh = v.body.data.fields.find((x: { name: string }) => x.name === 'hh_size');
      expect(hh.translations.fr.label).to.equal('Taille du ménage');
    });

    it('changes the languages of a draft with PUT /versions/{id}', async () => {
      const d = await draft();
      const r = await h
        .as(alice)
        .put(`/api/v1/versions/${d.version}`)
        .send({ languages: ['fr', 'en'], default_language: 'fr' })
        .expect(200);
      expect(r.body.data).to.deep.include({ languages: ['fr', 'en'], default_language: 'fr' });
    });

    it('refuses to change the languages of a published version (409 version_frozen)', async () => {
      const r = await h
        .as(alice)
        .put(`/api/v1/versions/${versionId}`)
        .send({ languages: ['en'] })
        .expect(409);
      expect(r.body.code).to.equal('version_frozen');
    });

    it('refuses a default language that is not one of the languages (422 default_language)', async () => {
      const d = await draft();
      const r = await h
        .as(alice)
        .put(`/api/v1/versions/${d.version}`)
        .send({ languages: ['en'], default_language: 'fr' })
        .expect(422);
      expect(r.body.errors).to.have.property('default_language');
    });

    it('refuses a text in a language the version does not have (422 on label)', async () => {
      const d = await draft(['en']);
      const r = await addField(d.version, { name: 'q', type: 'text', label: { en: 'Q', de: 'F' } }).expect(
        422,
      );
      expect(r.body.errors.label[0]).to.contain('de');
    });

    it('refuses an expression with a syntax error, naming the property and the position (422 expression_invalid)', async () => {
      const d = await draft();
      const r = await addField(d.version, {
        name: 'q',
        type: 'integer',
        label: 'Q',
        constraint: '. >= 1 and and . < 3',
      }).expect(422);
      expect(r.body.code).to.equal('expression_invalid');
      expect(r.body.errors.constraint[0]).to.match(/^constraint: .*column/);
    });

    it('refuses a reference to an unknown field (422 naming ${name})', async () => {
      const d = await draft();
      await addField(d.version, { name: 'age', type: 'integer', label: 'Age' }).expect(201);
      const r = await addField(d.version, {
        name: 'q',
        type: 'text',
        label: 'Q',
        relevant: '${agee} > 3',
      }).expect(422);
      expect(r.body.code).to.equal('expression_invalid');
      expect(r.body.errors.relevant[0])
        .to.contain('agee')
        .and.to.match(/column 1/);
    });

    it('refuses a cycle of calculations (422 expression_invalid)', async () => {
      const d = await draft();
      await addField(d.version, { name: 'n', type: 'integer', label: 'N' }).expect(201);
      const a = await addField(d.version, {
        name: 'a',
        type: 'calculate',
        label: 'A',
        calculation: '${n} + 1',
      }).expect(201);
      await addField(d.version, { name: 'b', type: 'calculate', label: 'B', calculation: '${a} + 1' }).expect(
        201,
      );
      const r = await h
        .as(alice)
        .put(`/api/v1/versions/${d.version}/fields/${a.body.data.id}`)
        .send({ calculation: '${b} + 1' })
        .expect(422);
      expect(r.body.code).to.equal('expression_invalid');
      expect(JSON.stringify(r.body.errors)).to.contain('cycle');
    });

    it('refuses to publish a form referring to a field deleted since (422 fields.<name>.<property>)', async () => {
      const d = await draft();
      const age = await addField(d.version, { name: 'age', type: 'integer', label: 'Age' }).expect(201);
      await addField(d.version, { name: 'q', type: 'text', label: 'Q', relevant: '${age} > 3' }).expect(201);
      await h.as(alice).delete(`/api/v1/versions/${d.version}/fields/${age.body.data.id}`).expect(204);
      const r = await h.as(alice).post(`/api/v1/versions/${d.version}/publish`).expect(422);
      expect(r.body.code).to.equal('expression_invalid');
      expect(r.body.errors['fields.q.relevant'][0]).to.contain('age');
    });

    it('refuses required together with required_if (422 on required_if)', async () => {
      const d = await draft();
      const r = await addField(d.version, {
        name: 'q',
        type: 'text',
        label: 'Q',
        required: true,
        required_if: 'true()',
      }).expect(422);
      expect(r.body.errors).to.have.property('required_if');
    });

    it('refuses an appearance outside the documented set, naming the set (422)', async () => {
      const d = await draft();
      const r = await addField(d.version, { name: 'q', type: 'text', label: 'Q', appearance: 'huge' }).expect(
        422,
      );
      expect(r.body.errors.appearance[0]).to.contain('multiline');
    });

    it('refuses a parent that is not a group or repeat (422 on parent)', async () => {
      const d = await draft();
      await addField(d.version, { name: 'age', type: 'integer', label: 'Age' }).expect(201);
      const r = await addField(d.version, { name: 'q', type: 'text', label: 'Q', parent: 'age' }).expect(422);
      expect(r.body.errors).to.have.property('parent');
    });

    it('refuses a default that is not a value of the field type (422 on default)', async () => {
      const d = await draft();
      const r = await addField(d.version, { name: 'q', type: 'integer', label: 'Q', default: 'many' }).expect(
        422,
      );
      expect(r.body.errors).to.have.property('default');
    });

    it('refuses repeat_count together with min_repeats (422)', async () => {
      const d = await draft();
      const r = await addField(d.version, {
        name: 'r',
        type: 'repeat',
        label: 'R',
        repeat_count: 2,
        min_repeats: 1,
      }).expect(422);
      expect(r.body.errors).to.have.property('repeat_count');
    });
  });

  describe('submissions checked against the logic', () => {
    it('stores a household with its repeat nested and its calculation computed by the service', async () => {
      const data = household();
      data.push(e('total_age', '999'));
      const r = await submit(data).expect(201);
      const stored = await h
        .as(bob)
        .get(`/api/v1/projects/${projectId}/submissions/${r.body.data.id}`)
        .expect(200);
      const byUuid = new Map(stored.body.data.data.map((x: { field_uuid: string }) => [x.field_uuid, x]));
      expect(byUuid.get(f.total_age!.uuid)).to.deep.equal({
        field_uuid: f.total_age!.uuid,
        type: 'calculate',
        value: '70',
      });
      const members = (byUuid.get(f.member!.uuid) as { value: unknown[][] }).value;
      expect(members).to.have.length(2);
      expect(members[1]).to.deep.equal(member('Bob', 40, 'male'));
    });

    it('refuses a failing constraint with the form message in English by default', async () => {
      const data = household();
      data[0] = e('hh_size', 25);
      const r = await submit(data).expect(422);
      expect(r.body.errors['data.0.value']).to.deep.equal(['Between 1 and 20 people']);
    });

    it('refuses a failing constraint with the form message in French for Accept-Language fr', async () => {
      const data = household();
      data[0] = e('hh_size', 25);
      const r = await submit(data, 'submitted', 'fr-CH, fr;q=0.9, en;q=0.5').expect(422);
      expect(r.body.errors['data.0.value']).to.deep.equal(['Entre 1 et 20 personnes']);
    });

    it('refuses a missing answer required by required_if, in the requested language', async () => {
      const data = household().filter((x) => x.field_uuid !== f.phone!.uuid);
      const r = await submit(data, 'submitted', 'fr').expect(422);
      expect(r.body.errors['data.phone']).to.deep.equal(['Un numéro est nécessaire']);
    });

    it('refuses an answer to a question that is not relevant, keyed inside the repeat instance', async () => {
      const data = household();
      data[3] = e('member', [
        member('Alice', 30, 'female', [e('pregnant', 'no')]),
        member('Bob', 40, 'male', [e('pregnant', 'no')]),
      ]);
      const r = await submit(data).expect(422);
      expect(r.body.errors['data.3.value.1.3.value'][0]).to.contain('not relevant');
    });

    it('refuses a repeat count out of range (data.<i>.value)', async () => {
      const data = household();
      data[3] = e('member', [member('Alice', 30, 'female', [e('pregnant', 'no')])]);
      const r = await submit(data).expect(422);
      expect(r.body.errors).to.have.property('data.3.value');
    });

    it('refuses a choice its choice_filter excludes', async () => {
      const data = household();
      data[2] = e('district', 's1');
      const r = await submit(data).expect(422);
      expect(r.body.errors['data.2.value'][0]).to.contain('Value not allowed');
    });

    it('refuses a missing required answer inside a repeat instance', async () => {
      const data = household();
      data[3] = e('member', [
        member('Alice', 30, 'female', [e('pregnant', 'no')]),
        [e('m_age', 40), e('m_sex', 'male')],
      ]);
      const r = await submit(data).expect(422);
      expect(r.body.errors).to.have.property('data.3.value.1.m_name');
    });

    it('refuses a field of a repeat sent at the top level', async () => {
      const data = [...household(), e('m_age', 3)];
      const r = await submit(data).expect(422);
      expect(r.body.errors).to.have.property(`data.${data.length - 1}.field_uuid`);
    });

    it('keeps a draft incomplete: required answers missing, repeat instances still to come', async () => {
      const r = await submit([e('hh_size', 3), e('member', [[e('m_age', 4)]])], 'draft').expect(201);
      expect(r.body.data.status).to.equal('draft');
    });

    it('checks a draft when it is submitted (PUT status submitted)', async () => {
      const r = await submit([e('hh_size', 2)], 'draft').expect(201);
      const sent = await h
        .as(bob)
        .put(`/api/v1/projects/${projectId}/submissions/${r.body.data.id}`)
        .send({ status: 'submitted' })
        .expect(422);
      expect(sent.body.errors).to.have.property('data.phone');
    });

    it('refuses an edit (PUT data) that answers a question that is not relevant', async () => {
      const r = await submit([e('hh_size', 1)], 'draft').expect(201);
      const put = await h
        .as(bob)
        .put(`/api/v1/projects/${projectId}/submissions/${r.body.data.id}`)
        .send({ data: [e('hh_size', 1), e('neighbour', 'Carol')] })
        .expect(422);
      expect(put.body.errors['data.1.value'][0]).to.contain('not relevant');
    });

    it('recomputes calculations on an edit (PUT data)', async () => {
      const r = await submit([e('hh_size', 1)], 'draft').expect(201);
      const put = await h
        .as(bob)
        .put(`/api/v1/projects/${projectId}/submissions/${r.body.data.id}`)
        .send({ data: [e('hh_size', 1), e('member', [member('Zoe', 12, 'female')]), e('total_age', 'x')] })
        .expect(200);
      const total = put.body.data.data.find(
        (x: { field_uuid: string }) => x.field_uuid === f.total_age!.uuid,
      );
      expect(total.value).to.equal('12');
    });

    it('answers the refusal of an edit (PUT data) in the language of Accept-Language', async () => {
      const r = await submit([e('hh_size', 1)], 'draft').expect(201);
      const put = await h
        .as(bob)
        .put(`/api/v1/projects/${projectId}/submissions/${r.body.data.id}`)
        .set('Accept-Language', 'fr')
        .send({ data: [e('hh_size', 30)] })
        .expect(422);
      expect(put.body.errors['data.0.value']).to.deep.equal(['Entre 1 et 20 personnes']);
    });

    it('answers the refusal of a draft being submitted (PUT status) with its path and the French message', async () => {
      const r = await submit([e('hh_size', 2)], 'draft').expect(201);
      const sent = await h
        .as(bob)
        .put(`/api/v1/projects/${projectId}/submissions/${r.body.data.id}`)
        .set('Accept-Language', 'fr-FR')
        .send({ status: 'submitted' })
        .expect(422);
      expect(sent.body.errors['data.phone']).to.deep.equal(['Un numéro est nécessaire']);
    });

    it('checks a sync draft when a newer item submits it: refused in French, its calculation recomputed once valid', async () => {
      const item = (at: string, status: string, data: unknown[]) => ({
        local_id: 'draft-then-sent',
        client_updated_at: at,
        form_version_id: versionId,
        status,
        data,
      });
      const sync = (items: object[]) =>
        h
          .as(bob)
          .post('/api/v1/sync')
          .set('Accept-Language', 'fr')
          .send({ device_id: 'tab', submissions: items });
      const first = await sync([item('2026-02-01T10:00:00Z', 'draft', [e('hh_size', 2)])]).expect(200);
      expect(first.body.data.results[0].status).to.equal('created');
      const refused = await sync([item('2026-02-01T11:00:00Z', 'submitted', [e('hh_size', 2)])]).expect(200);
      expect(refused.body.data.results[0]).to.include({ status: 'rejected', code: 'validation_failed' });
      expect(refused.body.data.results[0].errors['data.phone']).to.deep.equal(['Un numéro est nécessaire']);
      const data = [...household(), e('total_age', '1')];
      const sent = await sync([item('2026-02-01T12:00:00Z', 'submitted', data)]).expect(200);
      const id = sent.body.data.results[0].id as number;
      expect(sent.body.data.results[0].status, JSON.stringify(sent.body)).to.equal('updated');
      const stored = await h.as(bob).get(`/api/v1/projects/${projectId}/submissions/${id}`).expect(200);
      expect(stored.body.data.status).to.equal('submitted');
      const total = stored.body.data.data.find(
        (x: { field_uuid: string }) => x.field_uuid === f.total_age!.uuid,
      );
      expect(total.value).to.equal('70');
    });

    it('finds a submission in the list by an answer inside a group and by one inside a repeat instance', async () => {
      const data = [
        e('hh_size', 3),
        e('member', [
          member('Ysolde', 30, 'female', [e('pregnant', 'no')]),
          member('Bo', 4, 'male'),
          member('Cy', 2, 'male'),
        ]),
        e('phone', '555-0102'),
        e('neighbour', 'Zebulon Quartermain'),
      ];
      const r = await submit(data).expect(201);
      for (const word of ['quartermain', 'ysolde']) {
        const list = await h
          .as(alice)
          .get(`/api/v1/projects/${projectId}/submissions?search=${word}`)
          .expect(200);
        expect(list.body.data.map((s: { id: number }) => s.id)).to.deep.equal([r.body.data.id]);
      }
    });

    it("checks the public web form's anonymous submissions the same way, in the visitor's language", async () => {
      await h
        .as(alice)
        .post(`/api/v1/workspaces/${ws}/projects/${projectId}/publish`)
        .send({ collect_access: 'public' })
        .expect(200);
      const bad = household().filter((x) => x.field_uuid !== f.phone!.uuid);
      const refused = await h
        .anonymous()
        .post(`/api/v1/projects/${projectId}/submissions`)
        .set('Accept-Language', 'fr')
        .send({ form_version_id: versionId, data: bad })
        .expect(422);
      expect(refused.body.errors['data.phone']).to.deep.equal(['Un numéro est nécessaire']);
      const ok = await h
        .anonymous()
        .post(`/api/v1/projects/${projectId}/submissions`)
        .send({ form_version_id: versionId, data: household() })
        .expect(201);
      expect(ok.body.data.collector_id).to.equal(null);
    });

    it('checks sync items the same way: a failing constraint rejected, a valid household created', async () => {
      const bad = household();
      bad[0] = e('hh_size', 0);
      const r = await h
        .as(bob)
        .post('/api/v1/sync')
        .set('Accept-Language', 'fr')
        .send({
          device_id: 'phone',
          submissions: [
            {
              local_id: 'bad',
              client_updated_at: '2026-01-01T10:00:00Z',
              form_version_id: versionId,
              data: bad,
            },
            {
              local_id: 'good',
              client_updated_at: '2026-01-01T10:00:00Z',
              form_version_id: versionId,
              data: household(),
            },
          ],
        })
        .expect(200);
      const [rejected, created] = r.body.data.results;
      expect(rejected).to.include({ status: 'rejected', code: 'validation_failed' });
      expect(rejected.errors['data.0.value']).to.deep.equal(['Entre 1 et 20 personnes']);
      expect(created.status).to.equal('created');
      const stored = await h
        .as(bob)
        .get(`/api/v1/projects/${projectId}/submissions/${created.id}`)
        .expect(200);
      const total = stored.body.data.data.find(
        (x: { field_uuid: string }) => x.field_uuid === f.total_age!.uuid,
      );
      expect(total.value).to.equal('70');
    });
  });
});
