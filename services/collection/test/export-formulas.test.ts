import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { eventually } from '@fieldhouse/testkit';
import {
  cast,
  publishForm,
  startExportPipeline,
  startHarness,
  type ExportPipeline,
  type Harness,
} from './harness.ts';

/** Answers a spreadsheet would run as formulas (OWASP "CSV Injection"), and harmless neighbours. */
const HOSTILE = [
  '=1+2',
  '+1+2',
  '-1+2',
  '@SUM(A1)',
  '\t=1+2',
  '\r=1+2',
  '=HYPERLINK("http://evil.example","click, me")',
  '\uFF1D1+2', // full-width '=' (Apple Numbers reads it as '=')
  "-2+3+cmd|' /C calc'!A0",
];
const HARMLESS = ['plain', '-5', '+3.25', '1+1', "'quoted", '', 'a_x0041_b', 'bell\u0007, line\r\nfeed'];

describe('collection: exports neutralise spreadsheet formulas (CSV, xlsx, GeoJSON)', () => {
  const { alice } = cast; // owns the workspace, collects and exports
  let h: Harness;
  let pipeline: ExportPipeline;
  let projectId: number;
  const answers = [...HOSTILE, ...HARMLESS];

  before(async () => {
    h = await startHarness();
    pipeline = await startExportPipeline(h, 'collection-export-formulas');
    const form = await publishForm(h, alice, [
      { name: 'note', label: '=Note', type: 'text' },
      { name: 'delta', label: '-Delta', type: 'integer' },
      { name: 'ratio', label: 'Ratio', type: 'decimal' },
    ]);
    projectId = form.projectId;
    const versionId = form.versionId;
    const fields = Object.values(form.fields);
    for (const [i, note] of answers.entries()) {
      const values = [note === '' ? null : note, -5 - i, -2.5];
      const res = await h
        .as(alice)
        .post(`/api/v1/projects/${projectId}/submissions`)
        .send({
          form_version_id: versionId,
          data: fields.map((f, k) => ({ field_uuid: f.uuid, type: f.type, value: values[k] })),
        });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    }
    // The collector's name is text a user chose: the same rule applies to it.
    await h.db('users').where({ id: alice.id }).update({ name: '@evil' });
  });
  after(async () => {
    await pipeline?.stop();
    await h?.close();
  });

  async function exportFile(
    format: string,
    options?: object,
  ): Promise<{ job: Record<string, unknown>; file: Buffer }> {
    const res = await h
      .as(alice)
      .post(`/api/v1/projects/${projectId}/submissions/export`)
      .send({ format, ...(options ? { options } : {}) })
      .expect(202);
    const jobId = res.body.data.job_id as string;
    await pipeline.relay.drain();
    const job = await eventually(async () => {
      const s = await h.as(alice).get(`/api/v1/exports/${jobId}`).expect(200);
      return ['completed', 'failed'].includes(s.body.data.status) ? s.body.data : null;
    });
    expect(job.status).to.equal('completed');
    const file = await h
      .as(alice)
      .get(`/api/v1/exports/${jobId}/download`)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      })
      .expect(200);
    return { job, file: file.body as Buffer };
  }
  const csvRows = (text: string) => parse(text, { columns: true }) as Array<Record<string, string>>;

  it('CSV: prefixes text cells that start with = + - @ tab CR with a quote; numbers stay bare numbers', async () => {
    const { job, file } = await exportFile('csv', { header: 'labels' });
    expect(job.options).to.deep.equal({ header: 'labels' });
    const text = file.toString('utf8');
    const rows = csvRows(text);
    expect(Object.keys(rows[0]!)).to.include.members(["'=Note", "'-Delta", 'Ratio']);
    expect(rows.map((r) => r["'=Note"])).to.deep.equal([...HOSTILE.map((a) => `'${a}`), ...HARMLESS]);
    expect(rows.map((r) => r["'-Delta"])).to.deep.equal(answers.map((_, i) => String(-5 - i)));
    expect(rows.every((r) => r.Ratio === '-2.5')).to.equal(true);
    expect(rows.every((r) => r.Collector === "'@evil")).to.equal(true);
    // numbers are written bare (no quote, no CSV quoting)
    expect(text).to.contain(',-5,-2.5\n');
  });

  it('CSV: options.formula_escaping false writes the answers exactly as sent', async () => {
    const { job, file } = await exportFile('csv', { formula_escaping: false });
    expect(job.options).to.deep.equal({ formula_escaping: false });
    const rows = csvRows(file.toString('utf8'));
    expect(rows.map((r) => r.note)).to.deep.equal(answers);
    expect(rows.every((r) => r.collector_name === '@evil')).to.equal(true);
    const bad = await h
      .as(alice)
      .post(`/api/v1/projects/${projectId}/submissions/export`)
      .send({ format: 'csv', options: { formula_escaping: 'no' } })
      .expect(422);
    expect(bad.body.errors).to.have.keys('options.formula_escaping');
  });

  it('xlsx: every text cell is an inline string (never a formula), answers unchanged; numbers are numbers', async () => {
    const { file } = await exportFile('xlsx', { header: 'labels' });
    const zip = await JSZip.loadAsync(file);
    const sheetXml = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
    expect(sheetXml).not.to.match(/<f[\s>]/); // no formula anywhere
    expect(sheetXml).not.to.match(/t="str"/); // no formula-result strings either
    const types = [...sheetXml.matchAll(/<c r="[A-Z]+\d+"(?: s="\d+")?(?: t="(\w+)")?/g)].map((m) => m[1]);
    expect(types).to.include('inlineStr');
    expect(new Set(types.filter(Boolean))).to.deep.equal(new Set(['inlineStr']));

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file as never);
    const sheet = wb.getWorksheet('submissions')!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1).map(cellText);
    const col = (name: string) => header.indexOf(name) + 1;
    expect(header).to.include.members(['=Note', '-Delta', 'Ratio']);
    const notes = answers.map((_, i) => sheet.getRow(i + 2).getCell(col('=Note')).value);
    expect(notes.map((v) => (v === null ? '' : cellText(v)))).to.deep.equal(answers);
    for (const [i] of answers.entries()) {
      expect(sheet.getRow(i + 2).getCell(col('-Delta')).value).to.equal(-5 - i);
      expect(sheet.getRow(i + 2).getCell(col('Ratio')).value).to.equal(-2.5);
    }
  });

  it('GeoJSON: properties keep the answers as JSON strings and numbers (no spreadsheet reads it)', async () => {
    const { file } = await exportFile('geojson');
    const fc = JSON.parse(file.toString('utf8')) as {
      features: Array<{ properties: Record<string, unknown> }>;
    };
    expect(fc.features.map((f) => f.properties.note ?? '')).to.deep.equal(answers);
    expect(fc.features.map((f) => f.properties.delta)).to.deep.equal(answers.map((_, i) => -5 - i));
  });
});

/** The text of an exceljs cell value: a string, or the runs of an inline rich-text string. */
function cellText(v: unknown): string {
  if (v && typeof v === 'object' && 'richText' in v)
    return (v as { richText: Array<{ text: string }> }).richText.map((r) => r.text).join('');
  return String(v);
}
