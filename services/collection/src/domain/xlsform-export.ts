/**
 * XLSForm export (issue 35; docs/collection.md, "XLSForm"): a form version written back as an
 * `.xlsx` workbook (`survey`, `choices`, `settings`) that {@link xlsformCommand} imports to the
 * same form: the same fields, types, texts in every language, logic and choices.
 */
import ExcelJS from 'exceljs';
import { listFields, type FieldRow } from '../data/versions.ts';
import { requireAccess } from './access.ts';
import type { Actor, CollectionContext } from './context.ts';
import { LANGUAGE_NAMES } from './xlsform-import.ts';
import { xformId } from './xform.ts';

/** The survey columns written, in order, and the property each holds. */
const LOGIC_COLUMNS = [
  'required',
  'relevant',
  'constraint',
  'calculation',
  'default',
  'choice_filter',
  'appearance',
  'read_only',
  'repeat_count',
] as const;
/** Texts that may have a column per language, in the order written. */
const TEXTS = ['label', 'hint', 'required_message', 'constraint_message'] as const;
type TextKey = (typeof TEXTS)[number];

/** `English (en)` for a code whose name {@link LANGUAGE_NAMES} knows, else `fr (fr)`. */
function languageHeader(code: string): string {
  const name = Object.entries(LANGUAGE_NAMES).find(([, c]) => c === code)?.[0];
  return name ? `${name[0]!.toUpperCase()}${name.slice(1)} (${code})` : `${code} (${code})`;
}

/** The XLSForm type of a field (`image` for photo, `select_one <list>` with its list). */
function xlsType(f: FieldRow): string {
  if (f.type === 'photo') return 'image';
  if (f.type === 'datetime') return 'dateTime';
  if (f.type === 'select_one' || f.type === 'select_multiple') return `${f.type} ${f.name}`;
  return f.type;
}

/** Quotes a text as an XPath literal (`'...'`, or `"..."` when it holds a `'`). */
const literal = (s: string) => (s.includes("'") ? `"${s}"` : `'${s}'`);

/**
 * The field's constraint with its `constraints` written as expressions (XLSForm has no columns
 * for them): `. >= min`, `. <= max`, `string-length(.) <= max_length`, `regex(., '^(?:p)$')`.
 */
function constraintOf(f: FieldRow): string | undefined {
  const parts: string[] = [];
  if (f.logic?.constraint) parts.push(f.logic.constraint);
  const c = f.constraints ?? {};
  if (c.min !== undefined) parts.push(`. >= ${c.min}`);
  if (c.max !== undefined) parts.push(`. <= ${c.max}`);
  if (c.max_length !== undefined) parts.push(`string-length(.) <= ${c.max_length}`);
  if (c.pattern !== undefined) parts.push(`regex(., ${literal(`^(?:${c.pattern})$`)})`);
  if (parts.length <= 1) return parts[0];
  return parts.map((p) => `(${p})`).join(' and ');
}

/** A field's value for a logic column, as XLSForm writes it. */
function logicCell(f: FieldRow, column: (typeof LOGIC_COLUMNS)[number]): string | undefined {
  const logic = f.logic ?? {};
  switch (column) {
    case 'required':
      return f.required ? 'yes' : (logic.required_if ?? undefined);
    case 'constraint':
      return constraintOf(f);
    case 'read_only':
      return logic.read_only ? 'yes' : undefined;
    case 'default': {
      const d = logic.default;
      if (d === undefined || d === null) return undefined;
      return Array.isArray(d) ? d.join(' ') : String(d);
    }
    case 'repeat_count':
      return logic.repeat_count === undefined ? undefined : String(logic.repeat_count);
    default: {
      const v = logic[column];
      return v === undefined || v === null ? undefined : String(v);
    }
  }
}

/** A field's text in a language (`lang` null or the default: the field's own). */
function textIn(f: FieldRow, key: TextKey, lang: string | null, def: string | null): string | undefined {
  if (lang !== null && lang !== def) return f.translations?.[lang]?.[key];
  if (key === 'label') {
    // XLSForm needs no label on these: the import names them by their name.
    if ((f.type === 'group' || f.type === 'repeat' || f.type === 'calculate') && f.label === f.name)
      return undefined;
    return f.label;
  }
  return f.logic?.[key] ?? undefined;
}

/**
 * The fields of a version as an XLSForm workbook.
 * @param version its languages (`languages`, `default_language`) and number.
 * @param title the form's title (the project's name).
 * @returns the `.xlsx` bytes.
 */
