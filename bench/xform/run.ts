/**
 * `node --conditions=source bench/xform/run.ts`: the cost of the XForm mapping of issue 35 on the
 * service's CPU, for the OpenRosa bars (formList with 100 forms, submissions at ≥ 50 % of the JSON
 * ingest rate):
 * 1. renderXForm() of a 200-field, two-language form with 3 repeats (an uncached form list entry);
 * 2. parseInstance() of an instance of a 20-field form (the ingest bench's size) and of the
 *    200-field form with 3 repeats of 10 instances.
 * Medians of 200 runs after 50 warm-up runs, on one core. PASS when parsing the 20-field instance
 * takes at most 0.5 ms (a small part of a submission's cost in the JSON path) and rendering the
 * 200-field form at most 100 ms (paid once per published version: the OpenRosa form list keeps
 * each rendered form; xmlbuilder2's namespace-aware writer is most of it). Exit code 1 on FAIL.
 */
import { loadavg } from 'node:os';
import {
  renderXForm,
  type XFormField,
  type XFormSource,
} from '../../services/collection/src/domain/xform.ts';
import { parseInstance } from '../../services/collection/src/domain/xform-instance.ts';

let id = 0;
function field(
  name: string,
  type: XFormField['type'],
  parent: string | null,
  logic: XFormField['logic'] = {},
): XFormField {
  id++;
  return {
    id,
    uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    name,
    label: `Question ${name}`,
    type,
    required: false,
    choices:
      type === 'select_one'
        ? [
            { value: 'a', label: 'A', translations: { fr: { label: 'A (fr)' } } },
            { value: 'b', label: 'B' },
          ]
        : null,
    constraints: {},
    parent,
    logic,
    translations: { fr: { label: `Question ${name} (fr)` } },
    position: id,
  };
}

/** `top` top-level fields, then `repeats` repeats of `inside` fields; every third with an expression. */
function form(top: number, repeats: number, inside: number): XFormSource {
  const fields: XFormField[] = [];
  const types = ['integer', 'text', 'select_one', 'decimal', 'date'] as const;
  for (let i = 0; i < top; i++)
    fields.push(
      field(`q${i}`, types[i % types.length]!, null, i % 3 === 1 ? { relevant: `\${q${i - 1}} != ''` } : {}),
    );
  for (let r = 0; r < repeats; r++) {
    fields.push(field(`r${r}`, 'repeat', null));
    for (let i = 0; i < inside; i++)
      fields.push(
        field(
          `r${r}_${i}`,
          types[i % types.length]!,
          `r${r}`,
          i % 3 === 1 ? { constraint: `. != \${r${r}_${i - 1}}` } : {},
        ),
      );
  }
  return {
    title: 'Bench',
    version: { project_id: 1, number: 1, languages: ['en', 'fr'], default_language: 'en' },
    fields,
  };
}

const VALUES: Record<string, string> = {
  integer: '42',
  text: 'some words here',
  select_one: 'a',
  decimal: '3.25',
  date: '2026-11-28',
};

function instance(source: XFormSource, instances: number): string {
  const leaf = (f: XFormField) => `<${f.name}>${VALUES[f.type]}</${f.name}>`;
  const top = source.fields.filter((f) => f.parent === null);
  const body = top
    .map((f) =>
      f.type === 'repeat'
        ? Array.from(
            { length: instances },
            () =>
              `<${f.name}>${source.fields
                .filter((c) => c.parent === f.name)
                .map(leaf)
                .join('')}</${f.name}>`,
          ).join('')
        : leaf(f),
    )
    .join('');
  return `<data id="fieldhouse-1" version="1">${body}<meta><instanceID>uuid:0b8f6a0e-3c1f-4d6b-9f0a-2d3e4f5a6b7c</instanceID></meta></data>`;
}

function median(work: () => void, runs = 200, warmup = 50): number {
  for (let i = 0; i < warmup; i++) work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    work();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

const big = form(110, 3, 30);
const small = form(20, 0, 0);
const bigXml = instance(big, 10);
const smallXml = instance(small, 0);
const render = median(() => renderXForm(big));
const parseSmall = median(() => parseInstance(smallXml, small));
const parseBig = median(() => parseInstance(bigXml, big), 100, 20);
console.log(`load average ${loadavg()[0]!.toFixed(1)}`);
console.log(`renderXForm, ${big.fields.length} fields, 2 languages:            ${render.toFixed(2)} ms`);
console.log(`parseInstance, 20 fields (${smallXml.length} bytes):               ${parseSmall.toFixed(3)} ms`);
console.log(
  `parseInstance, ${big.fields.length} fields, 3 repeats x 10 (${bigXml.length} bytes): ${parseBig.toFixed(2)} ms`,
);
const pass = parseSmall <= 0.5 && render <= 100;
console.log(pass ? 'PASS' : 'FAIL');
if (!pass) process.exitCode = 1;
