import { expect } from 'chai';
import { ProblemError } from '@fieldhouse/problem';
import { SaxesParser } from 'saxes';
import type { FieldDef } from '../src/domain/types.ts';
import { renderXForm, toXPath, xformTree, xpathLiteral, type XFormSource } from '../src/domain/xform.ts';
import { INSTANCE_LIMITS, instanceHeadOf, parseInstance } from '../src/domain/xform-instance.ts';
import { addMember, cast, startHarness, type Harness } from './harness.ts';

const { alice, bob, carol } = cast;

// --- a form version as the service stores it, for the unit tests ---

let nextId = 0;
/** A stored field (FieldDef) with its position. */
function field(
  name: string,
  type: FieldDef['type'],
  more: Partial<FieldDef> = {},
  logic: FieldDef['logic'] = {},
): FieldDef & { position: number } {
  nextId++;
  return {
    id: nextId,
    uuid: `00000000-0000-4000-8000-${String(nextId).padStart(12, '0')}`,
    name,
    label: `Label of ${name}`,
    type,
    required: false,
    choices: null,
    constraints: {},
    parent: null,
    logic,
    translations: {},
    position: nextId,
    ...more,
  };
}

const yesNo = [
  { value: 'yes', label: 'Yes', translations: { fr: { label: 'Oui' } } },
  { value: 'no', label: 'No', translations: { fr: { label: 'Non' } } },
];

/** A household survey in English and French: every type, a group, a repeat with a count, a nested repeat. */
const fields = [
  field('intro', 'note', { translations: { fr: { label: 'Bienvenue' } } }),
  field(
    'age',
    'integer',
    { required: true, constraints: { min: 0, max: 120 }, translations: { fr: { label: 'Âge' } } },
    { constraint: '. >= 15', constraint_message: 'At least 15', hint: 'In years' },
  ),
  field('pregnant', 'select_one', { choices: yesNo }, { relevant: "${age} < 50 and ${sex} = 'f'" }),
  field('sex', 'select_one', {
    choices: [
      { value: 'f', label: 'Female' },
      { value: 'm', label: 'Male' },
    ],
  }),
  field('hh', 'group', {}, { appearance: 'field-list' }),
  field('size', 'integer', { parent: 'hh' }, { default: 2 }),
  field('note_text', 'text', { parent: 'hh', constraints: { pattern: "[a-z']*" } }),
  field('member', 'repeat', {}, { repeat_count: '${size}' }),
  field('m_name', 'text', { parent: 'member', required: true }),
  field('m_details', 'group', { parent: 'member' }),
  field('m_age', 'integer', { parent: 'm_details' }, { constraint: '. < ${age}' }),
  field('m_pos', 'calculate', { parent: 'm_details' }, { calculation: 'concat(position(..), ${m_name})' }),
  field('child', 'repeat', { parent: 'member' }, { max_repeats: 5 }),
  field('c_name', 'text', { parent: 'child' }, { relevant: '${m_age} > 20' }),
  field('total', 'calculate', {}, { calculation: 'sum(${m_age})' }),
  field('when', 'date'),
  field('at', 'time'),
  field('meet_at', 'datetime'),
  field('weight', 'decimal'),
  field('fruits', 'select_multiple', {
    choices: [
      { value: 'apple', label: 'Apple' },
      { value: 'pear', label: 'Pear' },
    ],
  }),
  field('where', 'geopoint'),
  field('photo', 'photo'),
  field('country', 'select_one', {
    choices: [
      { value: 'fr', label: 'France' },
      { value: 'sn', label: 'Senegal' },
    ],
  }),
  field(
    'city',
    'select_one',
    {
      choices: [
        { value: 'paris', label: 'Paris', properties: { country: 'fr' } },
        {
          value: 'dakar',
          label: 'Dakar',
          properties: { country: 'sn' },
          translations: { fr: { label: 'Dakar (SN)' } },
        },
      ],
    },
    { choice_filter: 'country = ${country}' },
  ),
];

const source: XFormSource = {
  title: 'Households & "people"',
  version: { project_id: 7, number: 3, languages: ['en', 'fr'], default_language: 'en' },
  fields,
};
const uuidOf = (name: string) => fields.find((f) => f.name === name)!.uuid;
const typeOf = (name: string) => fields.find((f) => f.name === name)!.type;
const e = (name: string, value: unknown) => ({ field_uuid: uuidOf(name), type: typeOf(name), value });

