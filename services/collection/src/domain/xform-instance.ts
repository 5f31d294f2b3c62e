/**
 * An XForm instance as sent by ODK Collect or Enketo (the `xml_submission_file` of the OpenRosa
 * Form Submission API) read into Fieldhouse's submission data (issue 35; docs/collection.md,
 * "XForms"): the inverse of {@link renderXForm}'s primary instance.
 *
 * Read with saxes (the XML 1.0 parser jsdom uses; non-validating, namespace-aware) under limits
 * set before anything is kept: no DOCTYPE (so no DTD, no external entity, no entity expansion:
 * only the five predefined entities and character references are known), at most
 * {@link INSTANCE_LIMITS} bytes, elements, depth and characters per value.
 */
import { SaxesParser } from 'saxes';
import type { FieldErrors } from '@fieldhouse/problem';
import { problems } from './problems.ts';
import type { DataEntry } from './types.ts';
import { isDateTime } from './value-validators.ts';
import {
  INSTANCE_ROOT,
  REPEAT_COUNT_SUFFIX,
  XFORM_NS,
  xformId,
  xformTree,
  type XFormSource,
  type XNode,
} from './xform.ts';

/** The limits an instance document is read under. */
export const INSTANCE_LIMITS = {
  /** UTF-8 bytes of the whole document (a 413 above). */
  maxBytes: 10 * 1024 * 1024,
  /** Nesting of elements, the root being 1 (deeper: 400 before reading on). */
  maxDepth: 64,
  /** Elements in the document. */
  maxElements: 100_000,
  /** Characters of one answer's text. */
  maxTextLength: 100_000,
} as const;

/** An element as read: local name, namespace, attributes by local name, children and text. */
interface XmlElement {
  name: string;
  uri: string;
  attributes: Map<string, { uri: string; value: string }>;
  children: XmlElement[];
  text: string;
}

/** Namespaces an instance's elements may be in: none, the XForms default one (kept by some clients), OpenRosa's (meta). */
const INSTANCE_NAMESPACES = new Set(['', XFORM_NS.xforms, XFORM_NS.orx]);

const toBytes = (xml: string | Uint8Array): number =>
  typeof xml === 'string' ? Buffer.byteLength(xml, 'utf8') : xml.byteLength;

const toText = (xml: string | Uint8Array): string =>
  typeof xml === 'string' ? xml : Buffer.from(xml.buffer, xml.byteOffset, xml.byteLength).toString('utf8');

/**
 * Reads `xml` into a tree of elements under {@link INSTANCE_LIMITS}.
 * @param stopAfterRoot read only the root's start tag (its attributes), for {@link instanceHeadOf}.
 * @throws ProblemError 413 `instance_too_large`; 400 `instance_unreadable` (not well-formed XML, a
 *   DOCTYPE, an entity, too deep, too many elements, a value too long).
 */