async function xlsformWorkbook(
  version: { number: number; languages: string[]; default_language: string | null },
  title: string,
  formId: string,
  fields: readonly FieldRow[],
): Promise<Buffer> {
  const languages: (string | null)[] = version.languages.length ? version.languages : [null];
  const def = version.languages.length ? (version.default_language ?? version.languages[0]!) : null;
  const header = (key: string, lang: string | null) =>
    lang === null ? key : `${key}::${languageHeader(lang)}`;

  // Tree order: each container followed by its members and its end row.
  const children = new Map<string | null, FieldRow[]>();
  for (const f of fields) {
    const list = children.get(f.parent ?? null) ?? [];
    list.push(f);
    children.set(f.parent ?? null, list);
  }
  const rows: { f: FieldRow; end?: boolean }[] = [];
  const walk = (parent: string | null) => {
    for (const f of children.get(parent) ?? []) {
      rows.push({ f });
      if (f.type === 'group' || f.type === 'repeat') {
        walk(f.name);
        rows.push({ f, end: true });
      }
    }
  };
  walk(null);

  // Only the columns some field uses (type, name and label always).
  const textColumns: { key: TextKey; lang: string | null }[] = [];
  for (const key of TEXTS)
    for (const lang of languages)
      if (key === 'label' || fields.some((f) => textIn(f, key, lang, def) !== undefined))
        textColumns.push({ key, lang });
  const logicColumns = LOGIC_COLUMNS.filter((c) => fields.some((f) => logicCell(f, c) !== undefined));

  const workbook = new ExcelJS.Workbook();
  const survey = workbook.addWorksheet('survey');
  survey.addRow(['type', 'name', ...textColumns.map((c) => header(c.key, c.lang)), ...logicColumns]);
  for (const { f, end } of rows) {
    if (end) {
      survey.addRow([`end_${f.type}`]);
      continue;
    }
    survey.addRow([
      f.type === 'group' || f.type === 'repeat' ? `begin_${f.type}` : xlsType(f),
      f.name,
      ...textColumns.map((c) => textIn(f, c.key, c.lang, def) ?? null),
      ...logicColumns.map((c) => logicCell(f, c) ?? null),
    ]);
  }

  const selects = fields.filter((f) => f.choices?.length);
  const properties = [
    ...new Set(selects.flatMap((f) => f.choices!.flatMap((c) => Object.keys(c.properties ?? {})))),
  ];
  const choices = workbook.addWorksheet('choices');
  choices.addRow(['list_name', 'name', ...languages.map((l) => header('label', l)), ...properties]);
  for (const f of selects)
    for (const c of f.choices!)
      choices.addRow([
        f.name,
        c.value,
        ...languages.map((l) => (l === null || l === def ? c.label : (c.translations?.[l]?.label ?? null))),
        ...properties.map((p) => c.properties?.[p] ?? null),
      ]);

  const settings = workbook.addWorksheet('settings');
  settings.addRow(['form_title', 'form_id', 'version', ...(def ? ['default_language'] : [])]);
  settings.addRow([title, formId, String(version.number), ...(def ? [languageHeader(def)] : [])]);
  // Everything is text: `1` stays the text `1`, `=...` is never a formula.
  for (const ws of [survey, choices, settings])
    ws.eachRow((row) =>
      row.eachCell((cell) => {
        if (cell.value !== null && typeof cell.value !== 'string') cell.value = String(cell.value);
      }),
    );
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/**
 * `GET /versions/{id}/xlsform`: a version as an XLSForm workbook, for whoever may read the
 * version (`project.open`, as `GET /versions/{id}`). `form_title` is the project's name,
 * `form_id` the project's XForm id (`fieldhouse-<id>`, as the XForm and the OpenRosa form list
 * name it: {@link xformId}), `version` the version's number.
 * @returns the bytes and a file name `<form_id>-v<number>.xlsx`.
 * @throws 404 (unknown, a draft to a non-member), 401 as {@link requireAccess}.
 */
export async function versionAsXlsForm(
  ctx: CollectionContext,
  actor: Actor,
  versionId: number,
): Promise<{ bytes: Buffer; fileName: string }> {
  const { version, project } = await requireAccess(ctx, { actor, permission: 'project.open', versionId });
  const fields = await listFields(ctx.db, version.id);
  const formId = xformId(project.id);
  const bytes = await xlsformWorkbook(version, project.name, formId, fields);
  return { bytes, fileName: `${formId}-v${version.number}.xlsx` };
}