/** The XForm's binds by nodeset: their attributes (`@name`, decoded), read with saxes. */
function bindsOf(xml: string): Map<string, Record<string, string>> {
  const binds = new Map<string, Record<string, string>>();
  const parser = new SaxesParser();
  parser.on('opentag', (tag) => {
    if (tag.name !== 'bind') return;
    const attributes = Object.fromEntries(Object.entries(tag.attributes).map(([k, v]) => [`@${k}`, v]));
    binds.set(attributes['@nodeset']!, attributes);
  });
  parser.write(xml).close();
  return binds;
}

const INSTANCE_ID = 'uuid:0b8f6a0e-3c1f-4d6b-9f0a-2d3e4f5a6b7c';

/** An instance of the survey as ODK Collect sends it (no namespace on the data elements). */
const instanceXml = (inner: string, meta = `<meta><instanceID>${INSTANCE_ID}</instanceID></meta>`) =>
  `<?xml version="1.0"?><data xmlns:jr="http://openrosa.org/javarosa" xmlns:orx="http://openrosa.org/xforms" id="fieldhouse-7" version="3">${inner}${meta}</data>`;

/** The problem `work` throws. */
function problemOf(work: () => unknown): ProblemError {
  try {
    work();
  } catch (err) {
    if (err instanceof ProblemError) return err;
    throw err;
  }
  throw new Error('no problem was thrown');
}

