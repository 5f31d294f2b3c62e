import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { addMember, cast, startHarness, type Harness } from './harness.ts';
import { workbookFrom, workbookOf, zipOf } from './xlsform-kit.ts';

const { alice, bob, mallory } = cast;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures/pyxform');

/** A refusal as the test reads it: `<key> <reason>`. */
type Refusal = { key: string; reason: string; message: string; values: Record<string, unknown> };

/** A household survey using every type and column the import takes. */
const household = () =>
  workbookFrom({
    survey: [
      { type: 'start', name: 'start' },
      { type: 'end', name: 'end' },
      { type: 'today', name: 'today' },
      { type: 'deviceid', name: 'deviceid' },
      { type: 'username', name: 'username' },
      {
        type: 'select_one country',
        name: 'country',
        'label::English (en)': 'Country',
        'label::French (fr)': 'Pays',
        required: 'yes',
        'required_message::English (en)': 'Choose a country',
        'required_message::French (fr)': 'Choisissez un pays',
      },
      {
        type: 'select_one region',
        name: 'region',
        'label::English (en)': 'Region',
        'label::French (fr)': 'Région',
        choice_filter: 'country = ${country}',
        appearance: 'minimal',
      },
      {
        type: 'integer',
        name: 'household_size',
        'label::English (en)': 'Household size',
        'label::French (fr)': 'Taille du ménage',
        'hint::English (en)': 'People who live here',
        required: 'yes',
        constraint: '. > 0 and . < 50',
        'constraint_message::English (en)': 'Between 1 and 49',
        'constraint_message::French (fr)': 'Entre 1 et 49',
      },
      {
        type: 'begin_repeat',
        name: 'member',
        'label::English (en)': 'Member',
        'label::French (fr)': 'Membre',
        repeat_count: '${household_size}',
      },
      {
        type: 'text',
        name: 'member_name',
        'label::English (en)': 'Name',
        'label::French (fr)': 'Nom',
        required: 'yes',
      },
      {
        type: 'integer',
        name: 'age',
        'label::English (en)': 'Age',
        'label::French (fr)': 'Âge',
        constraint: '. >= 0',
      },
      {
        type: 'begin group',
        name: 'pregnancy',
        'label::English (en)': 'Pregnancy',
        'label::French (fr)': 'Grossesse',
        relevant: '${age} >= 15 and ${age} <= 49',
        appearance: 'field-list',
      },
      {
        type: 'select_one yn',
        name: 'pregnant',
        'label::English (en)': 'Pregnant?',
        'label::French (fr)': 'Enceinte ?',
      },
      { type: 'end group' },
      { type: 'end_repeat' },
      { type: 'calculate', name: 'total_age', calculation: 'sum(${age})' },
      {
        type: 'decimal',
        name: 'income',
        'label::English (en)': 'Income',
        'label::French (fr)': 'Revenu',
        default: '0',
      },
      {
        type: 'select_multiple yn',
        name: 'items',
        'label::English (en)': 'Items',
        'label::French (fr)': 'Objets',
      },
      { type: 'date', name: 'visit_date', 'label::English (en)': 'Visit date', 'label::French (fr)': 'Date' },
      {
        type: 'time',
        name: 'visit_time',
        'label::English (en)': 'Visit time',
        'label::French (fr)': 'Heure',
      },
      {
        type: 'geopoint',
        name: 'location',
        'label::English (en)': 'Location',
        'label::French (fr)': 'Position',
      },
      { type: 'image', name: 'photo', 'label::English (en)': 'Photo', 'label::French (fr)': 'Photo' },
      {
        type: 'text',
        name: 'comment',
        'label::English (en)': 'Comment',
        'label::French (fr)': 'Commentaire',
        required: '${total_age} > 100',
        appearance: 'multiline',
      },
      { type: 'note', name: 'thanks', 'label::English (en)': 'Thank you', 'label::French (fr)': 'Merci' },
      {
        type: 'text',
        name: 'fixed',
        'label::English (en)': 'Fixed',
        'label::French (fr)': 'Fixe',
        default: 'abc',
        read_only: 'yes',
      },
    ],
    choices: [
      { list_name: 'country', name: 'fr', 'label::English (en)': 'France', 'label::French (fr)': 'France' },
      { list_name: 'country', name: 'ke', 'label::English (en)': 'Kenya', 'label::French (fr)': 'Kenya' },
      {
        list_name: 'region',
        name: 'idf',
        'label::English (en)': 'Paris region',
        'label::French (fr)': 'Île-de-France',
        country: 'fr',
      },
      {
        list_name: 'region',
        name: 'nai',
        'label::English (en)': 'Nairobi',
        'label::French (fr)': 'Nairobi',
        country: 'ke',
      },
      { list_name: 'yn', name: 'yes', 'label::English (en)': 'Yes', 'label::French (fr)': 'Oui' },
      { list_name: 'yn', name: 'no', 'label::English (en)': 'No', 'label::French (fr)': 'Non' },
    ],
    settings: [
      { form_title: 'Household', form_id: 'household', version: '2024', default_language: 'English (en)' },
    ],
  });

