/**
 * A form version as an ODK XForm 1.0 document (issue 35; docs/collection.md, "XForms"): what
 * `GET /api/v1/versions/{id}/xform` answers and what the OpenRosa form list hands to ODK Collect and
 * Enketo. The mapping follows the ODK XForms specification (getodk.github.io/xforms-spec) as
 * pyxform writes it: a primary instance rooted at `<data id version>` with `meta/instanceID`, one
 * `<bind>` per node, `itext` translations when the version has languages, body controls in form
 * order. Written with xmlbuilder2 (escaping, namespaces); expressions are rewritten from the
 * syntax tree of `@fieldhouse/form-logic` (`parse`), never by matching text.
 */
import { createHash } from 'node:crypto';
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import { parse, type Node } from '@fieldhouse/form-logic';
import type { Choice, FieldDef } from './types.ts';

/** XML namespaces of an ODK XForm (xforms-spec, "Namespaces"). */
export const XFORM_NS = {
  xforms: 'http://www.w3.org/2002/xforms',
  h: 'http://www.w3.org/1999/xhtml',
  ev: 'http://www.w3.org/2001/xml-events',
  xsd: 'http://www.w3.org/2001/XMLSchema',
  jr: 'http://openrosa.org/javarosa',
  orx: 'http://openrosa.org/xforms',
  odk: 'http://www.opendatakit.org/xforms',
} as const;

/** The name of the primary instance's root element (pyxform's default, `/data/...` paths). */
export const INSTANCE_ROOT = 'data';

/** The suffix of the hidden node holding a repeat's `repeat_count` (`member-count`; `-` is never in a field name). */
export const REPEAT_COUNT_SUFFIX = '-count';

/** A field as {@link renderXForm} reads it: the stored field (data/versions `FieldRow`) with its position. */
export type XFormField = FieldDef & { position?: number | null };

/**
 * The argument of {@link renderXForm} (and of `parseInstance`, domain/xform-instance.ts).
 */
export interface XFormSource {
  /** The form's title, `<h:title>` and the form list's `name`: the project's name. */
  title: string;
  /** The version: its project (for the default form id), number (the XForm `version`) and languages. */
  version: {
    project_id: number;
    number: number;
    /** BCP 47 codes; empty: a one-language form (plain labels, no itext). */
    languages?: readonly string[] | null;
    default_language?: string | null;
  };
  /** Every field of the version in form order (`listFields`), `parent` naming its group or repeat. */
  fields: readonly XFormField[];
  /** The XForm `id` (OpenRosa `formID`); {@link xformId} of the project when absent. */
  formId?: string;
}

/** What {@link renderXForm} gives. */
export interface RenderedXForm {
  /** The XForm document (UTF-8 text, XML declaration first). */
  xml: string;
  /** The instance root's `id`: the OpenRosa `formID`. */
  formId: string;
  /** The instance root's `version`: the version's number as text. */
  version: string;
  /** `md5:<hex>` of the UTF-8 bytes of `xml`, the form list's `hash` (OpenRosa Form List API). */
  hash: string;
}

/**
 * The OpenRosa `formID` of a project's form: `fieldhouse-<project id>`. One per project, so every
 * published version of the project is the same form in a newer `version`, as ODK Collect expects
 * to update a form it holds.
 */
export const xformId = (projectId: number): string => `fieldhouse-${projectId}`;

/** A node of the version's tree with its XForm path. */
export interface XNode {
  field: XFormField;
  /** Absolute path in the primary instance: `/data/member/age`. */
  path: string;
  parent: XNode | null;
  children: XNode[];
}

/** The version's fields as a tree of {@link XNode}, children in form order (position, then list order). */
export function xformTree(fields: readonly XFormField[]): { roots: XNode[]; byName: Map<string, XNode> } {
  const byName = new Map<string, XNode>();
  const order = fields
    .map((field, i) => ({ field, i }))
    .sort((a, b) => (a.field.position ?? a.i) - (b.field.position ?? b.i) || a.i - b.i);
  for (const { field } of order) byName.set(field.name, { field, path: '', parent: null, children: [] });
  const roots: XNode[] = [];
  for (const { field } of order) {
    const node = byName.get(field.name)!;
    const parent = field.parent ? byName.get(field.parent) : undefined;
    if (parent && (parent.field.type === 'group' || parent.field.type === 'repeat')) {
      node.parent = parent;
      parent.children.push(node);
    } else roots.push(node);
  }
  const setPaths = (nodes: XNode[], prefix: string, seen: Set<XNode>) => {
    for (const n of nodes) {
      if (seen.has(n)) continue; // a cycle (refused when saved): cut
      seen.add(n);
      n.path = `${prefix}/${n.field.name}`;
      setPaths(n.children, n.path, seen);
    }
  };
  setPaths(roots, `/${INSTANCE_ROOT}`, new Set());
  return { roots, byName };
}