describe('collection: XForms (issue 35)', () => {
  describe('renderXForm', () => {
    const out = renderXForm(source);
    const binds = bindsOf(out.xml);

    it('names the form, its version and the md5 of the document', () => {
      expect(out.formId).to.equal('fieldhouse-7');
      expect(out.version).to.equal('3');
      expect(out.hash).to.match(/^md5:[0-9a-f]{32}$/);
      expect(renderXForm(source).hash).to.equal(out.hash);
      expect(out.xml).to.contain('<h:title>Households &amp; "people"</h:title>');
      expect(out.xml).to.contain('<data id="fieldhouse-7" version="3">');
      expect(out.xml).to.contain('<model odk:xforms-version="1.0.0">');
    });

    it('writes the primary instance: groups and repeats nested, a repeat as its template, defaults, the count node and meta', () => {
      expect(out.xml).to.match(/<hh>\s*<size>2<\/size>\s*<note_text\/>\s*<\/hh>/);
      expect(out.xml).to.match(/<member-count\/>\s*<member jr:template="">\s*<m_name\/>\s*<m_details>/);
      expect(out.xml).to.match(/<child jr:template="">\s*<c_name\/>\s*<\/child>/);
      expect(out.xml).to.match(/<meta>\s*<instanceID\/>\s*<\/meta>/);
    });

    it('binds types, required, constraints with their messages, relevance, calculations and the instanceID', () => {
      expect(binds.get('/data/age')).to.deep.include({
        '@type': 'int',
        '@required': 'true()',
        '@constraint': '(. >= 15) and . >= 0 and . <= 120',
        '@jr:constraintMsg': "jr:itext('/data/age:jr:constraintMsg')",
      });
      expect(binds.get('/data/pregnant')).to.deep.include({
        '@type': 'string',
        '@relevant': "/data/age < 50 and /data/sex = 'f'",
      });
      expect(binds.get('/data/hh/note_text')!['@constraint']).to.equal(`regex(., "^(?:[a-z']*)$")`);
      expect(binds.get('/data/intro')).to.deep.include({ '@readonly': 'true()', '@type': 'string' });
      expect(binds.get('/data/total')).to.deep.include({ '@calculate': 'sum(/data/member/m_details/m_age)' });
      expect(binds.get('/data/member-count')).to.deep.include({ '@calculate': '/data/hh/size' });
      expect(binds.get('/data/meta/instanceID')).to.deep.include({
        '@jr:preload': 'uid',
        '@readonly': 'true()',
      });
      const types = Object.fromEntries(
        ['when', 'at', 'meet_at', 'weight', 'fruits', 'where', 'photo'].map((n) => [
          n,
          binds.get(`/data/${n}`)!['@type'],
        ]),
      );
      expect(types).to.deep.equal({
        when: 'date',
        at: 'time',
        meet_at: 'dateTime',
        weight: 'decimal',
        fruits: 'string',
        where: 'geopoint',
        photo: 'binary',
      });
    });

    it('makes references inside a repeat instance relative (the nearest-instance rule), position(..) the instance’s', () => {
      expect(binds.get('/data/member/m_details/m_age')!['@constraint']).to.equal('. < /data/age');
      expect(binds.get('/data/member/m_details/m_pos')!['@calculate']).to.equal(
        'concat(position(../..), ../../m_name)',
      );
      expect(binds.get('/data/member/child/c_name')!['@relevant']).to.equal('../../m_details/m_age > 20');
    });

    it('writes an itext translation per language, the default language marked, missing texts in the default language', () => {
      expect(out.xml).to.contain('<translation lang="English (en)" default="true()">');
      expect(out.xml).to.contain('<translation lang="French (fr)">');
      const fr = out.xml.slice(out.xml.indexOf('lang="French (fr)"'));
      expect(fr).to.match(/<text id="\/data\/age:label">\s*<value>Âge<\/value>/);
      expect(fr).to.match(/<text id="\/data\/age:hint">\s*<value>In years<\/value>/);
      expect(fr).to.match(/<text id="\/data\/pregnant-0:label">\s*<value>Oui<\/value>/);
      expect(fr).to.match(/<text id="\/data\/age:jr:constraintMsg">\s*<value>At least 15<\/value>/);
    });

    it('writes the body: inputs, selects, an upload, a field-list group, a repeat with jr:count, an itemset for the choice filter', () => {
      expect(out.xml).to.match(/<group ref="\/data\/hh" appearance="field-list">/);
      expect(out.xml).to.match(
        /<group ref="\/data\/member">\s*<label ref="jr:itext\('\/data\/member:label'\)"\/>\s*<repeat nodeset="\/data\/member" jr:count="\/data\/member-count">/,
      );
      expect(out.xml).to.contain('<upload ref="/data/photo" mediatype="image/*">');
      expect(out.xml).to.match(/<input ref="\/data\/meet_at">\s*<label/);
      expect(out.xml).to.contain('<select ref="/data/fruits">');
      expect(out.xml).to.contain(`<itemset nodeset="instance('city')/root/item[country = /data/country]">`);
      expect(out.xml).to.match(/<instance id="city">\s*<root>\s*<item>\s*<name>paris<\/name>/);
      expect(out.xml).not.to.contain('ref="/data/total"');
    });

    it('writes a one-language version with plain labels and messages, no itext', () => {
      const one = renderXForm({
        title: 'One',
        version: { project_id: 1, number: 1, languages: [], default_language: null },
        fields: [field('q', 'integer', {}, { constraint: '. > 1', constraint_message: 'More than 1' })],
      });
      expect(one.xml).not.to.contain('<itext>');
      expect(one.xml).to.contain('<label>Label of q</label>');
      expect(bindsOf(one.xml).get('/data/q')!['@jr:constraintMsg']).to.equal('More than 1');
    });
  });

  describe('toXPath and xpathLiteral', () => {
    const { byName } = xformTree(fields);
    const inMember = { path: '/data/member/m_name', repeats: [byName.get('member')!] };
    it('keeps literals and functions, rewrites references and field paths only', () => {
      expect(toXPath('concat(\'${age}\', ${age}, "x")', byName, { path: '/data/q', repeats: [] })).to.equal(
        'concat(\'${age}\', /data/age, "x")',
      );
      expect(
        toXPath('/data/hh/size + age + ${total} div 2', byName, { path: '/data/q', repeats: [] }),
      ).to.equal('/data/hh/size + /data/age + /data/total div 2');
      expect(toXPath('count(${c_name}) + ${m_age}', byName, inMember)).to.equal(
        'count(../child/c_name) + ../m_details/m_age',
      );
      expect(toXPath('position()', byName, inMember)).to.equal('position(..)');
    });
    it('reads fields through current() and keeps bare names in a choice filter', () => {
      expect(toXPath('country = ${m_name}', byName, { ...inMember, choiceFilter: true })).to.equal(
        'country = current()/../m_name',
      );
    });
    it('quotes a text with either quote', () => {
      expect(xpathLiteral('a')).to.equal("'a'");
      expect(xpathLiteral("it's")).to.equal(`"it's"`);
      expect(xpathLiteral(`it's "x"`)).to.equal(`concat('it', "'", 's "x"')`);
    });
  });

  describe('parseInstance', () => {
    const full = instanceXml(`
      <intro/><age>34</age><pregnant>no</pregnant><sex>f</sex>
      <hh><size>2</size><note_text>it's</note_text></hh><member-count>2</member-count>
      <member><m_name>Ana</m_name><m_details><m_age>10</m_age><m_pos>1Ana</m_pos></m_details></member>
      <member><m_name>Bo</m_name><m_details><m_age>30</m_age><m_pos>2Bo</m_pos></m_details>
        <child><c_name>Cy</c_name></child><child><c_name/></child></member>
      <total>40</total><when>2026-11-28</when><at>14:05:09.120+01:00</at>
      <meet_at>2026-11-28T14:05:09.120+01:00</meet_at><weight>-2.5e1</weight>
      <fruits>apple pear</fruits><where>14.69 -17.44 12 5</where><photo>1700000000000.jpg</photo>
      <country>sn</country><city>dakar</city>`);

    it('reads the answers into the data of the JSON API: groups flattened, repeats as instances, values typed', () => {
      const parsed = parseInstance(full, source);
      expect(parsed.instanceId).to.equal(INSTANCE_ID);
      expect(parsed).not.to.have.property('deprecatedId');
      expect(parsed.attachmentNames).to.deep.equal(['1700000000000.jpg']);
      expect(parsed.data).to.deep.equal([
        e('age', 34),
        e('pregnant', 'no'),
        e('sex', 'f'),
        e('size', 2),
        e('note_text', "it's"),
        e('member', [
          [e('m_name', 'Ana'), e('m_age', 10), e('m_pos', '1Ana')],
          [e('m_name', 'Bo'), e('m_age', 30), e('m_pos', '2Bo'), e('child', [[e('c_name', 'Cy')], []])],
        ]),
        e('total', '40'),
        e('when', '2026-11-28'),
        e('at', '14:05:09'),
        e('meet_at', '2026-11-28T14:05:09.120+01:00'),
        e('weight', -25),
        e('fruits', ['apple', 'pear']),
        e('where', [14.69, -17.44, 12, 5]),
        e('photo', { file: '1700000000000.jpg' }),
        e('country', 'sn'),
        e('city', 'dakar'),
      ]);
    });

    it('reads the head without reading on, and takes bytes as well as text', () => {
      expect(instanceHeadOf(Buffer.from(full))).to.deep.equal({
        root: 'data',
        formId: 'fieldhouse-7',
        version: '3',
      });
      expect(parseInstance(Buffer.from(full), source).data).to.have.length(16);
    });

    it('reads an edit’s deprecatedID, elements in the XForms or OpenRosa namespace, and empty answers as none', () => {
      const parsed = parseInstance(
        `<data xmlns="http://www.w3.org/2002/xforms" xmlns:orx="http://openrosa.org/xforms" id="fieldhouse-7" version="3"><age/><hh><size>  </size></hh><orx:meta><orx:instanceID>${INSTANCE_ID.toUpperCase().replace('UUID', 'uuid')}</orx:instanceID><orx:deprecatedID>uuid:11111111-2222-4333-8444-555555555555</orx:deprecatedID></orx:meta></data>`,
        source,
      );
      expect(parsed.instanceId).to.equal(INSTANCE_ID);
      expect(parsed.deprecatedId).to.equal('uuid:11111111-2222-4333-8444-555555555555');
      expect(parsed.data).to.deep.equal([]);
    });

    it('refuses a missing or malformed instanceID, another form or version, under the element’s path (422)', () => {
      const missing = problemOf(() => parseInstance(instanceXml('<age>1</age>', ''), source));
      expect(missing.status).to.equal(422);
      expect(missing.code).to.equal('instance_invalid');
      expect(missing.errors).to.deep.equal({
        '/data/meta/instanceID': ['the instance has no meta/instanceID'],
      });
      const bad = problemOf(() =>
        parseInstance(instanceXml('', '<meta><instanceID>12345</instanceID></meta>'), source),
      );
      expect(Object.keys(bad.errors!)).to.deep.equal(['/data/meta/instanceID']);
      const other = problemOf(() =>
        parseInstance(instanceXml('').replace('version="3"', 'version="2"'), source),
      );
      expect(other.errors).to.deep.equal({ '/data/@version': ['the instance is of version 2, not 3'] });
      const root = problemOf(() => parseInstance(`<survey id="fieldhouse-7" version="3"/>`, source));
      expect(root.status).to.equal(422);
      expect(Object.keys(root.errors!)).to.deep.equal(['/']);
    });

    it('refuses unknown elements, a field twice, elements in a field, values of the wrong type, a file path', () => {
      const p = problemOf(() =>
        parseInstance(
          instanceXml(
            `<age>12.5</age><nope>1</nope><sex>f</sex><sex>m</sex><when>28/11/2026</when>
            <at>noon</at><meet_at>2026-11-28T14:05:09</meet_at><weight>1,5</weight><where>14.6</where><photo>../etc/passwd</photo>
            <member><m_name><b>x</b></m_name><m_details><m_age>9999999999999999999</m_age><extra/></m_details></member>`,
            `<meta><instanceID>${INSTANCE_ID}</instanceID><audit>x</audit></meta>`,
          ),
          source,
        ),
      );
      expect(p.status).to.equal(422);
      expect(Object.keys(p.errors!).sort()).to.deep.equal(
        [
          '/data/age',
          '/data/nope',
          '/data/sex',
          '/data/when',
          '/data/at',
          '/data/meet_at',
          '/data/weight',
          '/data/where',
          '/data/photo',
          '/data/member[1]/m_name',
          '/data/member[1]/m_details/extra',
          '/data/member[1]/m_details/m_age',
          '/data/meta/audit',
        ].sort(),
      );
      expect(p.errors!['/data/age']).to.deep.equal(['age is an integer field: "12.5" is not one']);
      expect(p.errors!['/data/meet_at']).to.deep.equal([
        'meet_at is a date-time field (YYYY-MM-DDTHH:MM:SS.sss with Z or +HH:MM): "2026-11-28T14:05:09" is not one',
      ]);
      expect(p.errors!['/data/nope']).to.deep.equal(['<nope> is not a field of this form at /data']);
    });

    describe('hostile XML: refused before anything is kept, never an error of the server', () => {
      const refused = (xml: string | Buffer, status: number, code: string) => {
        const p = problemOf(() => parseInstance(xml, source));
        expect(p.status, p.message).to.equal(status);
        expect(p.code).to.equal(code);
        return p;
      };
      it('refuses an external entity (XXE): no DOCTYPE is read', () => {
        const p = refused(
          `<?xml version="1.0"?><!DOCTYPE data [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><data id="fieldhouse-7" version="3"><age>&xxe;</age></data>`,
          400,
          'instance_unreadable',
        );
        expect(p.message).to.contain('DOCTYPE');
      });
      it('refuses entity expansion (billion laughs)', () => {
        const lols = Array.from(
          { length: 9 },
          (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`,
        ).join('');
        refused(
          `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol0 "lol">${lols}]><data id="fieldhouse-7" version="3"><age>&lol9;</age></data>`,
          400,
          'instance_unreadable',
        );
        // without a DTD an entity is unknown, not expanded
        refused(instanceXml('<age>&lol9;</age>'), 400, 'instance_unreadable');
      });
      it('refuses nesting deeper than the limit', () => {
        const depth = 100_000;
        const p = refused(
          `<data id="fieldhouse-7" version="3">${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</data>`,
          400,
          'instance_unreadable',
        );
        expect(p.message).to.contain(`deeper than ${INSTANCE_LIMITS.maxDepth}`);
      });
      it('refuses a value longer than the limit and a document larger than the limit (413)', () => {
        refused(
          instanceXml(`<note_text>${'a'.repeat(INSTANCE_LIMITS.maxTextLength + 1)}</note_text>`),
          400,
          'instance_unreadable',
        );
        const p = refused(
          Buffer.from(instanceXml(`<hh><note_text>${'a'.repeat(INSTANCE_LIMITS.maxBytes)}</note_text></hh>`)),
          413,
          'instance_too_large',
        );
        expect(p.extensions).to.deep.equal({ max_bytes: INSTANCE_LIMITS.maxBytes });
      });
      it('refuses too many elements', () => {
        refused(
          instanceXml(`<hh>${'<x/>'.repeat(INSTANCE_LIMITS.maxElements)}</hh>`),
          400,
          'instance_unreadable',
        );
      });
      it('refuses XML that is not well-formed, naming where', () => {
        const p = refused(instanceXml('<age>1</sex>'), 400, 'instance_unreadable');
        expect(p.extensions).to.have.keys('line', 'column');
        refused('', 400, 'instance_unreadable');
        refused('not xml', 400, 'instance_unreadable');
      });
    });
  });

  describe('GET /api/v1/versions/{id}/xform', () => {
    let h: Harness;
    let ws: number;
    let projectId: number;
    let versionId: number;
    const saved: Record<string, { uuid: string; type: string }> = {};
    before(async () => {
      h = await startHarness();
      ws = (await h.as(alice).post('/api/v1/workspaces').send({ name: 'W' }).expect(201)).body.data.id;
      await addMember(h, alice, ws, bob, 'collector');
      projectId = (
        await h.as(alice).post(`/api/v1/workspaces/${ws}/projects`).send({ name: 'Wells' }).expect(201)
      ).body.data.id;
      versionId = (
        await h
          .as(alice)
          .post(`/api/v1/projects/${projectId}/versions`)
          .send({ languages: ['en', 'fr'] })
          .expect(201)
      ).body.data.id;
      for (const f of [
        { name: 'depth', type: 'decimal', label: { en: 'Depth', fr: 'Profondeur' }, required: true },
        { name: 'dry', type: 'select_one', label: 'Dry?', choices: yesNo, relevant: '${depth} > 10' },
        { name: 'visit', type: 'repeat', label: 'Visit' },
        { name: 'v_date', type: 'date', label: 'Date', parent: 'visit' },
        { name: 'v_count', type: 'calculate', label: 'Visits', calculation: 'count(${v_date})' },
      ]) {
        const r = await h.as(alice).post(`/api/v1/versions/${versionId}/fields`).send(f);
        expect(r.status, JSON.stringify(r.body)).to.equal(201);
        saved[f.name] = { uuid: r.body.data.uuid, type: r.body.data.type };
      }
    });
    after(async () => {
      await h?.close();
    });

    it('answers the XForm of a draft to members, with its ETag and file name', async () => {
      const r = await h.as(bob).get(`/api/v1/versions/${versionId}/xform`).expect(200);
      expect(r.headers['content-type']).to.equal('application/xml; charset=utf-8');
      expect(r.headers['content-disposition']).to.equal(
        `attachment; filename="fieldhouse-${projectId}-v1.xml"`,
      );
      const xml = r.text;
      expect(r.headers.etag).to.match(/^"[0-9a-f]{32}"$/);
      expect(xml).to.contain('<h:title>Wells</h:title>');
      expect(bindsOf(xml).get('/data/dry')).to.deep.include({ '@relevant': '/data/depth > 10' });
      expect(bindsOf(xml).get('/data/v_count')).to.deep.include({
        '@calculate': 'count(/data/visit/v_date)',
      });
    });

    it('is 404 to a non-member and for an unknown version, 401 to an anonymous caller of a closed form', async () => {
      await h.as(carol).get(`/api/v1/versions/${versionId}/xform`).expect(404);
      await h.as(alice).get('/api/v1/versions/999999/xform').expect(404);
      await h.anonymous().get(`/api/v1/versions/${versionId}/xform`).expect(401);
    });

    it('an instance of it, read by parseInstance, is stored by the JSON API as the same answers sent as JSON', async () => {
      await h.as(alice).post(`/api/v1/versions/${versionId}/publish`).expect(200);
      await h.as(alice).post(`/api/v1/projects/${projectId}/publish`).send({}).expect(200);
      const version = (await h.as(alice).get(`/api/v1/versions/${versionId}`).expect(200)).body.data;
      const fieldsOfVersion = version.fields.map((f: Record<string, unknown>) => ({
        ...f,
        logic: f,
      })) as FieldDef[];
      const xml = `<data id="fieldhouse-${projectId}" version="1"><depth>4.5</depth><visit><v_date>2026-11-01</v_date></visit><visit><v_date>2026-11-20</v_date></visit><v_count>2</v_count><meta><instanceID>${INSTANCE_ID}</instanceID></meta></data>`;
      const parsed = parseInstance(xml, { title: 'Wells', version, fields: fieldsOfVersion });
      const x = (name: string, value: unknown) => ({
        field_uuid: saved[name]!.uuid,
        type: saved[name]!.type,
        value,
      });
      const json = [
        x('depth', 4.5),
        x('visit', [[x('v_date', '2026-11-01')], [x('v_date', '2026-11-20')]]),
        x('v_count', '2'),
      ];
      expect(parsed.data).to.deep.equal(json);
      const stored = async (data: unknown) => {
        const r = await h
          .as(bob)
          .post(`/api/v1/projects/${projectId}/submissions`)
          .send({ form_version_id: versionId, data });
        expect(r.status, JSON.stringify(r.body)).to.equal(201);
        return r.body.data.data;
      };
      expect(await stored(parsed.data)).to.deep.equal(await stored(json));
    });

    it('is open to anonymous callers once the version is published on a public form', async () => {
      await h
        .as(alice)
        .post(`/api/v1/projects/${projectId}/publish`)
        .send({ collect_access: 'public' })
        .expect(200);
      const r = await h.anonymous().get(`/api/v1/versions/${versionId}/xform`).expect(200);
      expect(r.text).to.contain(`<data id="fieldhouse-${projectId}" version="1">`);
    });
  });
});