/** A field as compared across versions: without ids, version and times. */
const comparable = (f: Record<string, unknown>) => {
  const { id: _i, uuid: _u, version_id: _v, created_at: _c, updated_at: _d, ...rest } = f;
  return rest;
};

describe('collection: XLSForm import and export (issue 35)', () => {
  let h: Harness;
  let ws: number;
  let project: number;

  before(async () => {
    h = await startHarness();
    ws = (await h.as(alice).post('/api/v1/workspaces').send({ name: 'W' }).expect(201)).body.data.id;
    project = (
      await h.as(alice).post(`/api/v1/workspaces/${ws}/projects`).send({ name: 'Households' }).expect(201)
    ).body.data.id;
  });
  after(async () => {
    await h?.close();
  });

  const upload = (bytes: Buffer, as = alice, name = 'form.xlsx') =>
    h
      .as(as)
      .post(`/api/v1/projects/${project}/versions`)
      .attach('xlsform', bytes, { filename: name, contentType: XLSX });
  /** The refusals of a 422 `xlsform_invalid`, as `<key> <reason>`. */
  const refusals = async (bytes: Buffer): Promise<string[]> => {
    const res = await upload(bytes).expect(422);
    expect(res.body.code).to.equal('xlsform_invalid');
    const issues = res.body.xlsform_errors as Refusal[];
    expect(Object.keys(res.body.errors)).to.deep.equal([...new Set(issues.map((i) => i.key))]);
    return issues.map((i) => `${i.key} ${i.reason}`);
  };
  const fieldsOf = async (versionId: number) =>
    (await h.as(alice).get(`/api/v1/versions/${versionId}`).expect(200)).body.data.fields as Record<
      string,
      unknown
    >[];
  /** Downloads a version as XLSForm, imports it again, and expects the same fields and languages. */
  const roundTrip = async (versionId: number) => {
    const download = await h
      .as(alice)
      .get(`/api/v1/versions/${versionId}/xlsform`)
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(download.headers['content-type']).to.equal(XLSX);
    expect(download.headers['content-disposition']).to.match(
      /^attachment; filename="fieldhouse-\d+-v\d+\.xlsx"$/,
    );
    const again = (await upload(download.body as Buffer).expect(201)).body.data;
    const before = (await h.as(alice).get(`/api/v1/versions/${versionId}`).expect(200)).body.data;
    expect(again.languages).to.deep.equal(before.languages);
    expect(again.default_language).to.equal(before.default_language);
    expect((await fieldsOf(again.id)).map(comparable)).to.deep.equal(
      (await fieldsOf(versionId)).map(comparable),
    );
  };

  it('creates a draft from a workbook with every type and column, answering as the JSON create does', async () => {
    const json = (await h.as(alice).post(`/api/v1/projects/${project}/versions`).send({}).expect(201)).body
      .data;
    const res = await upload(await household()).expect(201);
    const version = res.body.data;
    expect(Object.keys(version).sort()).to.deep.equal(Object.keys(json).sort());
    expect(version).to.include({ status: 'draft', number: json.number + 1, field_count: 23 });
    expect(version.languages).to.deep.equal(['en', 'fr']);
    expect(version.default_language).to.equal('en');
    const fields = await fieldsOf(version.id);
    const byName = Object.fromEntries(fields.map((f) => [f.name, f]));
    expect(fields.map((f) => f.name)).to.deep.equal([
      'start',
      'end',
      'today',
      'deviceid',
      'username',
      'country',
      'region',
      'household_size',
      'member',
      'member_name',
      'age',
      'pregnancy',
      'pregnant',
      'total_age',
      'income',
      'items',
      'visit_date',
      'visit_time',
      'location',
      'photo',
      'comment',
      'thanks',
      'fixed',
    ]);
    expect(byName.start).to.include({ type: 'calculate', calculation: 'now()', label: 'start' });
    expect(byName.today).to.include({ type: 'calculate', calculation: 'today()' });
    expect(byName.deviceid).to.include({ type: 'text', read_only: true });
    expect(byName.country).to.include({
      type: 'select_one',
      required: true,
      label: 'Country',
      required_message: 'Choose a country',
    });
    expect(byName.country!.translations).to.deep.equal({
      fr: { label: 'Pays', required_message: 'Choisissez un pays' },
    });
    expect(byName.region).to.include({ choice_filter: 'country = ${country}', appearance: 'minimal' });
    expect((byName.region!.choices as { properties: object }[])[0]!.properties).to.deep.equal({
      country: 'fr',
    });
    expect(byName.household_size).to.include({
      hint: 'People who live here',
      constraint: '. > 0 and . < 50',
    });
    expect(byName.member).to.include({ type: 'repeat', repeat_count: '${household_size}' });
    expect(byName.age).to.include({ parent: 'member' });
    expect(byName.pregnancy).to.include({
      type: 'group',
      parent: 'member',
      relevant: '${age} >= 15 and ${age} <= 49',
    });
    expect(byName.pregnant).to.include({ parent: 'pregnancy' });
    expect(byName.income).to.include({ type: 'decimal', default: 0 });
    expect(byName.photo).to.include({ type: 'photo' });
    expect(byName.comment).to.include({ required: false, required_if: '${total_age} > 100' });
    expect(byName.fixed).to.include({ read_only: true, default: 'abc' });
    // It is an ordinary draft: it publishes.
    await h.as(alice).post(`/api/v1/versions/${version.id}/publish`).expect(200);
  });

  it('gives a version back as a workbook that imports to the same form', async () => {
    const version = (await upload(await household()).expect(201)).body.data;
    await roundTrip(version.id);
  });

  it('round-trips a version built with the JSON API, its constraints written as expressions', async () => {
    const v = (await h.as(alice).post(`/api/v1/projects/${project}/versions`).send({}).expect(201)).body.data;
    await h
      .as(alice)
      .post(`/api/v1/versions/${v.id}/fields`)
      .send({ name: 'q', label: 'Q', type: 'text', required: true, relevant: 'true()' })
      .expect(201);
    await roundTrip(v.id);
    const constrained = (await h.as(alice).post(`/api/v1/projects/${project}/versions`).send({}).expect(201))
      .body.data;
    await h
      .as(alice)
      .post(`/api/v1/versions/${constrained.id}/fields`)
      .send({ name: 'n', label: 'N', type: 'integer', constraints: { min: 1, max: 9 } })
      .expect(201);
    const download = await h
      .as(alice)
      .get(`/api/v1/versions/${constrained.id}/xlsform`)
      .buffer(true)
      .parse(binary)
      .expect(200);
    const again = (await upload(download.body as Buffer).expect(201)).body.data;
    const [n] = await fieldsOf(again.id);
    expect(n).to.include({ name: 'n', type: 'integer', constraint: '(. >= 1) and (. <= 9)' });
  });

  it('imports a dateTime question (any case, as pyxform reads types) with its default, and round-trips it', async () => {
    const md = `
      | survey |
      | | type     | name     | label    | default                       | constraint      |
      | | dateTime | meet_at  | Meeting  | 2031-06-12T19:00:00.000+02:00 | . > now()       |
      | | datetime | left_at  | Left     |                               |                 |`;
    const version = (await upload(await workbookOf(md)).expect(201)).body.data;
    const fields = await fieldsOf(version.id);
    expect(fields.map((f) => [f.name, f.type])).to.deep.equal([
      ['meet_at', 'datetime'],
      ['left_at', 'datetime'],
    ]);
    expect(fields[0]).to.include({ default: '2031-06-12T19:00:00.000+02:00', constraint: '. > now()' });
    const download = await h
      .as(alice)
      .get(`/api/v1/versions/${version.id}/xlsform`)
      .buffer(true)
      .parse(binary)
      .expect(200);
    const workbook = new ExcelJS.Workbook();
    // exceljs types predate the generic Buffer of @types/node 24
    await workbook.xlsx.load(download.body as never);
    const types: unknown[] = [];
    workbook.getWorksheet('survey')!.eachRow((row) => types.push(row.getCell(1).value));
    expect(types).to.deep.equal(['type', 'dateTime', 'dateTime']);
    await roundTrip(version.id);
  });

  it('refuses a dateTime default that is not a date-time with its offset, at its cell', async () => {
    const md = `
      | survey |
      | | type     | name    | label   | default             |
      | | dateTime | meet_at | Meeting | 2031-06-12T19:00:00 |`;
    expect(await refusals(await workbookOf(md))).to.deep.equal(['survey.2.default invalid']);
  });

  describe("pyxform's example workbooks (tests/example_xls)", () => {
    const imports = ['text_and_integer.xlsx', 'yes_or_no_question.xlsx', 'extra_sheet_names.xlsx'];
    for (const file of imports)
      it(`${file} imports and round-trips`, async () => {
        const version = (await upload(readFileSync(join(fixtures, file)), alice, file).expect(201)).body.data;
        expect(version.field_count).to.be.greaterThan(0);
        await roundTrip(version.id);
      });

    const refused: Record<string, string[]> = {
      // `because pyxform doesn't know what to do` is no expression.
      'bad_calc.xlsx': ['survey.2.calculation syntax'],
      // pulldata() reads a CSV attached to the form: Fieldhouse forms have no attachments.
      'pull_data.xlsx': ['survey.2.calculation unknown_function'],
      // The same choice name twice in a list, allowed there by a setting Fieldhouse does not have.
      'choice_filter_test.xlsx': [
        'choices.6.name duplicate_choice',
        'settings.2.allow_choice_duplicates unsupported_setting',
      ],
      // A type the form model has no field for.
      'group.xlsx': ['survey.4.type unsupported_type'],
      // "or_other" adds a free-text other choice the form model does not have.
      'or_other.xlsx': ['survey.2.type other_choice'],
      // Upper-case sheets and columns are read; external choices, entities and OSM are not taken.
      'case_insensitivity.xlsx': [
        'external_choices unsupported_sheet',
        'entities unsupported_sheet',
        'osm unsupported_sheet',
        'survey.3.TYPE unsupported_type',
        'survey.4.TYPE unsupported_type',
      ],
      // Its only sheet is "Sheet1".
      'survey_no_name.xlsx': ['survey no_survey_sheet'],
    };
    for (const [file, reasons] of Object.entries(refused))
      it(`${file} is refused: ${reasons.join('; ')}`, async () => {
        expect(await refusals(readFileSync(join(fixtures, file)))).to.deep.equal(reasons);
      });
  });

  describe("pyxform's error cases (tests/test_choices_sheet.py, test_fields.py, errors.py)", () => {
    it('a choice without a label (LABEL_001: rows 2 and 3)', async () => {
      const md = `
        | survey   |
        |          | type               | name | label |
        |          | select_one choices | a    | A     |
        | choices  |
        |          | list_name          | name | label |
        |          | choices            | 1    |       |
        |          | choices            | 2    |       |`;
      expect(await refusals(await workbookOf(md))).to.deep.equal([
        'choices.2.label missing_label',
        'choices.3.label missing_label',
      ]);
    });

    it('a duplicate choice name (NAMES_007: row 4), with allow_choice_duplicates not yes', async () => {
      const md = `
        | survey  |
        |         | type            | name     | label    |
        |         | select_one list | S1       | s1       |
        | choices |
        |         | list name       | name     | label    |
        |         | list            | a        | option a |
        |         | list            | b        | option b |
        |         | list            | b        | option c |`;
      expect(await refusals(await workbookOf(md))).to.deep.equal(['choices.4.name duplicate_choice']);
    });

    it('several duplicate choice names (NAMES_007: rows 3 and 5)', async () => {
      const md = `
        | survey  |
        |         | type            | name | label    |
        |         | select_one list | S1   | s1       |
        | choices |
        |         | list name       | name | label    |
        |         | list            | a    | option a |
        |         | list            | a    | option b |
        |         | list            | b    | option c |
        |         | list            | b    | option d |`;
      expect(await refusals(await workbookOf(md))).to.deep.equal([
        'choices.3.name duplicate_choice',
        'choices.5.name duplicate_choice',
      ]);
    });

    it('a duplicate question name in the same context (NAMES_001: row 3)', async () => {
      const md = `
        | survey |
        | | type | name | label |
        | | text | q1   | Q1    |
        | | text | q1   | Q2    |`;
      expect(await refusals(await workbookOf(md))).to.deep.equal(['survey.3.name duplicate_name']);
    });

    it('the same name in another group: allowed by pyxform, refused here (names are unique in a form)', async () => {
      const md = `
        | survey |
        | | type        | name | label |
        | | text        | q1   | Q1    |
        | | begin group | g1   | G1    |
        | | text        | q1   | Q1    |
        | | end group   |      |       |`;
      expect(await refusals(await workbookOf(md))).to.deep.equal(['survey.4.name duplicate_name']);
    });

    it('a name that is not an identifier (NAMES_008), and one with a hyphen XML allows', async () => {
      const md = `
        | survey |
        | | type | name   | label |
        | | text | 1q     | Q1    |
        | | text | a-b    | Q2    |`;
      expect(await refusals(await workbookOf(md))).to.deep.equal([
        'survey.2.name invalid_name',
        'survey.3.name invalid_name',
      ]);
    });

    it('a reference to a name not in the survey (PYREF_003) and a malformed one (PYREF_001)', async () => {
      const md = `
        | survey |
        | | type | name | label | relevant      |
        | | text | q1   | Q1    | \${q2} = 'x'  |
        | | text | q3   | Q3    | \${q1 = 'x'   |`;
      const res = await upload(await workbookOf(md)).expect(422);
      const issues = res.body.xlsform_errors as Refusal[];
      expect(issues.map((i) => `${i.key} ${i.reason}`)).to.deep.equal([
        'survey.2.relevant unknown_reference',
        'survey.3.relevant syntax',
      ]);
      expect(issues[0]!.values).to.deep.equal({ position: 1 });
      expect(res.body.errors['survey.2.relevant'][0]).to.contain('${q2}');
    });

    it("a missing required column (HEADER_003), an unmatched 'end_group' and an unmatched 'begin_repeat'", async () => {
      expect(
        await refusals(await workbookOf('| survey |\n| | type | label |\n| | text | Q |')),
      ).to.deep.equal(['survey.1 missing_column']);
      const md = `
        | survey |
        | | type         | name | label |
        | | end group    |      |       |
        | | begin repeat | r    | R     |
        | | text         | q    | Q     |`;
      expect(await refusals(await workbookOf(md))).to.deep.equal([
        'survey.2.type unmatched_end',
        'survey.3.type unclosed_begin',
      ]);
    });

    it('a list name not in the choices sheet (xls2json: "List name not in choices sheet")', async () => {
      const md = `
        | survey |
        | | type              | name | label |
        | | select_one colors | c    | C     |
        | choices |
        | | list_name | name | label |
        | | sizes     | s    | S     |`;
      expect(await refusals(await workbookOf(md))).to.deep.equal(['survey.2.type unknown_list']);
    });
  });

  describe('refusals by name, never dropped', () => {
    it('lists every unsupported type, column, appearance and value by cell', async () => {
      const md = `
        | survey |
        | | type     | name | label | media::image | appearance   | read_only   | notes |
        | | audio    | when | When  |              |              |             |       |
        | | text     | a    | A     | a.png        |              |             |       |
        | | text     | b    | B     |              | autocomplete |             |       |
        | | text     | c    | C     |              |              | \${a} = 'x' |       |
        | | barcode  | d    | D     |              |              |             | hello |
        | | wibble   | e    | E     |              |              |             |       |`;
      expect(await refusals(await workbookOf(md))).to.deep.equal([
        'survey.1.media::image unsupported_column',
        'survey.1.notes unknown_column',
        'survey.2.type unsupported_type',
        'survey.4.appearance unsupported_appearance',
        'survey.5.read_only read_only_expression',
        'survey.6.type unsupported_type',
        'survey.7.type unknown_type',
      ]);
    });

    it('names a language without a code, and texts with and without languages without default_language', async () => {
      const md = `
        | survey |
        | | type | name | label::Klingon | label::English (en) | label::French (fr) | hint |
        | | text | a    | A              | A                   | A                  | h    |`;
      expect(await refusals(await workbookOf(md))).to.deep.equal([
        'survey.1.label::Klingon language_code',
        'settings.1.default_language default_language_needed',
      ]);
    });

    it('refuses formulas and spreadsheet error values by cell (a form is written as values)', async () => {
      const md = `
        | survey |
        | | type | name | label | required |
        | | text | a    | A     | =TRUE()  |`;
      expect(await refusals(await workbookOf(md))).to.deep.equal(['survey.2.required formula']);
    });

    it('keeps a text the default language lacks as a refusal on its column', async () => {
      const md = `
        | survey |
        | | type | name | label::English (en) | label::French (fr) |
        | | text | a    |                     | Seulement français |
        | settings |
        | | default_language |
        | | English (en)     |`;
      const issues = await refusals(await workbookOf(md));
      expect(issues).to.deep.equal(['survey.2.label::English (en) invalid']);
    });
  });

  describe('hostile workbooks', () => {
    it('refuses a file that is not a zip, and a zip that is not a workbook (422 not_xlsx)', async () => {
      expect(await refusals(Buffer.from('type,name,label\ntext,a,A\n'))).to.deep.equal(['file not_xlsx']);
      expect(await refusals(zipOf([{ name: 'readme.txt', data: Buffer.from('hello') }]))).to.deep.equal([
        'file not_xlsx',
      ]);
      const truncated = (await household()).subarray(0, 2000);
      expect(await refusals(truncated)).to.deep.equal(['file not_xlsx']);
    });

    it('refuses a zip bomb, whether its sizes are declared or lied about (413 xlsform_too_large)', async () => {
      const big = Buffer.alloc(30 * 1024 * 1024, 0x20);
      const honest = zipOf([
        { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
        { name: 'xl/workbook.xml', data: big },
      ]);
      const lying = zipOf([
        { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
        { name: 'xl/workbook.xml', data: big, declared: 1000 },
      ]);
      expect(honest.length).to.be.below(100 * 1024);
      for (const bomb of [honest, lying]) {
        const res = await upload(bomb).expect(413);
        expect(res.body).to.include({ code: 'xlsform_too_large', max_bytes: 20 * 1024 * 1024 });
      }
    });

    it('refuses a file over 5 MiB (413) and a sheet over 20,000 rows (422 too_many_rows)', async function () {
      // Writing and reading 20,001 rows takes seconds on a loaded machine; the refusal is the point.
      this.timeout(120_000);
      const res = await upload(Buffer.alloc(5 * 1024 * 1024 + 1, 1)).expect(413);
      expect(res.body.code).to.equal('xlsform_too_large');
      const rows = Array.from({ length: 20_001 }, (_, i) => ({ type: 'text', name: `q${i}`, label: 'Q' }));
      expect(await refusals(await workbookFrom({ survey: rows }))).to.deep.equal(['survey too_many_rows']);
    });

    it('refuses a multipart body without the xlsform part (422) or with another file part (400)', async () => {
      const none = await h
        .as(alice)
        .post(`/api/v1/projects/${project}/versions`)
        .field('name', 'x')
        .expect(422);
      expect(none.body.xlsform_errors.map((i: Refusal) => i.reason)).to.deep.equal(['missing_file']);
      await h
        .as(alice)
        .post(`/api/v1/projects/${project}/versions`)
        .attach('other', Buffer.from('x'), 'x.xlsx')
        .expect(400);
    });
  });

  describe('access', () => {
    it('refuses before reading the workbook: a stranger 404, a collector 403; nothing is created', async () => {
      await addMember(h, alice, ws, bob, 'collector');
      const before = (await h.as(alice).get(`/api/v1/projects/${project}/versions`).expect(200)).body
        .pagination.total;
      await upload(Buffer.from('not a workbook'), mallory).expect(404);
      await upload(Buffer.from('not a workbook'), bob).expect(403);
      await upload(Buffer.from('not a workbook')).expect(422);
      const after = (await h.as(alice).get(`/api/v1/projects/${project}/versions`).expect(200)).body
        .pagination.total;
      expect(after).to.equal(before);
    });

    it('gives the workbook to whoever reads the version; a stranger 404', async () => {
      const version = (await upload(await household()).expect(201)).body.data;
      await h.as(bob).get(`/api/v1/versions/${version.id}/xlsform`).expect(200);
      await h.as(mallory).get(`/api/v1/versions/${version.id}/xlsform`).expect(404);
    });
  });
});

/** Reads a binary answer whole (supertest buffers only text by default). */
function binary(
  res: { on(event: string, listener: (chunk: Buffer) => void): unknown },
  done: (err: Error | null, body: unknown) => void,
) {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}
