import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { Broker, OutboxRelay } from '@fieldhouse/messaging';
import { createKnex } from '@fieldhouse/db';
import { backingUrl, eventually, randomPrefix, sleep, testLogger } from '@fieldhouse/testkit';
import { FileBlobStore, type BlobStore } from '../src/blob/blob-store.ts';
import { upsertUser } from '../src/data/users.ts';
import { attachmentDisposition, exportFileName, nameSlug } from '../src/domain/export-names.ts';
import {
  runExportJob,
  startExportWorker,
  sweepExports,
  type ExportSettings,
} from '../src/workers/exports.ts';
import {
  addMember,
  allTypeFields,
  body,
  cast,
  makeForm,
  PNG,
  startHarness,
  type Form,
  type Harness,
  type TestUser,
} from './harness.ts';

/** A blob store that fails export writes while `failing` is set (the failure path). */
class FlakyBlobs implements BlobStore {
  failing = false;
  /** How many photo reads to break half-way (a store that fails mid-stream). */
  brokenPhotoReads = 0;
  private readonly inner: FileBlobStore;
  constructor(root: string) {
    this.inner = new FileBlobStore(root);
  }
  put(key: string, bytes: Buffer) {
    return this.inner.put(key, bytes);
  }
  delete(key: string) {
    return this.inner.delete(key);
  }
  async getStream(key: string) {
    const got = await this.inner.getStream(key);
    if (!got || !key.startsWith('photos/') || this.brokenPhotoReads <= 0) return got;
    this.brokenPhotoReads--;
    got.stream.destroy();
    const broken = new PassThrough();
    broken.write(Buffer.alloc(8));
    setImmediate(() => broken.destroy(new Error('the store broke the connection')));
    return { stream: broken, size: got.size };
  }
  async putStream(key: string, source: Readable) {
    if (this.failing) {
      source.resume();
      throw new Error('disk full');
    }
    return this.inner.putStream(key, source);
  }
}