/** The repeats enclosing `node` (nearest last), not counting `node` itself. */
function enclosingRepeats(node: XNode | null): XNode[] {
  const out: XNode[] = [];
  for (let p = node?.parent ?? null; p; p = p.parent) if (p.field.type === 'repeat') out.unshift(p);
  return out;
}

const depth = (path: string) => path.split('/').length - 1;

/** An XPath 1.0 string literal of `s` (`'...'`, `"..."`, or concat() when it holds both quotes). */
export function xpathLiteral(s: string): string {
  if (!s.includes("'")) return `'${s}'`;
  if (!s.includes('"')) return `"${s}"`;
  return `concat(${s
    .split("'")
    .map((part) => `'${part}'`)
    .join(`, "'", `)})`;
}

/**
 * Where an expression is evaluated: the context node's path and the repeats around it (the
 * nearest-instance rule applies inside them), and whether it is a `choice_filter` (a predicate on
 * the choices, where a bare name is the choice's property and fields are read via `current()`).
 */
interface ExpressionContext {
  path: string;
  repeats: readonly XNode[];
  choiceFilter?: boolean;
}

/** The XPath reference to `target` from `ctx`: relative inside a repeat both are in (pyxform's rule), else absolute. */
function referenceTo(target: XNode, ctx: ExpressionContext): string {
  const shared = [...ctx.repeats].reverse().find((r) => target !== r && target.path.startsWith(`${r.path}/`));
  if (!shared) return target.path;
  const up = Array.from({ length: depth(ctx.path) - depth(shared.path) }, () => '..').join('/');
  const relative = `${up}/${target.path.slice(shared.path.length + 1)}`;
  return ctx.choiceFilter ? `current()/${relative}` : relative;
}

/** `..` steps from the context up to its nearest repeat instance (position(..)), or null outside repeats. */
function instanceStepsOf(ctx: ExpressionContext): string | null {
  const nearest = ctx.repeats.at(-1);
  if (!nearest) return null;
  const n = depth(ctx.path) - depth(nearest.path);
  return n > 0 ? Array.from({ length: n }, () => '..').join('/') : null;
}

/**
 * Rewrites a Fieldhouse expression (docs/form-logic.md) as the XPath of the XForm: `${name}` and
 * paths naming a field become the field's reference ({@link referenceTo}); `position(..)` and
 * `position()` read the nearest repeat instance even from inside a group. Everything else (literals,
 * operators, functions: the ODK subset) is kept character for character. An expression that does
 * not parse (never stored: compiled when saved) is returned unchanged.
 */