function readXml(xml: string | Uint8Array, stopAfterRoot = false): XmlElement {
  const bytes = toBytes(xml);
  if (bytes > INSTANCE_LIMITS.maxBytes)
    throw problems.instanceTooLarge({ maxBytes: INSTANCE_LIMITS.maxBytes });
  const parser = new SaxesParser({ xmlns: true, position: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let elements = 0;
  const refuse = (reason: string): never => {
    throw problems.instanceUnreadable({ reason, line: parser.line, column: parser.column });
  };
  parser.on('doctype', () => refuse('a DOCTYPE (DTDs and entities are not accepted)'));
  parser.on('error', (err) => refuse(err.message.replace(/^[^:]*:\d+:\d+: /, '')));
  parser.on('opentag', (tag) => {
    if (stack.length >= INSTANCE_LIMITS.maxDepth)
      refuse(`elements nested deeper than ${INSTANCE_LIMITS.maxDepth}`);
    if (++elements > INSTANCE_LIMITS.maxElements) refuse(`more than ${INSTANCE_LIMITS.maxElements} elements`);
    const attributes = new Map<string, { uri: string; value: string }>();
    for (const a of Object.values(tag.attributes))
      if (a.prefix !== 'xmlns' && a.name !== 'xmlns') attributes.set(a.local, { uri: a.uri, value: a.value });
    const el: XmlElement = { name: tag.local, uri: tag.uri, attributes, children: [], text: '' };
    const parent = stack.at(-1);
    if (parent) parent.children.push(el);
    else root = el;
    stack.push(el);
    if (stopAfterRoot) throw STOP;
  });
  const addText = (t: string) => {
    const el = stack.at(-1);
    if (!el) return; // whitespace around the root
    if (el.text.length + t.length > INSTANCE_LIMITS.maxTextLength)
      refuse(`a value longer than ${INSTANCE_LIMITS.maxTextLength} characters in <${el.name}>`);
    el.text += t;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => void stack.pop());
  try {
    parser.write(toText(xml)).close();
  } catch (err) {
    if (err !== STOP) throw err;
  }
  if (!root) return refuse('no root element');
  return root;
}

const STOP = Symbol('stop');

/**
 * The root of an instance: its element name and its `id` and `version` attributes (the OpenRosa
 * form and version it was filled in), read from the root's start tag alone under the limits of
 * {@link parseInstance}, so a submission's form version can be looked up before it is read.
 * @throws ProblemError 413 `instance_too_large`, 400 `instance_unreadable`.
 */
export function instanceHeadOf(xml: string | Uint8Array): {
  root: string;
  formId: string | null;
  version: string | null;
} {
  const root = readXml(xml, true);
  return {
    root: root.name,
    formId: root.attributes.get('id')?.value ?? null,
    version: root.attributes.get('version')?.value ?? null,
  };
}

/** What {@link parseInstance} reads from an instance. */
export interface ParsedInstance {
  /** `meta/instanceID`: `uuid:` and a UUID. */
  instanceId: string;
  /** `meta/deprecatedID` of an edited instance (the instanceID it replaces), when present. */
  deprecatedId?: string;
  /**
   * The submission's `data` as the JSON API takes it (docs/collection.md, "Submission data of
   * forms with groups and repeats"): entries `{field_uuid, type, value}` in form order, groups
   * flattened into their level, a repeat one entry whose value is its instances (each an array
   * of entries); unanswered (empty) fields and notes have no entry. Values: numbers for integer
   * and decimal, `HH:MM:SS` times, arrays for select_multiple, `[lat, lon, alt?, accuracy?]`
   * geopoints, `{file: "<name>"}` for a photo (the attachment of that name), text for
   * `calculate` (recomputed by the service).
   */
  data: DataEntry[];
  /** The file names the photo answers name, in document order (the attachments to expect). */
  attachmentNames: string[];
}

const UUID_ID = /^uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INTEGER = /^[-+]?\d{1,16}$/;
const DECIMAL = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** ODK's time value: `HH:MM:SS.sss+hh:mm` (Collect), also without fraction or zone, or `HH:MM`. */
const TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/;
/** A file name as an upload names its attachment: 1 to 255 characters, no folder, no control character. */
const isFileName = (s: string): boolean =>
  s.length <= 255 &&
  s !== '.' &&
  s !== '..' &&
  ![...s].some((c) => c === '/' || c === '\\' || c.charCodeAt(0) < 32);

/**
 * Reads an instance (the `xml_submission_file` of an OpenRosa submission) of the XForm
 * {@link renderXForm} gives for `source`: refuses what the form does not define and converts
 * each answer from its XForm lexical form (xforms-spec, "Data Types") to Fieldhouse's. The rules
 * of the form (types' ranges, choices, required, constraints, relevance) are not checked here:
 * the data then goes through the same validation as any submission.
 * @param xml the document (UTF-8 bytes or text).
 * @param source the version it claims (by its root's `id` and `version`): {@link XFormSource}.
 * @throws ProblemError 413 `instance_too_large` and 400 `instance_unreadable` (see
 *   {@link INSTANCE_LIMITS}); 422 `instance_invalid` with `errors` keyed by the element's path
 *   (`/data/member[2]/age`, repeat instances 1-based): another root, form id or version; a
 *   missing or malformed `meta/instanceID` (or `deprecatedID`); an element the form does not
 *   have there; a field given twice or holding elements; a value not of the field's type.
 */
export function parseInstance(xml: string | Uint8Array, source: XFormSource): ParsedInstance {
  const root = readXml(xml);
  const errors: FieldErrors = {};
  const fail = (key: string, message: string) => void (errors[key] ??= []).push(message);
  const top = `/${INSTANCE_ROOT}`;
  const formId = source.formId ?? xformId(source.version.project_id);
  const version = String(source.version.number);
  if (root.name !== INSTANCE_ROOT || !INSTANCE_NAMESPACES.has(root.uri))
    throw problems.instanceInvalid({
      errors: { '/': [`the instance's root element is <${root.name}>, not <${INSTANCE_ROOT}>`] },
    });
  const id = root.attributes.get('id')?.value;
  if (id !== formId) fail(`${top}/@id`, `the instance is of form ${id ?? '(none)'}, not ${formId}`);
  const v = root.attributes.get('version')?.value;
  if (v !== version) fail(`${top}/@version`, `the instance is of version ${v ?? '(none)'}, not ${version}`);

  const { roots } = xformTree(source.fields);
  const attachmentNames: string[] = [];
  let instanceId: string | undefined;
  let deprecatedId: string | undefined;

  /** A leaf's text as the field's value; undefined (no entry) when empty; null after an error. */
  const valueOf = (node: XNode, el: XmlElement, key: string): unknown => {
    if (el.children.length) {
      fail(key, `${node.field.name} is a field: it holds a value, not elements`);
      return null;
    }
    const type = node.field.type;
    const raw = type === 'text' || type === 'calculate' ? el.text : el.text.trim();
    if (raw.trim() === '') return undefined;
    const wrong = (what: string) => {
      fail(
        key,
        `${node.field.name} is ${what}: "${raw.length > 40 ? `${raw.slice(0, 40)}…` : raw}" is not one`,
      );
      return null;
    };
    switch (type) {
      case 'integer': {
        const n = Number(raw);
        return INTEGER.test(raw) && Number.isSafeInteger(n) ? n : wrong('an integer field');
      }
      case 'decimal': {
        const n = Number(raw);
        return DECIMAL.test(raw) && Number.isFinite(n) ? n : wrong('a decimal field');
      }
      case 'date':
        return DATE.test(raw) ? raw : wrong('a date field (YYYY-MM-DD)');
      case 'time': {
        const m = TIME.exec(raw);
        return m ? `${m[1]}:${m[2]}:${m[3] ?? '00'}` : wrong('a time field (HH:MM:SS)');
      }
      case 'datetime':
        return isDateTime(raw) ? raw : wrong('a date-time field (YYYY-MM-DDTHH:MM:SS.sss with Z or +HH:MM)');
      case 'select_multiple':
        return raw.split(/\s+/).filter(Boolean);
      case 'geopoint': {
        const parts = raw.split(/\s+/);
        const numbers = parts.map(Number);
        return parts.length >= 2 && parts.length <= 4 && parts.every((p) => DECIMAL.test(p))
          ? numbers
          : wrong('a geopoint field (latitude longitude [altitude [accuracy]])');
      }
      case 'photo': {
        if (!isFileName(raw)) return wrong('a photo field (the file name of an attachment)');
        attachmentNames.push(raw);
        return { file: raw };
      }
      default:
        return raw; // text, select_one, calculate
    }
  };

  /** The fields of a level (a group's children are at its level), by element name. */
  const readLevel = (nodes: readonly XNode[], el: XmlElement, path: string, entries: DataEntry[]): void => {
    const known = new Map<string, XNode>();
    const counted = new Set<string>();
    for (const n of nodes) {
      known.set(n.field.name, n);
      if (n.field.type === 'repeat' && n.field.logic?.repeat_count != null)
        counted.add(`${n.field.name}${REPEAT_COUNT_SUFFIX}`);
    }
    const byName = new Map<string, XmlElement[]>();
    for (const child of el.children) {
      if (child.attributes.get('template')?.uri === XFORM_NS.jr) continue; // a repeat's template
      if (!INSTANCE_NAMESPACES.has(child.uri)) {
        fail(
          `${path}/${child.name}`,
          `<${child.name}> is in namespace ${child.uri}, which the form does not use`,
        );
        continue;
      }
      if (path === `/${INSTANCE_ROOT}` && child.name === 'meta') continue;
      if (counted.has(child.name)) continue; // the repeat count renderXForm adds
      if (!known.has(child.name)) {
        fail(`${path}/${child.name}`, `<${child.name}> is not a field of this form at ${path}`);
        continue;
      }
      const list = byName.get(child.name) ?? [];
      list.push(child);
      byName.set(child.name, list);
    }
    for (const node of nodes) {
      const found = byName.get(node.field.name);
      if (!found) continue;
      const f = node.field;
      const key = `${path}/${f.name}`;
      if (f.type !== 'repeat' && found.length > 1) {
        fail(key, `<${f.name}> appears ${found.length} times; it is not a repeat`);
        continue;
      }
      const first = found[0]!;
      if (f.type === 'group') readLevel(node.children, first, key, entries);
      else if (f.type === 'repeat') {
        const instances = found.map((instance, i) => {
          const inner: DataEntry[] = [];
          readLevel(node.children, instance, `${key}[${i + 1}]`, inner);
          return inner;
        });
        entries.push({ field_uuid: f.uuid, type: 'repeat', value: instances });
      } else if (f.type === 'note') {
        if (first.children.length) fail(key, `${f.name} is a note: it holds no answer`);
      } else {
        const value = valueOf(node, first, key);
        if (value !== undefined && value !== null) entries.push({ field_uuid: f.uuid, type: f.type, value });
      }
    }
  };

  const data: DataEntry[] = [];
  readLevel(roots, root, top, data);

  const metas = root.children.filter((c) => c.name === 'meta' && INSTANCE_NAMESPACES.has(c.uri));
  const metaPath = `${top}/meta`;
  if (metas.length > 1) fail(metaPath, '<meta> appears more than once');
  const meta = metas[0];
  const metaText = (name: string): string | undefined => {
    const els = meta?.children.filter((c) => c.name === name) ?? [];
    if (els.length > 1) fail(`${metaPath}/${name}`, `<${name}> appears more than once`);
    return els[0]?.text.trim();
  };
  for (const c of meta?.children ?? [])
    if (!['instanceID', 'deprecatedID', 'instanceName'].includes(c.name))
      fail(
        `${metaPath}/${c.name}`,
        `<${c.name}> is not metadata Fieldhouse takes (instanceID, deprecatedID, instanceName)`,
      );
  const iid = metaText('instanceID');
  if (iid === undefined || iid === '') fail(`${metaPath}/instanceID`, 'the instance has no meta/instanceID');
  else if (!UUID_ID.test(iid))
    fail(`${metaPath}/instanceID`, `the instanceID "${iid.slice(0, 60)}" is not uuid:<UUID>`);
  else instanceId = iid.toLowerCase();
  const did = metaText('deprecatedID');
  if (did !== undefined && did !== '') {
    if (!UUID_ID.test(did))
      fail(`${metaPath}/deprecatedID`, `the deprecatedID "${did.slice(0, 60)}" is not uuid:<UUID>`);
    else deprecatedId = did.toLowerCase();
  }
  if (instanceId && deprecatedId === instanceId)
    fail(`${metaPath}/deprecatedID`, 'the deprecatedID is the instance’s own instanceID');

  if (Object.keys(errors).length || !instanceId) throw problems.instanceInvalid({ errors });
  return { instanceId, ...(deprecatedId ? { deprecatedId } : {}), data, attachmentNames };
}
