import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { eventually, expectPayloadMatchesAsyncApi, outboxWebhookBodies } from '@fieldhouse/testkit';
import { collectionAsyncApiDocument } from '../src/http/asyncapi-route.ts';
import {
  cast,
  startExportPipeline,
  publishForm,
  startHarness,
  type ExportPipeline,
  type Harness,
  type TestUser,
} from './harness.ts';

/**
 * Issue 34, item 4: exports, search and analyses of a form with groups and repeats (one table
 * per repeat joined by key, labels in a language). The form, in English and French:
 * household (text), a group `where` holding village (select_one), a note, and a repeat
 * `members` (name, age, home geopoint) holding a repeat `visits` (day).
 */
describe('collection: groups and repeats downstream (exports, search, analyses)', () => {
  // alice owns the workspace, bob collects, dave views.
  const { alice, bob, dave } = cast;
  let h: Harness;
  let pipeline: ExportPipeline;
  let projectId: number;
  let versionId: number;
  const uuid: Record<string, string> = {};
  const ids: number[] = [];
  /** The webhook bodies the submissions queued (read before the relay drains the outbox). */
  let webhookBodies: Awaited<ReturnType<typeof outboxWebhookBodies>> = [];

  const fields = [
    { name: 'household', label: { en: 'Household', fr: 'Ménage' }, type: 'text', required: true },
    { name: 'where', label: { en: 'Where', fr: 'Où' }, type: 'group' },
    {
      name: 'village',
      label: { en: 'Village', fr: 'Village' },
      type: 'select_one',
      parent: 'where',
      choices: [
        { value: 'north', label: { en: 'North', fr: 'Nord' } },
        { value: 'south', label: { en: 'South', fr: 'Sud' } },
      ],
    },
    { name: 'intro', label: { en: 'About the members', fr: 'Les membres' }, type: 'note' },
    { name: 'members', label: { en: 'Members', fr: 'Membres' }, type: 'repeat' },
    { name: 'member_name', label: { en: 'Name', fr: 'Nom' }, type: 'text', parent: 'members' },
    { name: 'member_age', label: { en: 'Age', fr: 'Âge' }, type: 'integer', parent: 'members' },
    { name: 'home', label: { en: 'Home', fr: 'Domicile' }, type: 'geopoint', parent: 'members' },
    { name: 'visits', label: { en: 'Visits', fr: 'Visites' }, type: 'repeat', parent: 'members' },
    { name: 'visit_day', label: { en: 'Day', fr: 'Jour' }, type: 'date', parent: 'visits' },
    {
      name: 'reasons',
      label: { en: 'Reasons', fr: 'Raisons' },
      type: 'select_multiple',
      parent: 'visits',
      choices: [
        { value: 'health', label: { en: 'Health', fr: 'Santé' } },
        { value: 'school', label: { en: 'School', fr: 'École' } },
      ],
    },
  ];

  const entry = (name: string, value: unknown) => ({
    field_uuid: uuid[name]!,
    type: fields.find((f) => f.name === name)!.type,
    value,
  });

  before(async () => {
    h = await startHarness();
    pipeline = await startExportPipeline(h, 'collection-repeat-exports');
    const form = await publishForm(h, alice, fields, {
      names: { workspace: 'Survey', project: 'Households' },
      version: { languages: ['en', 'fr'], default_language: 'en' },
      members: [
        [bob, 'collector'],
        [dave, 'viewer'],
      ],
    });
    projectId = form.projectId;
    versionId = form.versionId;
    for (const [name, f] of Object.entries(form.fields)) uuid[name] = f.uuid;
    await h
      .as(alice)
      .post(`/api/v1/workspaces/${form.workspaceId}/webhooks`)
      .send({ url: 'https://hooks.example.test/survey', events: ['submission.created'] })
      .expect(201);
    const post = async (user: TestUser, data: unknown[]) => {
      const r = await h
        .as(user)
        .post(`/api/v1/projects/${projectId}/submissions`)
        .send({ form_version_id: versionId, latitude: 48.85, longitude: 2.35, data });
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
      ids.push(r.body.data.id as number);
    };
    await post(bob, [
      entry('household', 'Lovelace'),
      entry('village', 'north'),
      entry('members', [
        [
          entry('member_name', 'Bea'),
          entry('member_age', 30),
          entry('home', [10.5, 20.25]),
          entry('visits', [
            [entry('visit_day', '2024-01-01'), entry('reasons', ['health', 'school'])],
            [entry('visit_day', '2024-02-01')],
          ]),
        ],
        [entry('member_name', 'Quentin'), entry('member_age', 5)],
      ]),
    ]);
    await post(bob, [
      entry('household', 'Hopper'),
      entry('village', 'south'),
      entry('members', [[entry('member_name', 'Zed'), entry('member_age', 30)]]),
    ]);
    await post(bob, [entry('household', 'Turing'), entry('village', 'north'), entry('members', null)]);
    webhookBodies = await outboxWebhookBodies(h.db);
    // created_at in order (the export reads the oldest first)
    for (const [i, id] of ids.entries())
      await h
        .db('submissions')
        .where({ id })
        .update({ created_at: `2025-03-0${i + 1}T10:00:00Z` });
  });
  after(async () => {
    await pipeline?.stop();
    await h?.close();
  });

  /** Requests an export as dave, relays its message and waits for the worker to finish it. */
  async function exportNow(format: string, options: object = {}) {
    const res = await h
      .as(dave)
      .post(`/api/v1/projects/${projectId}/submissions/export`)
      .send({ format, options })
      .expect(202);
    const jobId = res.body.data.job_id as string;
    await pipeline.relay.drain();
    const job = await eventually(async () => {
      const s = await h.as(dave).get(`/api/v1/exports/${jobId}`).expect(200);
      return ['completed', 'failed'].includes(s.body.data.status) ? s.body.data : null;
    });
    expect(job).to.include({ status: 'completed', rows_written: 3, error: null });
    const file = await h
      .as(dave)
      .get(`/api/v1/exports/${jobId}/download`)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      })
      .expect(200);
    return { headers: file.headers, bytes: file.body as Buffer };
  }
  const csv = (text: string) => parse(text, { columns: true }) as Array<Record<string, string>>;

  it("sends a repeat's instances nested in the webhook payload, as the AsyncAPI document describes them", () => {
    const created = webhookBodies.find(
      (b) =>
        b.type === 'submission.created' &&
        (b.data as { submission: { id: number } }).submission.id === ids[0],
    )!;
    expectPayloadMatchesAsyncApi(collectionAsyncApiDocument, 'submission.created', created);
    const data = (created.data as { submission: { data: Array<{ field_uuid: string; value: unknown }> } })
      .submission.data;
    const members = data.find((e) => e.field_uuid === uuid.members)!.value as unknown[][];
    expect(members).to.have.length(2);
    expect(members[1]).to.deep.equal([entry('member_name', 'Quentin'), entry('member_age', 5)]);
    // a repeat whose value is not a list of instances is outside the described shape
    const broken = structuredClone(created) as typeof created & {
      data: { submission: { data: Array<{ field_uuid: string; value: unknown }> } };
    };
    broken.data.submission.data.find((e) => e.field_uuid === uuid.members)!.value = 'two members';
    expect(() =>
      expectPayloadMatchesAsyncApi(collectionAsyncApiDocument, 'submission.created', broken),
    ).to.throw();
  });

  it('exports the CSV of a form with repeats as a zip of one CSV per table', async () => {
    const { headers, bytes } = await exportNow('csv');
    expect(headers['content-type']).to.equal('application/zip');
    expect(headers['content-disposition']).to.match(/households-\d{4}-\d{2}-\d{2}\.zip/);
    const zip = await JSZip.loadAsync(bytes);
    const names = Object.keys(zip.files).sort();
    expect(names).to.have.length(3);
    expect(names.map((n) => n.replace(/^households-\d{4}-\d{2}-\d{2}/, ''))).to.deep.equal([
      '-members.csv',
      '-visits.csv',
      '.csv',
    ]);
  });

  it('gives the submissions table the answers outside repeats, group members included, and no column to groups, repeats or notes', async () => {
    const zip = await JSZip.loadAsync((await exportNow('csv')).bytes);
    const main = Object.keys(zip.files).find((n) => /\d\.csv$/.test(n))!;
    const text = await zip.file(main)!.async('string');
    expect(text.split('\n')[0]).to.equal(
      'id,status,collector_id,collector_name,form_version,created_at,updated_at,latitude,longitude,household,village',
    );
    expect(csv(text).map((r) => [r.id, r.household, r.village])).to.deep.equal([
      [String(ids[0]), 'Lovelace', 'north'],
      [String(ids[1]), 'Hopper', 'south'],
      [String(ids[2]), 'Turing', 'north'],
    ]);
  });

  it("writes one row per repeat instance keyed as ODK Central's KEY and PARENT_KEY, nested repeats in their own table", async () => {
    const zip = await JSZip.loadAsync((await exportNow('csv')).bytes);
    const read = async (suffix: string) =>
      csv(await zip.file(Object.keys(zip.files).find((n) => n.endsWith(suffix))!)!.async('string'));
    const [a, b] = ids;
    expect(await read('-members.csv')).to.deep.equal([
      {
        submission_id: String(a),
        parent_key: String(a),
        key: `${a}/members[1]`,
        member_name: 'Bea',
        member_age: '30',
        home_latitude: '10.5',
        home_longitude: '20.25',
        home_altitude: '',
        home_precision: '',
      },
      {
        submission_id: String(a),
        parent_key: String(a),
        key: `${a}/members[2]`,
        member_name: 'Quentin',
        member_age: '5',
        home_latitude: '',
        home_longitude: '',
        home_altitude: '',
        home_precision: '',
      },
      {
        submission_id: String(b),
        parent_key: String(b),
        key: `${b}/members[1]`,
        member_name: 'Zed',
        member_age: '30',
        home_latitude: '',
        home_longitude: '',
        home_altitude: '',
        home_precision: '',
      },
    ]);
    expect(await read('-visits.csv')).to.deep.equal([
      {
        submission_id: String(a),
        parent_key: `${a}/members[1]`,
        key: `${a}/members[1]/visits[1]`,
        visit_day: '2024-01-01',
        reasons: 'health school',
      },
      {
        submission_id: String(a),
        parent_key: `${a}/members[1]`,
        key: `${a}/members[1]/visits[2]`,
        visit_day: '2024-02-01',
        reasons: '',
      },
    ]);
  });

  it('writes one xlsx sheet per table, numbers as numbers', async () => {
    const { bytes } = await exportNow('xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
    expect(book.worksheets.map((s) => s.name)).to.deep.equal(['submissions', 'members', 'visits']);
    const members = book.getWorksheet('members')!;
    expect(members.rowCount).to.equal(4);
    const header = (members.getRow(1).values as unknown[]).slice(1).map((v) => JSON.stringify(v));
    expect(header[2]).to.include('key');
    expect(members.getRow(2).getCell(5).value).to.equal(30);
    expect(JSON.stringify(members.getRow(3).getCell(3).value)).to.include(`${ids[0]}/members[2]`);
    expect(book.getWorksheet('submissions')!.rowCount).to.equal(4);
    expect(book.getWorksheet('visits')!.rowCount).to.equal(3);
  });

  it("adds a GeoJSON point for each repeat instance's geopoint, its id the instance key", async () => {
    const geo = JSON.parse((await exportNow('geojson')).bytes.toString('utf8')) as {
      features: Array<{
        id: unknown;
        geometry: { coordinates: number[] } | null;
        properties: Record<string, unknown>;
      }>;
    };
    expect(geo.features.map((f) => f.id)).to.deep.equal([
      ids[0],
      ids[1],
      ids[2],
      `${ids[0]}/members[1]`,
      `${ids[0]}/members[2]`,
      `${ids[1]}/members[1]`,
    ]);
    expect(geo.features[3]!.geometry).to.deep.equal({ type: 'Point', coordinates: [20.25, 10.5] });
    expect(geo.features[3]!.properties).to.include({ member_name: 'Bea', member_age: 30 });
    expect(geo.features[4]!.geometry).to.equal(null);
  });

  it('writes the label headers in the requested language, the default language without lang', async () => {
    const fr = await JSZip.loadAsync(
      (await exportNow('csv', { header: 'labels', lang: 'fr', choice_columns: true })).bytes,
    );
    const en = await JSZip.loadAsync((await exportNow('csv', { header: 'labels' })).bytes);
    const header = async (zip: JSZip, suffix: RegExp) =>
      (await zip.file(Object.keys(zip.files).find((n) => suffix.test(n))!)!.async('string')).split('\n')[0];
    expect(await header(fr, /\d\.csv$/)).to.match(/,Ménage,Village$/);
    expect(await header(en, /\d\.csv$/)).to.match(/,Household,Village$/);
    expect(await header(fr, /-visits\.csv$/)).to.equal(
      'Submission ID,Parent key,Key,Jour,Raisons,Raisons (Santé),Raisons (École)',
    );
    expect(await header(fr, /-members\.csv$/)).to.equal(
      'Submission ID,Parent key,Key,Nom,Âge,Domicile (latitude),Domicile (longitude),Domicile (altitude),Domicile (precision)',
    );
  });

  it('finds a submission by an answer inside a repeat instance', async () => {
    const r = await h.as(dave).get(`/api/v1/projects/${projectId}/submissions?search=quentin`).expect(200);
    expect(r.body.data.map((s: { id: number }) => s.id)).to.deep.equal([ids[0]]);
  });

  it('counts the answers of a field inside a repeat across every instance in a histogram', async () => {
    const a = await h
      .as(alice)
      .post(`/api/v1/projects/${projectId}/analyses`)
      .send({ name: 'Ages', charts: [{ title: 'Ages', kind: 'histogram', field: 'member_age', bins: 2 }] })
      .expect(201);
    const charts = await h.as(dave).get(`/api/v1/analyses/${a.body.data.id}/charts`).expect(200);
    const [chart] = charts.body.data as Array<{
      data: Array<{ count: number }>;
      vega_lite: { encoding: { y: { title: string } } };
    }>;
    expect(chart!.data.map((r) => r.count)).to.deep.equal([1, 2]);
    expect(chart!.vega_lite.encoding.y.title).to.equal('answers');
  });

  it('draws one map point per repeat instance whose geopoint is answered, with its submission id', async () => {
    const a = await h
      .as(alice)
      .post(`/api/v1/projects/${projectId}/analyses`)
      .send({ name: 'Homes', charts: [{ title: 'Homes', kind: 'map', field: 'home' }] })
      .expect(201);
    const charts = await h.as(dave).get(`/api/v1/analyses/${a.body.data.id}/charts`).expect(200);
    expect(charts.body.data[0].data).to.deep.equal([{ id: ids[0], latitude: 10.5, longitude: 20.25 }]);
  });

  it('labels choice counts in the requested language with lang, and by value without', async () => {
    const a = await h
      .as(alice)
      .post(`/api/v1/projects/${projectId}/analyses`)
      .send({ name: 'Villages', charts: [{ title: 'Villages', kind: 'choice_counts', field: 'village' }] })
      .expect(201);
    const fr = await h.as(dave).get(`/api/v1/analyses/${a.body.data.id}/charts?lang=fr`).expect(200);
    expect(fr.body.data[0].data).to.deep.equal([
      { value: 'north', count: 2, label: 'Nord' },
      { value: 'south', count: 1, label: 'Sud' },
    ]);
    expect(fr.body.data[0].vega_lite.encoding.x).to.include({ field: 'label', title: 'Village' });
    const plain = await h.as(dave).get(`/api/v1/analyses/${a.body.data.id}/charts`).expect(200);
    expect(plain.body.data[0].data).to.deep.equal([
      { value: 'north', count: 2 },
      { value: 'south', count: 1 },
    ]);
    const svg = await h
      .as(dave)
      .get(fr.body.data[0].svg_url)
      .buffer(true)
      .parse((r, cb) => {
        let t = '';
        r.on('data', (c: Buffer) => (t += c.toString('utf8')));
        r.on('end', () => cb(null, t));
      })
      .expect(200);
    expect(fr.body.data[0].svg_url).to.match(/\?lang=fr$/);
    expect(svg.body as string).to.include('Nord');
  });
});