export function toXPath(source: string, byName: ReadonlyMap<string, XNode>, ctx: ExpressionContext): string {
  const parsed = parse(source);
  if (!parsed.ok) return source;
  const edits: { start: number; end: number; text: string }[] = [];
  const visit = (node: Node): void => {
    switch (node.type) {
      case 'ref': {
        const target = byName.get(node.name);
        if (target)
          edits.push({
            start: node.start,
            end: node.start + node.text.length,
            text: referenceTo(target, ctx),
          });
        return;
      }
      case 'path': {
        const last = node.steps.at(-1);
        if (!last || last === '.' || last === '..') return;
        // in a choice_filter a bare name is the choice's property (the itemset's item child)
        if (ctx.choiceFilter && !node.absolute && node.steps.length === 1) return;
        const target = byName.get(last);
        if (target)
          edits.push({
            start: node.start,
            end: node.start + node.text.length,
            text: referenceTo(target, ctx),
          });
        return;
      }
      case 'binary':
        visit(node.left);
        visit(node.right);
        return;
      case 'negate':
        visit(node.operand);
        return;
      case 'union':
        node.operands.forEach(visit);
        return;
      case 'call': {
        const steps = instanceStepsOf(ctx);
        if ((node.name === 'position' || node.name === 'jr:position') && steps && !ctx.choiceFilter) {
          const arg = node.args[0];
          if (arg?.type === 'path' && arg.steps.length === 1 && arg.steps[0] === '..')
            edits.push({ start: arg.start, end: arg.start + arg.text.length, text: steps });
          else if (!arg) {
            const open = source.indexOf('(', node.start + node.name.length);
            if (open >= 0) edits.push({ start: open + 1, end: open + 1, text: steps });
          }
          return;
        }
        node.args.forEach(visit);
        return;
      }
      default:
        return;
    }
  };
  visit(parsed.ast);
  let out = source;
  for (const e of edits.sort((a, b) => b.start - a.start))
    out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** The XForm data type of each Fieldhouse type (xforms-spec, "Data Types"). */
const BIND_TYPE: Record<string, string> = {
  text: 'string',
  integer: 'int',
  decimal: 'decimal',
  date: 'date',
  time: 'time',
  datetime: 'dateTime',
  select_one: 'string',
  select_multiple: 'string',
  geopoint: 'geopoint',
  photo: 'binary',
  note: 'string',
  calculate: 'string',
};

/** ODK's names of the translations, by code (an Intl.DisplayNames is costly to build). */
const itextNames = new Map<string, string>();

/** A language code as ODK names a translation: `French (fr)` (XLSForm's `label::French (fr)`). */
function itextLanguage(code: string): string {
  const known = itextNames.get(code);
  if (known) return known;
  let name: string | undefined;
  try {
    name = new Intl.DisplayNames(['en'], { type: 'language' }).of(code);
  } catch {
    name = undefined;
  }
  const out = name && name !== code ? `${name} (${code})` : code;
  if (itextNames.size < 1000) itextNames.set(code, out);
  return out;
}

type TextKind = 'label' | 'hint' | 'constraint_message' | 'required_message';

/** The `constraints` of the form model (min/max, max_length, pattern) as XPath on `.`. */
function constraintsXPath(f: XFormField): string[] {
  const c = f.constraints ?? {};
  const parts: string[] = [];
  if (typeof c.min === 'number') parts.push(`. >= ${c.min}`);
  if (typeof c.max === 'number') parts.push(`. <= ${c.max}`);
  if (typeof c.max_length === 'number') parts.push(`string-length(.) <= ${c.max_length}`);
  if (typeof c.pattern === 'string') parts.push(`regex(., ${xpathLiteral(`^(?:${c.pattern})$`)})`);
  return parts;
}

/** A default value as the instance's text (select_multiple: space-separated). */
function defaultText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map(String).join(' ');
  return String(value);
}

/**
 * The ODK XForm 1.0 document of a form version (issue 35, "XForms"; docs/collection.md, "XForms"
 * has the mapping table):
 * - `<h:title>` the `title`; `<model odk:xforms-version="1.0.0">`; the primary instance
 *   `<data id="<formId>" version="<number>">` with one element per field (groups and repeats nest,
 *   a repeat as its `jr:template`; defaults as text), a `<name>-count` node per repeat with
 *   `repeat_count`, and `<meta><instanceID/></meta>` (bound `jr:preload="uid"`, readonly);
 * - a `<bind>` per node: `type`, `relevant`, `constraint` (the field's, and its min/max,
 *   max_length, pattern) with `jr:constraintMsg`, `required` (`true()` or the `required_if`
 *   expression) with `jr:requiredMsg`, `calculate`, `readonly` (read_only and notes);
 * - texts: inline in a one-language version, else an `itext` translation per language
 *   (`lang="French (fr)"`, the default language `default="true()"`, a text missing in one language
 *   given in the default language's), ids `<path>:label`, `:hint`, `:jr:constraintMsg`,
 *   `:jr:requiredMsg`, choices `<path>-<index>:label`;
 * - the body in form order: `input` (text, numbers, dates, times, date-times, geopoint, notes), `select1` /
 *   `select` (static items, or an `itemset` over a secondary instance of the choices for a
 *   `choice_filter`), `upload mediatype="image/*"` (photo), `group` (with `appearance`), a repeat as
 *   `group` + `repeat` (`jr:count` naming its count node); calculations have no control.
 * Expressions: `${name}` becomes the field's absolute path, or a relative one from inside a repeat
 * instance that holds the field too ({@link toXPath}).
 * @param source the version, its fields in form order and the form's title ({@link XFormSource}).
 * @returns the XML, the form id, the version and `md5:<hex>` of the XML's UTF-8 bytes.
 */