describe('collection: exports (CSV through RabbitMQ, blob store, expiry)', () => {
  // alice owns the workspace, bob and carol collect, dave views, erin manages; frank and grace
  // join as viewers later; ivan is a stranger to the workspace.
  const { alice, bob, carol, dave, erin, frank, grace, ivan } = cast;
  const logger = testLogger('collection-exports');
  const settings: ExportSettings = {
    ttlHours: 1,
    leaseMs: 1_000,
    heartbeatMs: 100,
    publicUrl: 'https://fieldhouse.example.org',
  };
  let h: Harness;
  let form: Form;
  let broker: Broker;
  let relay: OutboxRelay;
  let blobs: FlakyBlobs;
  let worker: { close: () => Promise<void> };
  const ids: number[] = [];

  before(async () => {
    h = await startHarness();
    broker = new Broker({
      url: await backingUrl('amqp'),
      logger,
      name: 'collection-exports-test',
      prefix: randomPrefix('coll-exp'),
    });
    relay = new OutboxRelay({ knex: h.db, table: 'outbox', broker, logger });
    blobs = new FlakyBlobs(h.blobDir);
    worker = await startExportWorker({ broker, db: h.db, blobs, logger, settings, retryDelaysMs: [20, 20] });
    form = await makeForm(h, alice);
    await addMember(h, alice, form.workspaceId, bob, 'collector');
    await addMember(h, alice, form.workspaceId, carol, 'collector');
    await addMember(h, alice, form.workspaceId, dave, 'viewer');
    await addMember(h, alice, form.workspaceId, erin, 'manager');
    const post = async (user: TestUser, extra: Record<string, unknown>, top: object = {}) => {
      const r = await h
        .as(user)
        .post(`/api/v1/projects/${form.projectId}/submissions`)
        .send(body(form, extra, top))
        .expect(201);
      ids.push(r.body.data.id as number);
    };
    await post(bob, {
      full_name: 'Zebulon, "the" first',
      weight: 72.5,
      colour: 'red',
      fruits: ['apple', 'kiwi'],
      place: [48.8, 2.3, 35, 5],
      visit_date: '2024-02-29',
      picture: PNG.toString('base64'),
    });
    await post(bob, { full_name: 'Bea', fruits: [] }, { status: 'draft' });
    await post(carol, { full_name: 'Cyd', place: [10, 20] }, { latitude: null, longitude: null });
    await post(carol, { full_name: 'Dee\nline two', code: 'ABC-12' });
    // Spread over days for the date filters.
    await h.db('submissions').where({ id: ids[0] }).update({ created_at: '2025-01-10T08:00:00Z' });
    await h.db('submissions').where({ id: ids[1] }).update({ created_at: '2025-01-15T23:59:59Z' });
    await h.db('submissions').where({ id: ids[2] }).update({ created_at: '2025-01-20T00:00:00Z' });
  });
  after(async () => {
    // `broker` last: the killed worker's broker shares its queues
    await worker?.close();
    await relay?.stop();
    await broker?.close();
    await h?.close();
  });

  const request = (filters: object = {}, user = dave) =>
    h.as(user).post(`/api/v1/projects/${form.projectId}/submissions/export`).send({ format: 'csv', filters });

  /** Requests an export, relays its message and waits for the worker to finish it. */
  async function exportNow(
    filters: object = {},
    user = dave,
    format = 'csv',
    { projectId = form.projectId, options }: { projectId?: number; options?: object } = {},
  ) {
    const res = await h
      .as(user)
      .post(`/api/v1/projects/${projectId}/submissions/export`)
      .send({ format, filters, ...(options ? { options } : {}) })
      .expect(202);
    expect(res.body.status).to.equal('success');
    const jobId = res.body.data.job_id as string;
    await relay.drain();
    const done = await eventually(async () => {
      const s = await h.as(user).get(`/api/v1/exports/${jobId}`).expect(200);
      return ['completed', 'failed'].includes(s.body.data.status) ? s.body.data : null;
    });
    return { jobId, job: done };
  }
  const download = async (jobId: string, user = dave) => {
    const res = await h
      .as(user)
      .get(`/api/v1/exports/${jobId}/download`)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks).toString('utf8')));
      });
    return res;
  };
  const csvRows = (text: string) => parse(text, { columns: true }) as Array<Record<string, string>>;

  it('writes every submission as a CSV row, checked column by column against the stored rows', async () => {
    const { jobId, job } = await exportNow();
    expect(job).to.include({ status: 'completed', rows_written: 4, total_rows: 4, progress: 1, error: null });
    const res = await download(jobId);
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^text\/csv/);
    const text = res.body as string;
    const header = text.split('\n')[0]!.split(',');
    expect(header).to.deep.equal([
      'id',
      'status',
      'collector_id',
      'collector_name',
      'form_version',
      'created_at',
      'updated_at',
      'latitude',
      'longitude',
      'full_name',
      'code',
      'age',
      'weight',
      'visit_date',
      'visit_time',
      'colour',
      'fruits',
      'place_latitude',
      'place_longitude',
      'place_altitude',
      'place_precision',
      'picture',
    ]);
    const rows = csvRows(text);
    const stored = await h
      .db('submissions as s')
      .leftJoin('users as u', 'u.id', 's.collector_id')
      .where('s.project_id', form.projectId)
      .orderBy([{ column: 's.created_at' }, { column: 's.id' }])
      .select('s.*', 'u.name as collector_name');
    expect(rows).to.have.length(stored.length);
    const uuidOf = (name: string) => form.fields[name]!.uuid;
    for (const [i, s] of stored.entries()) {
      const row = rows[i]!;
      const value = (name: string) =>
        (s.data as Array<{ field_uuid: string; value: unknown }>).find((e) => e.field_uuid === uuidOf(name))
          ?.value;
      const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));
      expect(row.id).to.equal(String(s.id));
      expect(row.status).to.equal(s.status);
      expect(row.collector_id).to.equal(String(s.collector_id));
      expect(row.collector_name).to.equal(s.collector_name);
      expect(row.form_version).to.equal('1');
      expect(row.created_at).to.equal((s.created_at as Date).toISOString());
      expect(row.updated_at).to.equal((s.updated_at as Date).toISOString());
      expect(row.latitude).to.equal(str(s.latitude));
      expect(row.longitude).to.equal(str(s.longitude));
      for (const name of ['full_name', 'code', 'age', 'weight', 'visit_date', 'visit_time', 'colour'])
        expect(row[name], name).to.equal(str(value(name)));
      expect(row.fruits).to.equal(str((value('fruits') as string[] | undefined)?.join(' ')));
      const place = (value('place') as number[] | undefined) ?? [];
      for (const [k, part] of ['latitude', 'longitude', 'altitude', 'precision'].entries())
        expect(row[`place_${part}`]).to.equal(str(place[k]));
      // Photo cells: the photo's API URL, absolute with PUBLIC_URL.
      const url = (value('picture') as { url?: string } | undefined)?.url;
      expect(row.picture).to.equal(url ? `${settings.publicUrl}${url}` : '');
    }
    expect(rows[0]!.full_name).to.equal('Zebulon, "the" first');
    expect(rows[0]!.fruits).to.equal('apple kiwi');
    expect(rows[0]!.picture).to.match(/^https:\/\/fieldhouse\.example\.org\/api\/v1\/photos\/[0-9a-f-]{36}$/);
    expect(rows[0]!.created_at).to.equal('2025-01-10T08:00:00.000Z');
    expect(rows[3]!.full_name).to.equal('Dee\nline two');
  });

  /**
   * Own project: v1 with the test form; v2 a copy with a new field and a new choice. Its
   * submissions: `a` complete, `b` the same answers reordered, `c` partial, `d` of version 2.
   */
  const twoVersionProject = async () => {
    const f2 = await makeForm(h, alice);
    const full = {
      full_name: 'Full',
      code: 'ABC-12',
      age: 40,
      weight: 70.25,
      visit_date: '2024-03-01',
      visit_time: '08:30:00',
      colour: 'blue',
      fruits: ['pear', 'kiwi'],
      place: [1.5, -2.25, 10, 3],
      picture: PNG.toString('base64'),
    };
    const post = async (payload: object) =>
      (await h.as(alice).post(`/api/v1/projects/${f2.projectId}/submissions`).send(payload).expect(201)).body
        .data.id as number;
    const inOrder = body(f2, full); // every field, in form order
    const ordered = {
      ...inOrder,
      data: allTypeFields.map((f) => inOrder.data.find((e) => e.field_uuid === f2.fields[f.name]!.uuid)!),
    };
    const a = await post(ordered);
    const b = await post({ ...ordered, data: [...ordered.data].reverse() });
    const c = await post(body(f2, { fruits: [] }));
    const v2 = (
      await h
        .as(alice)
        .post(`/api/v1/projects/${f2.projectId}/versions`)
        .send({ copy_last_published: true })
        .expect(201)
    ).body.data;
    const v2Fields = (await h.as(alice).get(`/api/v1/versions/${v2.id}/fields`).expect(200)).body
      .data as Array<{
      id: number;
      name: string;
      uuid: string;
      type: string;
    }>;
    const fruits = v2Fields.find((f) => f.name === 'fruits')!;
    await h
      .as(alice)
      .put(`/api/v1/versions/${v2.id}/fields/${fruits.id}`)
      .send({
        choices: [
          { value: 'mango', label: 'Mango' },
          { value: 'apple', label: 'Apple' },
          { value: 'pear', label: 'Pear' },
          { value: 'kiwi', label: 'Kiwi' },
        ],
      })
      .expect(200);
    await h
      .as(alice)
      .post(`/api/v1/versions/${v2.id}/fields`)
      .send({ name: 'remark', label: 'Remark', type: 'text' })
      .expect(201);
    await h.as(alice).post(`/api/v1/versions/${v2.id}/publish`).expect(200);
    const v2All = (await h.as(alice).get(`/api/v1/versions/${v2.id}/fields`).expect(200)).body
      .data as typeof v2Fields;
    // Every v2 field, in v2 form order: the row PostgreSQL reads by position.
    const v2Values: Record<string, unknown> = { ...full, fruits: ['mango'], remark: 'v2, "quoted"' };
    const d = await post({
      ...body(f2),
      form_version_id: v2.id,
      data: v2All.map((f) => ({ field_uuid: f.uuid, type: f.type, value: v2Values[f.name] })),
    });
    return { f2, a, b, c, d };
  };

  it('reads complete, reordered, partial and older-version submissions alike (choice columns on request)', async () => {
    const { f2, a, b, c, d } = await twoVersionProject();
    const { jobId, job } = await exportNow({}, alice, 'csv', {
      projectId: f2.projectId,
      options: { choice_columns: true },
    });
    expect(job).to.include({ status: 'completed', rows_written: 4 });
    expect(job.options).to.deep.equal({ choice_columns: true });
    const rows = csvRows((await download(jobId, alice)).body as string);
    expect(rows.map((r) => Number(r.id))).to.deep.equal([a, b, c, d]);
    const fieldColumns = (r: Record<string, string>) =>
      Object.fromEntries(Object.entries(r).filter(([k]) => !['id', 'created_at', 'updated_at'].includes(k)));
    // Same answers in another order: same row.
    expect(fieldColumns(rows[1]!)).to.deep.include({ ...fieldColumns(rows[0]!), picture: rows[1]!.picture });
    expect(rows[0]).to.include({
      full_name: 'Full',
      code: 'ABC-12',
      age: '40',
      weight: '70.25',
      visit_date: '2024-03-01',
      visit_time: '08:30:00',
      colour: 'blue',
      fruits: 'pear kiwi',
      'fruits/mango': '0',
      'fruits/apple': '0',
      'fruits/pear': '1',
      'fruits/kiwi': '1',
      place_latitude: '1.5',
      place_longitude: '-2.25',
      place_altitude: '10',
      place_precision: '3',
      remark: '',
      form_version: '1',
    });
    expect(rows[0]!.picture).to.match(/^https:\/\/fieldhouse\.example\.org\/api\/v1\/photos\/[0-9a-f-]{36}$/);
    // Partial: missing values empty; an empty select_multiple has every choice 0.
    expect(rows[2]).to.include({
      full_name: 'Ada',
      code: '',
      fruits: '',
      'fruits/kiwi': '0',
      place_latitude: '',
      picture: '',
    });
    // Version 2: its new field and choice.
    expect(fieldColumns(rows[3]!)).to.deep.include({
      ...fieldColumns(rows[0]!),
      picture: rows[3]!.picture,
      form_version: '2',
      remark: 'v2, "quoted"',
      fruits: 'mango',
      'fruits/mango': '1',
      'fruits/pear': '0',
      'fruits/kiwi': '0',
    });
    expect(Object.keys(rows[0]!).slice(-4)).to.deep.equal([
      'place_altitude',
      'place_precision',
      'picture',
      'remark',
    ]);
  });

  it('writes the field labels as the header on request', async () => {
    const { f2 } = await twoVersionProject();
    const labelled = await exportNow({}, alice, 'csv', {
      projectId: f2.projectId,
      options: { header: 'labels' },
    });
    const text = (await download(labelled.jobId, alice)).body as string;
    expect(text.split('\n')[0]).to.equal(
      'ID,Status,Collector ID,Collector,Form version,Created at,Updated at,Latitude,Longitude,Name,Code,Age,Weight,Date,Time,Colour,Fruits,' +
        'Place (latitude),Place (longitude),Place (altitude),Place (precision),Picture,Remark',
    );
    expect(csvRows(text).map((r) => r.Name)).to.deep.equal(['Full', 'Full', 'Ada', 'Full']);
  });

  it('applies every list filter, selecting exactly what the list endpoint selects', async () => {
    const cases: Array<[object, number[]]> = [
      [{ status: 'draft' }, [ids[1]!]],
      [{ collector_id: carol.id }, [ids[2]!, ids[3]!]],
      [{ date_from: '2025-01-15', date_to: '2025-01-20' }, [ids[1]!, ids[2]!]],
      [{ date_to: '2025-01-14' }, [ids[0]!]],
      [{ search: 'zebulon' }, [ids[0]!]],
      [{ status: 'submitted', collector_id: bob.id }, [ids[0]!]],
      [{ search: 'nobody' }, []],
    ];
    for (const [filters, expected] of cases) {
      const { jobId, job } = await exportNow(filters);
      expect(job.filters, JSON.stringify(filters)).to.deep.equal(filters);
      const rows = csvRows((await download(jobId)).body as string);
      expect(
        rows.map((r) => Number(r.id)),
        JSON.stringify(filters),
      ).to.deep.equal(expected);
      const query = new URLSearchParams(
        Object.entries(filters).map(([k, v]): [string, string] => [k, String(v)]),
      );
      const list = await h
        .as(alice)
        .get(`/api/v1/projects/${form.projectId}/submissions?per_page=100&${query}`)
        .expect(200);
      expect(list.body.data.map((s: { id: number }) => s.id).sort(), JSON.stringify(filters)).to.deep.equal(
        [...expected].sort(),
      );
    }
  });

  it('writes xlsx and GeoJSON with the same columns and values as the CSV', async () => {
    for (const filters of [{}, { collector_id: carol.id }]) {
      const csv = await exportNow(filters);
      const expected = csvRows((await download(csv.jobId)).body as string);
      const header = Object.keys(expected[0] ?? {});

      const x = await exportNow(filters, dave, 'xlsx');
      expect(x.job).to.include({ status: 'completed', format: 'xlsx' });
      const file = await h
        .as(dave)
        .get(`/api/v1/exports/${x.jobId}/download`)
        .buffer(true)
        .parse((r, cb) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => cb(null, Buffer.concat(chunks)));
        })
        .expect(200);
      expect(file.headers['content-type']).to.contain('spreadsheetml');
      const wb = new ExcelJS.Workbook();
      // exceljs types predate the generic Buffer of @types/node 24
      await wb.xlsx.load(file.body as never);
      const sheet = wb.getWorksheet('submissions')!;
      // text cells are inline strings (one rich-text run)
      const text = (v: ExcelJS.CellValue) =>
        v === null || v === undefined
          ? ''
          : typeof v === 'object' && 'richText' in v
            ? v.richText.map((r) => r.text).join('')
            : String(v);
      const cells = (n: number) => header.map((_, i) => text(sheet.getRow(n).getCell(i + 1).value));
      expect(cells(1)).to.deep.equal(header);
      expect(sheet.rowCount).to.equal(expected.length + 1);
      for (const [i, row] of expected.entries())
        expect(cells(i + 2)).to.deep.equal(header.map((h) => row[h]));
      // numeric columns are numbers in the sheet, text columns text
      const typed = (n: number, h: string) => sheet.getRow(n).getCell(header.indexOf(h) + 1).value;
      for (const [i, row] of expected.entries()) {
        expect(typeof typed(i + 2, 'id')).to.equal('number');
        expect(text(typed(i + 2, 'status'))).to.equal(row.status);
        expect(typed(i + 2, 'status')).to.have.property('richText');
        if (row.age) expect(typed(i + 2, 'age')).to.equal(Number(row.age));
        if (row.latitude) expect(typed(i + 2, 'latitude')).to.equal(Number(row.latitude));
      }

      const g = await exportNow(filters, dave, 'geojson');
      const res = await download(g.jobId);
      expect(res.headers['content-type']).to.contain('application/geo+json');
      const fc = JSON.parse(res.body as string) as {
        type: string;
        features: Array<{
          id: number;
          geometry: { coordinates: number[] } | null;
          properties: Record<string, unknown>;
        }>;
      };
      expect(fc.type).to.equal('FeatureCollection');
      expect(fc.features).to.have.length(expected.length);
      for (const [i, row] of expected.entries()) {
        const f = fc.features[i]!;
        expect(f.id).to.equal(Number(row.id));
        expect(header.map((h) => (f.properties[h] === null ? '' : String(f.properties[h])))).to.deep.equal(
          header.map((h) => row[h]),
        );
        if (row.latitude)
          expect(f.geometry!.coordinates).to.deep.equal([Number(row.longitude), Number(row.latitude)]);
        else expect(f.geometry).to.equal(null);
        expect(typeof f.properties.id).to.equal('number');
        if (row.age) expect(f.properties.age).to.equal(Number(row.age));
      }
    }
    // photo cells are absolute URLs in every format (the CSV's, compared cell by cell above)
    const photoCells = csvRows((await download((await exportNow({}, dave)).jobId)).body as string)
      .map((r) => r.picture)
      .filter(Boolean);
    expect(photoCells).to.have.length(1);
    expect(photoCells[0]).to.match(/^https:\/\/fieldhouse\.example\.org\/api\/v1\/photos\/[0-9a-f-]{36}$/);
    // with labels as headers the points are still the submissions' own coordinates
    const csv = csvRows((await download((await exportNow({}, dave)).jobId)).body as string);
    const labelled = await exportNow({}, dave, 'geojson', { options: { header: 'labels' } });
    const features = (
      JSON.parse((await download(labelled.jobId)).body as string) as {
        features: Array<{ geometry: { coordinates: number[] } | null; properties: Record<string, unknown> }>;
      }
    ).features;
    expect(features).to.have.length(csv.length);
    expect(features.some((f) => f.geometry)).to.equal(true);
    for (const [i, row] of csv.entries()) {
      expect(features[i]!.properties.Latitude ?? '').to.equal(row.latitude ? Number(row.latitude) : '');
      expect(features[i]!.geometry?.coordinates ?? null).to.deep.equal(
        row.latitude ? [Number(row.longitude), Number(row.latitude)] : null,
      );
    }
  });

  const downloadBytes = async (jobId: string, user = alice) =>
    h
      .as(user)
      .get(`/api/v1/exports/${jobId}/download`)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      })
      .expect(200);

  /**
   * A project named 'Relevé des puits / Nord' with five submissions: Ann, Bob and Cy with a
   * photo, Dee without, Eve a draft with a photo; resolves with its form and the photo ids.
   */
  const photoProject = async () => {
    const f = await makeForm(h, alice);
    await h.db('projects').where({ id: f.projectId }).update({ name: 'Relevé des puits / Nord' });
    const photoIds: string[] = [];
    const send = async (extra: Record<string, unknown>, top: object = {}) => {
      const r = await h
        .as(alice)
        .post(`/api/v1/projects/${f.projectId}/submissions`)
        .send(body(f, extra, top));
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
      const photo = (r.body.data.data as Array<{ type: string; value: { photo_id: string } | null }>).find(
        (e) => e.type === 'photo',
      );
      if (photo?.value) photoIds.push(photo.value.photo_id);
    };
    for (const name of ['Ann', 'Bob', 'Cy']) await send({ full_name: name, picture: PNG.toString('base64') });
    await send({ full_name: 'Dee' }); // no photo
    await send({ full_name: 'Eve', picture: PNG.toString('base64') }, { status: 'draft' });
    expect(photoIds).to.have.length(4);
    return { f, photoIds };
  };

  /** Exports `f`'s rows chosen by `filters` as a zip, checks its name, and opens it. */
  const openZip = async (f: Form, filters: object) => {
    const { jobId, job } = await exportNow(filters, alice, 'zip', { projectId: f.projectId });
    expect(job).to.include({ status: 'completed', format: 'zip', error: null, progress: 1 });
    const res = await downloadBytes(jobId);
    expect(res.headers['content-type']).to.equal('application/zip');
    const day = (job.created_at as string).slice(0, 10);
    expect(res.headers['content-disposition']).to.equal(
      `attachment; filename="releve-des-puits-nord-${day}.zip"; filename*=UTF-8''relev%C3%A9-des-puits-nord-${day}.zip`,
    );
    const zip = await JSZip.loadAsync(res.body as Buffer);
    const names = Object.keys(zip.files).filter((n) => !zip.files[n]!.dir);
    const csvName = `relevé-des-puits-nord-${day}.csv`;
    expect(names).to.include(csvName);
    const rows = csvRows(await zip.file(csvName)!.async('string'));
    return { job, names, rows, zip };
  };

  it('zips the CSV and each photo of its rows once under media/, named in its photo column', async () => {
    const { f, photoIds } = await photoProject();
    // Every row: 4 photos, each once, each named by its row's photo cell.
    const all = await openZip(f, {});
    expect(all.job.rows_written).to.equal(5);
    expect(all.rows.map((r) => r.full_name)).to.deep.equal(['Ann', 'Bob', 'Cy', 'Dee', 'Eve']);
    const media = all.names.filter((n) => n.startsWith('media/'));
    expect(media).to.have.length(4);
    expect(all.names).to.have.length(5); // the CSV and the media, nothing else
    expect(all.rows.map((r) => r.picture)).to.deep.equal([
      `media/${photoIds[0]}.png`,
      `media/${photoIds[1]}.png`,
      `media/${photoIds[2]}.png`,
      '',
      `media/${photoIds[3]}.png`,
    ]);
    for (const path of media) expect(await all.zip.file(path)!.async('nodebuffer')).to.deep.equal(PNG);
  });

  it('zips the photos of the rows the list filters choose, and no others', async () => {
    const { f, photoIds } = await photoProject();
    // The list filters choose the rows, and so the photos: the draft's photo is left out.
    const submitted = await openZip(f, { status: 'submitted' });
    expect(submitted.rows.map((r) => r.full_name)).to.deep.equal(['Ann', 'Bob', 'Cy', 'Dee']);
    expect(submitted.names.filter((n) => n.startsWith('media/')).sort()).to.deep.equal(
      photoIds
        .slice(0, 3)
        .map((id) => `media/${id}.png`)
        .sort(),
    );
  });

  it('retries a zip whose photo read broke mid-stream, and writes it whole', async () => {
    const { f } = await photoProject();
    // A photo read that breaks mid-stream fails the attempt (it does not hang), and the retry
    // writes the whole zip.
    blobs.brokenPhotoReads = 1;
    const retried = await openZip(f, {});
    expect(blobs.brokenPhotoReads).to.equal(0);
    expect(retried.names.filter((n) => n.startsWith('media/'))).to.have.length(4);
    const row = await h.db('exports').where({ id: retried.job.id }).first();
    expect(row.attempts).to.equal(2);
  });

  it('leaves out of the zip a photo the store no longer has, its CSV cell kept', async () => {
    const { f, photoIds } = await photoProject();
    // A photo the store no longer has is left out; the CSV still names it; the job completes.
    const gone = await h.db('photos').where({ id: photoIds[1] }).first();
    await blobs.delete(gone.blob_key);
    const partial = await openZip(f, {});
    expect(partial.names.filter((n) => n.startsWith('media/'))).to.have.length(3);
    expect(partial.names).to.not.include(`media/${photoIds[1]}.png`);
    expect(partial.rows[1]!.picture).to.equal(`media/${photoIds[1]}.png`);
  });

  it('zips the CSV alone when the chosen rows have no photo', async () => {
    const { f } = await photoProject();
    // A project without photos: the zip holds the CSV alone.
    const plain = await exportNow({ search: 'nobody-at-all' }, alice, 'zip', { projectId: f.projectId });
    const empty = await JSZip.loadAsync((await downloadBytes(plain.jobId)).body as Buffer);
    expect(Object.keys(empty.files)).to.have.length(1);
  });

  it('names files after the project and the day requested, with filename* for a name that is not ASCII', async () => {
    const { jobId, job } = await exportNow({}, dave);
    const day = (job.created_at as string).slice(0, 10);
    const name = (await h.db('projects').where({ id: form.projectId }).first()).name as string;
    expect((await download(jobId)).headers['content-disposition']).to.equal(
      `attachment; filename="${nameSlug(name)}-${day}.csv"`,
    );
    // The rules themselves (domain/export-names.ts).
    const at = new Date('2026-11-28T23:30:00Z');
    expect(exportFileName('Water points', at, 'csv')).to.equal('water-points-2026-11-28.csv');
    expect(exportFileName('  Census: 2025/2026 (North) ', at, 'xlsx')).to.equal(
      'census-2025-2026-north-2026-11-28.xlsx',
    );
    expect(exportFileName('水井 调查', at, 'geojson')).to.equal('水井-调查-2026-11-28.geojson');
    expect(exportFileName('"../../etc"', at, 'zip')).to.equal('etc-2026-11-28.zip');
    expect(exportFileName('!!!', at, 'csv')).to.equal('export-2026-11-28.csv');
    expect(exportFileName(undefined, at, 'csv')).to.equal('export-2026-11-28.csv');
    expect(nameSlug('x'.repeat(200))).to.have.length(80);
    expect(attachmentDisposition('water-points-2026-11-28.csv')).to.equal(
      'attachment; filename="water-points-2026-11-28.csv"',
    );
    expect(attachmentDisposition('水井-调查-2026-11-28.csv')).to.equal(
      `attachment; filename="2026-11-28.csv"; filename*=UTF-8''%E6%B0%B4%E4%BA%95-%E8%B0%83%E6%9F%A5-2026-11-28.csv`,
    );
    expect(attachmentDisposition('café-2026-11-28.csv')).to.equal(
      `attachment; filename="cafe-2026-11-28.csv"; filename*=UTF-8''caf%C3%A9-2026-11-28.csv`,
    );
  });

  it('refuses an export request with bad filters, format or options (422 naming each)', async () => {
    const bad = await request({ status: 'lost', date_from: '2025-02-30' }).expect(422);
    expect(bad.body.errors).to.have.keys('filters.status', 'filters.date_from');
    expect(
      (await request({ date_from: '2025-02-02', date_to: '2025-02-01' }).expect(422)).body.errors,
    ).to.have.property('filters.date_to');
    const fmt = await h
      .as(alice)
      .post(`/api/v1/projects/${form.projectId}/submissions/export`)
      .send({ format: 'pdf' })
      .expect(422);
    expect(fmt.body.errors).to.have.property('format');
    const opts = await h
      .as(alice)
      .post(`/api/v1/projects/${form.projectId}/submissions/export`)
      .send({ format: 'csv', options: { header: 'titles', choice_columns: 'yes' } })
      .expect(422);
    expect(opts.body.errors).to.have.keys('options.header', 'options.choice_columns');
  });

  it('refuses an export to a collector (403), a stranger (404) and an anonymous caller (401)', async () => {
    await request({}, bob).expect(403); // a collector may not export everybody's data
    await request({}, ivan).expect(404);
    await h
      .anonymous()
      .post(`/api/v1/projects/${form.projectId}/submissions/export`)
      .send({ format: 'csv' })
      .expect(401);
  });

  it('answers 404 for an export id that is not a UUID or is unknown', async () => {
    await h.as(dave).get('/api/v1/exports/not-a-uuid').expect(404);
    await h.as(dave).get('/api/v1/exports/00000000-0000-4000-8000-000000000000').expect(404);
  });

  it('shows and serves a file to its requester and the workspace managers only', async () => {
    const { jobId } = await exportNow({}, dave);
    for (const user of [dave, erin, alice]) {
      expect((await download(jobId, user)).status, user.name).to.equal(200);
      await h.as(user).get(`/api/v1/exports/${jobId}`).expect(200);
    }
    for (const user of [bob, ivan]) {
      expect((await download(jobId, user)).status, user.name).to.equal(404);
      await h.as(user).get(`/api/v1/exports/${jobId}`).expect(404);
    }
  });

  it('e-mails the requester of a ready export its links, in English and UTC when their language is unknown', async () => {
    const { jobId } = await exportNow({}, dave);
    const mail = (await h.db('outbox').select('message')).find(
      (r) => r.message.data.reason === 'export-completed' && r.message.data.text.includes(jobId),
    );
    expect(mail.message.data.to).to.deep.equal([dave.email]);
    expect(mail.message.data.text).to.contain(
      `https://fieldhouse.example.org/api/v1/exports/${jobId}/download`,
    );
    // A requester whose language is unknown reads English, the time in UTC, and the exports page.
    expect(mail.message.data.subject).to.match(/^Your export of .+ is ready$/);
    expect(mail.message.data.text).to.match(/you requested on \d{1,2} [A-Z][a-z]+ \d{4} at \d\d:\d\d UTC/);
    expect(mail.message.data.text).to.contain(
      `https://fieldhouse.example.org/projects/${form.projectId}/exports`,
    );
    expect(mail.message.data.html).to.contain(
      `href="https://fieldhouse.example.org/projects/${form.projectId}/exports"`,
    );
  });

  it("writes the export e-mail in the requester's language and time zone (issue 32)", async () => {
    // Erin (a manager), French in Paris as the gateway's user events project them.
    await upsertUser(h.db, {
      id: erin.id,
      name: erin.name,
      email: erin.email,
      language: 'fr',
      time_zone: 'Europe/Paris',
      updated_at: new Date(Date.now() + 60_000),
    });
    const { jobId } = await exportNow({}, erin);
    const mail = (await h.db('outbox').select('message')).find(
      (r) => r.message.data.reason === 'export-completed' && r.message.data.text.includes(jobId),
    ).message.data;
    expect(mail.to).to.deep.equal([erin.email]);
    expect(mail.subject).to.match(/^Votre export de .+ est prêt$/);
    const created = new Date((await h.db('exports').where({ id: jobId }).first()).created_at);
    const paris = new Intl.DateTimeFormat('fr-FR', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: 'Europe/Paris',
      timeZoneName: 'short',
    }).format(created);
    expect(paris).to.match(/UTC\+[12]$/);
    expect(mail.text).to.contain(`demandé le ${paris} est prêt`);
    expect(mail.text).to.contain(`https://fieldhouse.example.org/projects/${form.projectId}/exports`);
    expect(mail.text).to.contain(`https://fieldhouse.example.org/api/v1/exports/${jobId}/download`);
    expect(mail.html).to.contain('Les exports du projet dans Fieldhouse');
  });

  it('re-checks access at download: a requester removed from the workspace, or no longer allowed to read every submission, gets 404', async () => {
    // Issue 31: a viewer removed from the workspace kept downloading the rows of their export.
    await addMember(h, alice, form.workspaceId, frank, 'viewer');
    await addMember(h, alice, form.workspaceId, grace, 'viewer');
    const { jobId: removedJob } = await exportNow({}, frank);
    const { jobId: demotedJob } = await exportNow({}, grace);
    const before = await download(removedJob, frank);
    expect(before.status).to.equal(200);
    expect(before.body as string).to.contain('Zebulon');
    expect((await download(demotedJob, grace)).status).to.equal(200);

    await h.as(alice).delete(`/api/v1/workspaces/${form.workspaceId}/members/${frank.id}`).expect(204);
    await h
      .as(alice)
      .post(`/api/v1/workspaces/${form.workspaceId}/members`)
      .send({ user_id: grace.id, role: 'collector' })
      .expect(200);

    for (const [jobId, user] of [
      [removedJob, frank],
      [demotedJob, grace],
    ] as const) {
      const res = await download(jobId, user);
      expect(res.status, `download by ${user.name}`).to.equal(404);
      expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
      expect(JSON.parse(res.body as string)).to.include({ status: 404, detail: 'Export not found.' });
      await h.as(user).get(`/api/v1/exports/${jobId}`).expect(404);
      // The workspace's managers still get the file: the job is not gone, only out of reach.
      expect((await download(jobId, erin)).status).to.equal(200);
    }
    // Back in the workspace with a role that reads every submission: the export is theirs again.
    await addMember(h, alice, form.workspaceId, frank, 'viewer');
    expect((await download(removedJob, frank)).status).to.equal(200);
  });

  it("lists a project's exports newest first: managers every job, a viewer their own, collectors none", async () => {
    const { jobId: byViewer } = await exportNow({}, dave);
    const { jobId: byManager } = await exportNow({ status: 'submitted' }, erin, 'geojson');
    const list = async (user: TestUser, query = '') =>
      (await h.as(user).get(`/api/v1/projects/${form.projectId}/exports${query}`).expect(200)).body as {
        data: Array<{
          id: string;
          requested_by: number;
          format: string;
          status: string;
          download_url: string | null;
        }>;
        pagination: { total: number; per_page: number; last_page: number };
      };
    const all = await list(erin);
    const mine = await list(dave);
    expect(all.data[0]!.id).to.equal(byManager);
    expect(all.data[0]).to.include({ format: 'geojson', status: 'completed', requested_by: erin.id });
    expect(all.data.map((j) => j.id)).to.include(byViewer);
    expect(all.pagination.total).to.be.greaterThan(mine.pagination.total);
    expect(mine.data.every((j) => j.requested_by === dave.id)).to.equal(true);
    expect(mine.data.map((j) => j.id))
      .to.include(byViewer)
      .and.not.include(byManager);
    expect(all.data.find((j) => j.id === byViewer)!.download_url).to.equal(
      `/api/v1/exports/${byViewer}/download`,
    );
    const firstPage = await list(erin, '?per_page=1');
    expect(firstPage.data.map((j) => j.id)).to.deep.equal([byManager]);
    expect(firstPage.pagination.last_page).to.equal(all.pagination.total);
    await h.as(bob).get(`/api/v1/projects/${form.projectId}/exports`).expect(403);
    await h.as(ivan).get(`/api/v1/projects/${form.projectId}/exports`).expect(404);
    await h.as(erin).get(`/api/v1/projects/${form.projectId}/exports?per_page=500`).expect(422);
  });

  it('deletes expired files in the sweep; the download then answers 410', async () => {
    const { jobId } = await exportNow();
    const row = await h.db('exports').where({ id: jobId }).first();
    const path = join(h.blobDir, row.blob_key);
    expect(existsSync(path)).to.equal(true);
    expect((await sweepExports(h.db, blobs)).deleted).to.equal(0);
    await h
      .db('exports')
      .where({ id: jobId })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect((await sweepExports(h.db, blobs)).deleted).to.equal(1);
    expect(existsSync(path)).to.equal(false);
    expect((await download(jobId)).status).to.equal(410);
    const s = await h.as(dave).get(`/api/v1/exports/${jobId}`).expect(200);
    expect(s.body.data).to.include({ status: 'completed', expired: true, download_url: null });
  });

  it('ends a job that keeps failing as failed for good: its error shown, its requester e-mailed, no download (409)', async () => {
    blobs.failing = true;
    try {
      const { jobId, job } = await exportNow();
      expect(job.status).to.equal('failed');
      expect(job.error).to.equal('disk full');
      expect((await h.db('exports').where({ id: jobId }).first()).attempts).to.equal(3);
      // Its message is dead-lettered; the DLQ consumer finds the job ended already and leaves it
      // (the consumer's own cases: export-recovery.test.ts).
      expect((await h.as(dave).get(`/api/v1/exports/${jobId}`).expect(200)).body.data).to.include({
        status: 'failed',
        error: 'disk full',
      });
      expect((await download(jobId)).status).to.equal(409);
      const mail = (await h.db('outbox').select('message')).find(
        (r) => r.message.data.reason === 'export-failed' && r.message.data.text.includes(jobId),
      );
      expect(mail.message.data.text).to.contain('disk full');
      expect(mail.message.data.text).to.contain(
        `https://fieldhouse.example.org/projects/${form.projectId}/exports`,
      );
      expect(mail.message.data.text).not.to.contain('/download');
    } finally {
      blobs.failing = false;
    }
  });

  it('finishes a job whose worker was killed mid-export: RabbitMQ redelivers it, another worker takes over', async () => {
    // Worker A: its own connection to RabbitMQ and PostgreSQL; its file write never finishes.
    await worker.close(); // only A consumes for now
    const aDb = createKnex((h.db.client.config as { connection: string }).connection);
    const aBroker = new Broker({
      url: await backingUrl('amqp'),
      logger,
      name: 'collection-exports-test',
      prefix: broker.prefix,
    });
    let started!: () => void;
    const writing = new Promise<void>((ok) => (started = ok));
    const stuck: BlobStore = Object.assign(Object.create(blobs) as BlobStore, {
      putStream: () => {
        started();
        return new Promise<number>(() => undefined);
      },
    });
    await startExportWorker({
      broker: aBroker,
      db: aDb,
      blobs: stuck,
      logger,
      settings,
      retryDelaysMs: [20, 20],
    });
    const res = await request().expect(202);
    const jobId = res.body.data.job_id as string;
    await relay.drain();
    await writing;
    expect((await h.db('exports').where({ id: jobId }).first()).status).to.equal('running');
    // Kill A: its database connections and its heartbeat die, then its RabbitMQ connection.
    // Nothing touches the row: B waits for A's lease to lapse (1 s), then takes the job.
    await aDb.destroy().catch(() => undefined);
    await aBroker.close().catch(() => undefined);
    await sleep(50);
    // Worker B starts and receives the unacknowledged message again.
    worker = await startExportWorker({ broker, db: h.db, blobs, logger, settings, retryDelaysMs: [20, 20] });
    const done = await eventually(async () => {
      const s = await h.as(dave).get(`/api/v1/exports/${jobId}`).expect(200);
      return s.body.data.status === 'completed' ? s.body.data : null;
    });
    expect(done.rows_written).to.equal(4);
    expect((await h.db('exports').where({ id: jobId }).first()).attempts).to.equal(2);
    expect(csvRows((await download(jobId)).body as string)).to.have.length(4);
  });

  it('restarts from the sweep a job whose worker died (lapsed lease), not one whose lease is live', async () => {
    const res = await request().expect(202);
    const jobId = res.body.data.job_id as string;
    await h.db('outbox').delete(); // the message was lost with the worker
    // A live worker holds it (its lease runs): a second delivery waits, then leaves it alone.
    const lease = new Date(Date.now() + 60_000);
    await h.db('exports').where({ id: jobId }).update({ status: 'running', lease_until: lease, attempts: 1 });
    await runExportJob({ db: h.db, blobs, logger, settings: { ...settings, leaseMs: 200 } }, jobId, {
      last: false,
      max: 3,
    });
    expect(await h.db('exports').where({ id: jobId }).first()).to.include({ status: 'running', attempts: 1 });
    expect((await sweepExports(h.db, blobs)).requeued).to.equal(0);
    // The worker died: its lease lapses; the sweep queues the job again.
    await h
      .db('exports')
      .where({ id: jobId })
      .update({ lease_until: new Date(Date.now() - 1_000) });
    expect((await sweepExports(h.db, blobs)).requeued).to.equal(1);
    await relay.drain();
    const done = await eventually(async () => {
      const s = await h.as(dave).get(`/api/v1/exports/${jobId}`).expect(200);
      return s.body.data.status === 'completed' ? s.body.data : null;
    });
    expect(done.rows_written).to.equal(4);
    expect(csvRows((await download(jobId)).body as string)).to.have.length(4);
  });
});