export function renderXForm(source: XFormSource): RenderedXForm {
  const formId = source.formId ?? xformId(source.version.project_id);
  const version = String(source.version.number);
  const languages = [...(source.version.languages ?? [])];
  const defaultLanguage = source.version.default_language ?? languages[0] ?? null;
  const multilingual = languages.length > 0 && defaultLanguage !== null;
  const { roots, byName } = xformTree(source.fields);

  /** itext: id → text per language (the default language's where one is missing). */
  const itext = new Map<string, Map<string, string>>();
  const translated = (
    id: string,
    base: string | null | undefined,
    other: (lang: string) => string | undefined,
  ): string | null => {
    if (base === null || base === undefined || base === '') return null;
    const texts = new Map<string, string>();
    for (const lang of languages) texts.set(lang, lang === defaultLanguage ? base : (other(lang) ?? base));
    itext.set(id, texts);
    return id;
  };
  /** A node's text: the plain text (one language), or an itext id. */
  const textOf = (n: XNode, kind: TextKind): { text: string } | { id: string } | null => {
    const f = n.field;
    const base = kind === 'label' ? f.label : (f.logic?.[kind] ?? null);
    if (base === null || base === undefined || base === '') return null;
    if (!multilingual) return { text: base };
    const suffix = {
      label: 'label',
      hint: 'hint',
      constraint_message: 'jr:constraintMsg',
      required_message: 'jr:requiredMsg',
    }[kind];
    const id = translated(`${n.path}:${suffix}`, base, (lang) => f.translations?.[lang]?.[kind]);
    return id ? { id } : null;
  };
  const choiceText = (n: XNode, c: Choice, i: number): { text: string } | { id: string } => {
    if (!multilingual) return { text: c.label };
    const id = translated(`${n.path}-${i}:label`, c.label, (lang) => c.translations?.[lang]?.label)!;
    return { id };
  };
  const itextRef = (id: string) => `jr:itext(${xpathLiteral(id)})`;

  const root = create({ version: '1.0' }).ele(XFORM_NS.h, 'h:html', {
    xmlns: XFORM_NS.xforms,
    'xmlns:h': XFORM_NS.h,
    'xmlns:ev': XFORM_NS.ev,
    'xmlns:xsd': XFORM_NS.xsd,
    'xmlns:jr': XFORM_NS.jr,
    'xmlns:orx': XFORM_NS.orx,
    'xmlns:odk': XFORM_NS.odk,
  });
  const head = root.ele('h:head');
  head.ele('h:title').txt(source.title);
  const model = head.ele('model', { 'odk:xforms-version': '1.0.0' });
  const itextHolder = multilingual ? model.ele('itext') : null;
  const primary = model.ele('instance').ele(INSTANCE_ROOT, { id: formId, version });
  const secondary: { id: string; node: XNode }[] = [];
  const binds: Record<string, string>[] = [];
  const body = root.ele('h:body');

  const contextOf = (n: XNode): ExpressionContext => ({ path: n.path, repeats: enclosingRepeats(n) });
  const xpath = (expr: string, ctx: ExpressionContext) => toXPath(expr, byName, ctx);

  const addInstance = (nodes: XNode[], into: XMLBuilder) => {
    for (const n of nodes) {
      const f = n.field;
      if (f.type === 'repeat' && f.logic?.repeat_count != null) into.ele(`${f.name}${REPEAT_COUNT_SUFFIX}`);
      const attrs = f.type === 'repeat' ? { 'jr:template': '' } : {};
      const el = into.ele(f.name, attrs);
      if (f.type === 'group' || f.type === 'repeat') addInstance(n.children, el);
      else {
        const text = f.type === 'calculate' || f.type === 'note' ? null : defaultText(f.logic?.default);
        if (text !== null) el.txt(text);
      }
    }
  };
  addInstance(roots, primary);
  primary.ele('meta').ele('instanceID');

  const addBinds = (nodes: XNode[]) => {
    for (const n of nodes) {
      const f = n.field;
      const l = f.logic ?? {};
      const ctx = contextOf(n);
      if (f.type === 'repeat' && l.repeat_count != null) {
        const countPath = `${n.path}${REPEAT_COUNT_SUFFIX}`;
        const countCtx: ExpressionContext = { path: countPath, repeats: enclosingRepeats(n) };
        const calc =
          typeof l.repeat_count === 'number' ? String(l.repeat_count) : xpath(l.repeat_count, countCtx);
        binds.push({ nodeset: countPath, type: 'string', readonly: 'true()', calculate: calc });
      }
      const bind: Record<string, string> = { nodeset: n.path };
      const type = BIND_TYPE[f.type];
      if (type) bind.type = type;
      if (l.relevant) bind.relevant = xpath(l.relevant, ctx);
      const own = l.constraint ? xpath(l.constraint, ctx) : null;
      const limits = constraintsXPath(f);
      if (own !== null || limits.length) {
        bind.constraint = limits.length
          ? [...(own !== null ? [`(${own})`] : []), ...limits].join(' and ')
          : own!;
        const msg = textOf(n, 'constraint_message');
        if (msg) bind['jr:constraintMsg'] = 'text' in msg ? msg.text : itextRef(msg.id);
      }
      if (f.required) bind.required = 'true()';
      else if (l.required_if) bind.required = xpath(l.required_if, ctx);
      if (bind.required) {
        const msg = textOf(n, 'required_message');
        if (msg) bind['jr:requiredMsg'] = 'text' in msg ? msg.text : itextRef(msg.id);
      }
      if (f.type === 'calculate' && l.calculation) bind.calculate = xpath(l.calculation, ctx);
      if (l.read_only || f.type === 'note') bind.readonly = 'true()';
      if (Object.keys(bind).length > 1) binds.push(bind);
      if (f.type === 'group' || f.type === 'repeat') addBinds(n.children);
    }
  };
  addBinds(roots);
  binds.push({
    nodeset: `/${INSTANCE_ROOT}/meta/instanceID`,
    type: 'string',
    readonly: 'true()',
    'jr:preload': 'uid',
  });

  const addLabel = (el: XMLBuilder, n: XNode, kind: 'label' | 'hint') => {
    const t = textOf(n, kind);
    if (!t) return;
    if ('text' in t) el.ele(kind).txt(t.text);
    else el.ele(kind, { ref: itextRef(t.id) });
  };
  const addBody = (nodes: XNode[], into: XMLBuilder) => {
    for (const n of nodes) {
      const f = n.field;
      const appearance = f.logic?.appearance ? { appearance: f.logic.appearance } : {};
      switch (f.type) {
        case 'calculate':
          break;
        case 'group': {
          const g = into.ele('group', { ref: n.path, ...appearance });
          addLabel(g, n, 'label');
          addBody(n.children, g);
          break;
        }
        case 'repeat': {
          const g = into.ele('group', { ref: n.path, ...appearance });
          addLabel(g, n, 'label');
          const count =
            f.logic?.repeat_count != null ? { 'jr:count': `${n.path}${REPEAT_COUNT_SUFFIX}` } : {};
          addBody(n.children, g.ele('repeat', { nodeset: n.path, ...count }));
          break;
        }
        case 'select_one':
        case 'select_multiple': {
          const el = into.ele(f.type === 'select_one' ? 'select1' : 'select', { ref: n.path, ...appearance });
          addLabel(el, n, 'label');
          addLabel(el, n, 'hint');
          const choices = f.choices ?? [];
          if (f.logic?.choice_filter) {
            secondary.push({ id: f.name, node: n });
            const filter = xpath(f.logic.choice_filter, { ...contextOf(n), choiceFilter: true });
            const set = el.ele('itemset', {
              nodeset: `instance(${xpathLiteral(f.name)})/root/item[${filter}]`,
            });
            set.ele('value', { ref: 'name' });
            set.ele('label', { ref: multilingual ? 'jr:itext(itextId)' : 'label' });
          } else
            choices.forEach((c, i) => {
              const item = el.ele('item');
              const t = choiceText(n, c, i);
              if ('text' in t) item.ele('label').txt(t.text);
              else item.ele('label', { ref: itextRef(t.id) });
              item.ele('value').txt(c.value);
            });
          break;
        }
        case 'photo': {
          const el = into.ele('upload', { ref: n.path, mediatype: 'image/*', ...appearance });
          addLabel(el, n, 'label');
          addLabel(el, n, 'hint');
          break;
        }
        default: {
          const el = into.ele('input', { ref: n.path, ...appearance });
          addLabel(el, n, 'label');
          addLabel(el, n, 'hint');
        }
      }
    }
  };
  addBody(roots, body);

  // Secondary instances of the filtered choices: one <item> per choice, `name` its value, its
  // properties as children, `label` (one language) or `itextId`.
  for (const { id, node } of secondary) {
    const items = model.ele('instance', { id }).ele('root');
    (node.field.choices ?? []).forEach((c, i) => {
      const item = items.ele('item');
      item.ele('name').txt(c.value);
      const t = choiceText(node, c, i);
      if ('text' in t) item.ele('label').txt(t.text);
      else item.ele('itextId').txt(t.id);
      for (const [k, v] of Object.entries(c.properties ?? {}))
        if (k !== 'name' && k !== 'label' && k !== 'itextId') item.ele(k).txt(v);
    });
  }
  for (const b of binds) model.ele('bind', b);

  if (itextHolder)
    for (const lang of languages) {
      const tr = itextHolder.ele('translation', {
        lang: itextLanguage(lang),
        ...(lang === defaultLanguage ? { default: 'true()' } : {}),
      });
      for (const [id, texts] of itext)
        tr.ele('text', { id })
          .ele('value')
          .txt(texts.get(lang) ?? '');
    }

  const xml = root.end({ prettyPrint: true });
  return { xml, formId, version, hash: `md5:${createHash('md5').update(xml, 'utf8').digest('hex')}` };
}
