/**
 * XLSForm import (issue 35; docs/collection.md, "XLSForm"): an `.xlsx` workbook's `survey`,
 * `choices` and `settings` sheets translated into the command of `POST
 * /projects/{id}/versions` (domain/versions.ts `VersionCreate` with `fields`), so the upload is
 * created, checked and compiled by the same use case as a JSON version. The XLSForm reference is
 * xlsform.org (pyxform's reading of it where the page is silent). What Fieldhouse's form model
 * cannot hold is refused by name at its cell, `survey.12.relevant`, never dropped.
 */
import { APPEARANCES } from './field-definition.ts';
import { problems, type XlsFormIssue } from './problems.ts';
import type { FieldIssue, VersionCreate } from './versions.ts';
import { issue, readWorkbook, type SheetTable } from './xlsform-workbook.ts';

/** Survey columns and the field property each fills (pyxform's aliases of them too). */
const SURVEY_COLUMNS: Record<string, string> = {
  type: 'type',
  name: 'name',
  label: 'label',
  caption: 'label',
  hint: 'hint',
  required: 'required',
  required_message: 'required_message',
  requiredmsg: 'required_message',
  'jr:requiredmsg': 'required_message',
  relevant: 'relevant',
  relevance: 'relevant',
  constraint: 'constraint',
  constraint_message: 'constraint_message',
  constraining_message: 'constraint_message',
  'jr:constraintmsg': 'constraint_message',
  calculation: 'calculation',
  calculate: 'calculation',
  default: 'default',
  choice_filter: 'choice_filter',
  appearance: 'appearance',
  read_only: 'read_only',
  readonly: 'read_only',
  repeat_count: 'repeat_count',
  'jr:count': 'repeat_count',
  count: 'repeat_count',
};
/** The survey columns that take a text per language (`label::French (fr)`). */
const TRANSLATABLE = new Set(['label', 'hint', 'required_message', 'constraint_message']);

/** XLSForm columns Fieldhouse knows and does not take: refused by name (`unsupported_column`). */
const UNSUPPORTED_COLUMNS = new Set([
  'image',
  'big-image',
  'audio',
  'video',
  'media',
  'guidance_hint',
  'parameters',
  'trigger',
  'rows',
  'autoplay',
  'body',
  'bind',
  'instance',
  'save_to',
  'noapperrorstring',
  'no_app_error_string',
  'sms_field',
  'compact_tag',
]);

/** Choices columns besides extra filter properties. */
const CHOICE_COLUMNS: Record<string, string> = {
  list_name: 'list_name',
  'list name': 'list_name',
  name: 'name',
  value: 'name',
  label: 'label',
  caption: 'label',
};

/** Settings Fieldhouse takes (docs: what each becomes). */
const SETTINGS = new Set(['form_title', 'form_id', 'version', 'default_language']);

/** Sheets of XLSForm that Fieldhouse does not take (other sheets are not XLSForm's and are left alone). */
const UNSUPPORTED_SHEETS = new Set(['external_choices', 'entities', 'osm']);

/** Question types that map to a field type of the form model. */
const SIMPLE_TYPES: Record<string, string> = {
  text: 'text',
  string: 'text',
  integer: 'integer',
  int: 'integer',
  decimal: 'decimal',
  date: 'date',
  time: 'time',
  datetime: 'datetime',
  geopoint: 'geopoint',
  image: 'photo',
  photo: 'photo',
  note: 'note',
  calculate: 'calculate',
};

/**
 * Metadata types, filled without a question (docs/collection.md, "XLSForm"): `start`, `end` and
 * `today` by the service when it checks the submission (a `calculate` of `now()`/`today()`),
 * `deviceid` and `username` by the client that knows them (a read-only text).
 */
const METADATA: Record<string, { type: string; calculation?: string }> = {
  start: { type: 'calculate', calculation: 'now()' },
  end: { type: 'calculate', calculation: 'now()' },
  today: { type: 'calculate', calculation: 'today()' },
  deviceid: { type: 'text' },
  imei: { type: 'text' },
  username: { type: 'text' },
};

/** XLSForm types Fieldhouse's form model has no field for: refused by name (`unsupported_type`). */
const UNSUPPORTED_TYPES = new Set([
  'audio',
  'video',
  'file',
  'barcode',
  'acknowledge',
  'trigger',
  'range',
  'rank',
  'geotrace',
  'geoshape',
  'start-geopoint',
  'background-audio',
  'background-geopoint',
  'audit',
  'hidden',
  'email',
  'phonenumber',
  'phone number',
  'simserial',
  'subscriberid',
  'uri:deviceid',
  'uri:email',
  'uri:phonenumber',
  'uri:simserial',
  'uri:subscriberid',
  'uri:username',
  'xml-external',
  'csv-external',
  'begin loop',
  'end loop',
  'select_one_external',
  'select_one_from_file',
  'select_multiple_from_file',
  'select one from file',
  'select multiple from file',
  'osm',
  'add audio prompt',
  'add video prompt',
  'add file prompt',
]);

/** Common language names and their ISO 639-1 codes, for `label::English` written without a code. */
export const LANGUAGE_NAMES: Record<string, string> = {
  english: 'en',
  french: 'fr',
  français: 'fr',
  francais: 'fr',
  spanish: 'es',
  español: 'es',
  portuguese: 'pt',
  arabic: 'ar',
  chinese: 'zh',
  hindi: 'hi',
  swahili: 'sw',
  russian: 'ru',
  german: 'de',
  italian: 'it',
  bengali: 'bn',
  urdu: 'ur',
  indonesian: 'id',
  amharic: 'am',
  hausa: 'ha',
  yoruba: 'yo',
  igbo: 'ig',
  somali: 'so',
  nepali: 'ne',
  burmese: 'my',
  thai: 'th',
  vietnamese: 'vi',
  turkish: 'tr',
  persian: 'fa',
  pashto: 'ps',
  khmer: 'km',
  lao: 'lo',
  tagalog: 'tl',
  kinyarwanda: 'rw',
  luganda: 'lg',
  zulu: 'zu',
  afrikaans: 'af',
  dutch: 'nl',
  polish: 'pl',
  ukrainian: 'uk',
  japanese: 'ja',
  korean: 'ko',
  malagasy: 'mg',
  lingala: 'ln',
  wolof: 'wo',
  tigrinya: 'ti',
  oromo: 'om',
  tamil: 'ta',
  telugu: 'te',
  marathi: 'mr',
  punjabi: 'pa',
};

const YES = new Set(['yes', 'true', 'true()', '1']);
const NO = new Set(['no', 'false', 'false()', '0', '']);
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;
const CODE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

/** A header split into its column and language: `label::French (fr)` → label, `French (fr)`. */
function splitHeader(header: string): { base: string; language: string | null } {
  const at = header.indexOf('::');
  const single = at < 0 ? header.indexOf(':') : -1;
  // `label:English` (one colon, old XLSForms) but not `jr:count`, `uri:...`.
  if (at >= 0)
    return { base: header.slice(0, at).trim().toLowerCase(), language: header.slice(at + 2).trim() };
  if (single > 0 && !header.toLowerCase().startsWith('jr:'))
    return { base: header.slice(0, single).trim().toLowerCase(), language: header.slice(single + 1).trim() };
  return { base: header.trim().toLowerCase(), language: null };
}

/**
 * The BCP 47 code of an XLSForm language: `French (fr)` → fr; `fr` → fr; `French` → fr when it
 * is a name of {@link LANGUAGE_NAMES}; else null (the column needs `(code)`).
 */
function languageCodeOf(language: string): string | null {
  const m = /\(([^()]+)\)\s*$/.exec(language);
  if (m) return CODE.test(m[1]!.trim()) ? m[1]!.trim() : null;
  const known = LANGUAGE_NAMES[language.trim().toLowerCase()];
  if (known) return known;
  return CODE.test(language.trim()) && language.trim().length <= 3 ? language.trim().toLowerCase() : null;
}

/** Where each property of a field came from, to name the cell of a refusal. */
interface FieldSource {
  row: number;
  /** The header of each property's column (its default language's for texts). */
  columns: Record<string, string>;
  /** The choices sheet row of each choice, and that sheet's headers by role. */
  choiceRows: number[];
}

/** A column of a sheet: its header, what it fills, and its language code (null: plain). */
interface Column {
  index: number;
  header: string;
  role: string;
  language: string | null;
}

/** The translation in progress: issues and languages met. */
class Reader {
  readonly issues: XlsFormIssue[] = [];
  /** Language codes met in headers, in order. */
  readonly languages: string[] = [];
  /** Whether any plain (language-less) text column exists. */
  plainTexts = false;

  refuse(
    at: { sheet?: string; row?: number; column?: string },
    reason: string,
    message: string,
    values = {},
  ) {
    this.issues.push(issue(at, reason, message, values));
  }

  /** The columns of a sheet, refusing unknown and unsupported ones by name. */
  columns(
    sheet: string,
    table: SheetTable,
    known: Record<string, string>,
    other: (base: string, header: string, index: number) => Column | null,
  ): Column[] {
    const out: Column[] = [];
    table.headers.forEach((raw, index) => {
      const header = (raw ?? '').trim();
      if (!header) {
        if (table.rows.some((r) => r.cells[index]))
          this.refuse(
            { sheet, row: 1, column: columnLetter(index) },
            'no_header',
            `Column ${columnLetter(index)} holds values but has no header.`,
            { column: columnLetter(index) },
          );
        return;
      }
      const { base, language } = splitHeader(header);
      const role = known[base];
      // A column Fieldhouse does not take is refused only when it holds something to lose.
      if (!role && !table.rows.some((r) => r.cells[index])) return;
      if (!role) {
        const col = other(base, header, index);
        if (col) out.push(col);
        return;
      }
      if (language !== null && !TRANSLATABLE.has(role)) {
        this.refuse(
          { sheet, row: 1, column: header },
          'unknown_column',
          `${header}: ${base} has no languages.`,
          {
            column: header,
          },
        );
        return;
      }
      let code: string | null = null;
      if (language !== null) {
        code = languageCodeOf(language);
        if (!code) {
          this.refuse(
            { sheet, row: 1, column: header },
            'language_code',
            `${header}: write the language with its code, as in label::${language} (xx).`,
            { column: header, language },
          );
          return;
        }
        if (!this.languages.includes(code)) this.languages.push(code);
      } else if (TRANSLATABLE.has(role)) this.plainTexts = true;
      out.push({ index, header, role, language: code });
    });
    return out;
  }
}

/** `A`, `B`, ..., `AA` for a 1-based column number. */
function columnLetter(n: number): string {
  let s = '';
  for (let i = n; i > 0; i = Math.floor((i - 1) / 26)) s = String.fromCharCode(65 + ((i - 1) % 26)) + s;
  return s;
}

/** A choice list of the choices sheet. */
interface ChoiceList {
  choices: {
    row: number;
    value: string;
    texts: Map<string | null, string>;
    properties: Record<string, string>;
  }[];
}

/** What a text cell set holds: the default language's text and the others. */
type Texts = Map<string | null, string>;

/**
 * Translates an XLSForm workbook into the command of `POST /projects/{id}/versions`.
 * @param bytes the `.xlsx` file.
 * @returns the command with `fields` in form order, the languages of the workbook, and
 *   `refuseFields` naming each cell the use case's checks refuse (expressions included).
 * @throws 422 `xlsform_invalid` listing every refusal (`errors` keyed `survey.12.relevant`, and
 *   `xlsform_errors` with reason codes); 413 `xlsform_too_large`.
 */
export async function xlsformCommand(bytes: Buffer): Promise<VersionCreate> {
  const { sheets, issues } = await readWorkbook(bytes);
  const r = new Reader();
  r.issues.push(...issues);
  for (const name of sheets.keys())
    if (UNSUPPORTED_SHEETS.has(name))
      r.refuse({ sheet: name }, 'unsupported_sheet', `The ${name} sheet is not supported by Fieldhouse.`, {
        sheet: name,
      });
  const survey = sheets.get('survey');
  if (!survey) r.refuse({ sheet: 'survey' }, 'no_survey_sheet', 'The workbook has no survey sheet.');
  if (!survey || survey.unread) throw problems.xlsformInvalid({ issues: r.issues });

  const surveyColumns = r.columns('survey', survey, SURVEY_COLUMNS, (base, header) => {
    r.refuse(
      { sheet: 'survey', row: 1, column: header },
      UNSUPPORTED_COLUMNS.has(base) ||
        base.startsWith('media') ||
        base.startsWith('bind') ||
        base.startsWith('body')
        ? 'unsupported_column'
        : 'unknown_column',
      UNSUPPORTED_COLUMNS.has(base)
        ? `The ${header} column is not supported by Fieldhouse.`
        : `${header} is not a column of the survey sheet that Fieldhouse knows.`,
      { column: header },
    );
    return null;
  });
  for (const needed of ['type', 'name'])
    if (!surveyColumns.some((c) => c.role === needed))
      r.refuse({ sheet: 'survey', row: 1 }, 'missing_column', `The survey sheet has no ${needed} column.`, {
        column: needed,
      });
  // Without them no row can be read: the rows' refusals would only repeat it.
  if (r.issues.some((i) => i.reason === 'missing_column'))
    throw problems.xlsformInvalid({ issues: r.issues });

  const lists = readChoices(r, sheets.get('choices'));
  const settings = readSettings(r, sheets.get('settings'));

  // Languages: the settings' default, else the plain columns' (no code) or the first met.
  let defaultLanguage: string | null = null;
  if (settings.default_language) {
    defaultLanguage = languageCodeOf(settings.default_language.value);
    if (!defaultLanguage)
      r.refuse(
        { sheet: 'settings', row: settings.default_language.row, column: 'default_language' },
        'language_code',
        `default_language: write the language with its code, as in ${settings.default_language.value} (xx).`,
        { language: settings.default_language.value },
      );
  }
  const languages = [...r.languages];
  // One language and plain columns beside it (`label::English` and `hint`): the plain ones are in it.
  if (languages.length === 1 && r.plainTexts && !defaultLanguage) defaultLanguage = languages[0]!;
  if (languages.length && r.plainTexts && !defaultLanguage)
    r.refuse(
      { sheet: 'settings', row: 1, column: 'default_language' },
      'default_language_needed',
      'The workbook has texts with and without a language: settings default_language must name the language of label, hint... (e.g. English (en)).',
    );
  if (defaultLanguage && !languages.includes(defaultLanguage) && (languages.length || r.plainTexts))
    languages.unshift(defaultLanguage);
  if (!defaultLanguage && languages.length) defaultLanguage = languages[0]!;
  if (languages.length > 20)
    r.refuse({ sheet: 'survey', row: 1 }, 'too_many_languages', 'A form may have at most 20 languages.', {
      limit: 20,
    });

  const { fields, sources } = readSurvey(
    r,
    survey,
    surveyColumns,
    lists,
    languages.length ? defaultLanguage : null,
  );
  if (r.issues.length) throw problems.xlsformInvalid({ issues: r.issues });
  return {
    copy_last_published: false,
    ...(languages.length ? { languages, default_language: defaultLanguage } : {}),
    fields,
    refuseFields: (found) => problems.xlsformInvalid({ issues: found.map((f) => locate(f, sources)) }),
  };
}

/** The text of a texts map as the API takes it: a plain string, or one per language. */
function textOf(texts: Texts, defaultLanguage: string | null): string | Record<string, string> | undefined {
  if (!texts.size) return undefined;
  if (!defaultLanguage) return texts.get(null);
  const out: Record<string, string> = {};
  for (const [lang, t] of texts) out[lang ?? defaultLanguage] = t;
  return out;
}

/** The choices sheet as lists; extra columns are properties for `choice_filter`. */
function readChoices(r: Reader, table: SheetTable | undefined): Map<string, ChoiceList> {
  const lists = new Map<string, ChoiceList>();
  if (!table || !table.rows.length) return lists;
  const sheet = 'choices';
  const columns = r.columns(sheet, table, CHOICE_COLUMNS, (base, header, index) => {
    if (UNSUPPORTED_COLUMNS.has(base) || base.startsWith('media')) {
      r.refuse(
        { sheet, row: 1, column: header },
        'unsupported_column',
        `The ${header} column is not supported by Fieldhouse.`,
        {
          column: header,
        },
      );
      return null;
    }
    if (!NAME.test(header)) {
      r.refuse(
        { sheet, row: 1, column: header },
        'invalid_property',
        `${header}: a choice filter column is named with letters, digits and _ only.`,
        { column: header },
      );
      return null;
    }
    return { index, header, role: 'property', language: null };
  });
  for (const needed of ['list_name', 'name'])
    if (!columns.some((c) => c.role === needed))
      r.refuse({ sheet, row: 1 }, 'missing_column', `The choices sheet has no ${needed} column.`, {
        column: needed,
      });
  for (const row of table.rows) {
    const cell = (c: Column) => row.cells[c.index] ?? '';
    let list = '';
    let value = '';
    const texts: Texts = new Map();
    const properties: Record<string, string> = {};
    for (const c of columns) {
      const v = cell(c);
      if (c.role === 'list_name') list = v;
      else if (c.role === 'name') value = v;
      else if (c.role === 'label' && v) texts.set(c.language, v);
      else if (c.role === 'property' && v) properties[c.header] = v;
    }
    if (!list) {
      r.refuse(
        { sheet, row: row.number, column: 'list_name' },
        'missing_list_name',
        'A choice without list_name.',
      );
      continue;
    }
    if (!value) {
      r.refuse(
        { sheet, row: row.number, column: 'name' },
        'missing_name',
        `A choice of list ${list} without a name.`,
        {
          list,
        },
      );
      continue;
    }
    const entry = lists.get(list) ?? { choices: [] };
    lists.set(list, entry);
    const twin = entry.choices.find((c) => c.value === value);
    if (twin) {
      r.refuse(
        { sheet, row: row.number, column: 'name' },
        'duplicate_choice',
        `${value} is a choice of list ${list} already (row ${twin.row}): a list's choice names are unique.`,
        { name: value, list, first_row: twin.row },
      );
      continue;
    }
    if (!texts.size)
      r.refuse(
        { sheet, row: row.number, column: 'label' },
        'missing_label',
        `Choice ${value} of list ${list} has no label.`,
        {
          name: value,
          list,
        },
      );
    entry.choices.push({ row: row.number, value, texts, properties });
  }
  return lists;
}

/** The settings sheet's first row of values, by setting; unsupported settings refused. */
function readSettings(
  r: Reader,
  table: SheetTable | undefined,
): Record<string, { value: string; row: number }> {
  const out: Record<string, { value: string; row: number }> = {};
  const values = table?.rows[0];
  if (!table || !values) return out;
  table.headers.forEach((raw, index) => {
    const header = (raw ?? '').trim();
    const value = values.cells[index] ?? '';
    if (!header || !value) return;
    const key = header.toLowerCase().replace(/^set_/, '');
    if (!SETTINGS.has(key)) {
      r.refuse(
        { sheet: 'settings', row: values.number, column: header },
        'unsupported_setting',
        `The ${header} setting is not supported by Fieldhouse.`,
        { setting: header },
      );
      return;
    }
    out[key] = { value, row: values.number };
  });
  return out;
}

/** A container open while reading the survey: its kind, name and the row that began it. */
interface Open {
  kind: 'group' | 'repeat';
  name: string;
  row: number;
}

/** The survey sheet's rows as field bodies, in form order, with where each came from. */
function readSurvey(
  r: Reader,
  table: SheetTable,
  columns: Column[],
  lists: Map<string, ChoiceList>,
  defaultLanguage: string | null,
): { fields: Record<string, unknown>[]; sources: FieldSource[] } {
  const sheet = 'survey';
  const fields: Record<string, unknown>[] = [];
  const sources: FieldSource[] = [];
  const stack: Open[] = [];
  const typeColumn = columns.find((c) => c.role === 'type')?.header ?? 'type';
  for (const row of table.rows) {
    const at = (column: string) => ({ sheet, row: row.number, column });
    const values: Record<string, string> = {};
    const texts: Record<string, Texts> = {};
    const headers: Record<string, string> = {};
    for (const c of columns) {
      const v = row.cells[c.index] ?? '';
      if (TRANSLATABLE.has(c.role)) {
        if (c.language === null || c.language === defaultLanguage || !headers[c.role])
          headers[c.role] = c.header;
        if (v) (texts[c.role] ??= new Map()).set(c.language, v);
      } else {
        headers[c.role] = c.header;
        if (v) values[c.role] = v;
      }
    }
    const rawType = (values.type ?? '').replace(/\s+/g, ' ').trim();
    const type = rawType.toLowerCase();
    const name = values.name ?? '';
    if (!type) {
      r.refuse(at(typeColumn), 'missing_type', 'A row with values but no type.');
      continue;
    }
    // end group / end repeat
    const end = /^end[ _](group|repeat)$/.exec(type);
    if (end) {
      const open = stack.pop();
      if (!open || open.kind !== end[1])
        r.refuse(at(typeColumn), 'unmatched_end', `${rawType} closes no begin ${end[1]}.`, { type: rawType });
      if (open && open.kind !== end[1]) stack.push(open);
      continue;
    }
    const body: Record<string, unknown> = {};
    const source: FieldSource = { row: row.number, columns: headers, choiceRows: [] };
    const begin = /^begin[ _](group|repeat)$/.exec(type);
    let kind: string | undefined;
    let listName: string | undefined;
    if (begin) kind = begin[1];
    else if (SIMPLE_TYPES[type]) kind = SIMPLE_TYPES[type];
    else if (METADATA[type]) {
      kind = METADATA[type].type;
      if (METADATA[type].calculation) body.calculation = METADATA[type].calculation;
      else body.read_only = true;
    } else {
      const select =
        /^(select_one|select one|select1|select_multiple|select all that apply)(?: from)? +([^ ]+)(?: +(.+))?$/.exec(
          type,
        );
      if (select && !UNSUPPORTED_TYPES.has(`${select[1]} ${select[2]}`)) {
        if (select[3]) {
          r.refuse(
            at(typeColumn),
            select[3].replace(/ /g, '_') === 'or_other' || select[3] === 'or specify other'
              ? 'other_choice'
              : 'unknown_type',
            `${rawType}: "${select[3]}" after the list name is not supported by Fieldhouse.`,
            { type: rawType },
          );
          continue;
        }
        kind =
          select[1] === 'select_one' || select[1] === 'select one' || select[1] === 'select1'
            ? 'select_one'
            : 'select_multiple';
        // The list name keeps its case (the type's words do not).
        listName = (values.type ?? '').trim().split(/\s+/).pop();
      } else {
        const word = type.split(' ')[0]!;
        const known = UNSUPPORTED_TYPES.has(type) || UNSUPPORTED_TYPES.has(word) || type.startsWith('uri:');
        r.refuse(
          at(typeColumn),
          known ? 'unsupported_type' : 'unknown_type',
          known
            ? `The ${rawType} type is not supported by Fieldhouse.`
            : `${rawType} is not a question type of XLSForm that Fieldhouse knows.`,
          { type: rawType },
        );
        continue;
      }
    }
    if (!name) {
      r.refuse(at(headers.name ?? 'name'), 'missing_name', `A ${rawType} row without a name.`, {
        type: rawType,
      });
      continue;
    }
    if (!NAME.test(name)) {
      r.refuse(
        at(headers.name ?? 'name'),
        'invalid_name',
        `${name}: Fieldhouse names have letters, digits and _ only, and do not start with a digit.`,
        { name },
      );
      continue;
    }
    body.name = name;
    body.type = kind;
    if (stack.length) body.parent = stack[stack.length - 1]!.name;
    // Texts
    const label = texts.label ? textOf(texts.label, defaultLanguage) : undefined;
    if (label !== undefined) body.label = label;
    else if (kind === 'group' || kind === 'repeat' || kind === 'calculate' || METADATA[type])
      body.label = name;
    else {
      r.refuse(at(headers.label ?? 'label'), 'missing_label', `${name} has no label.`, { name });
      continue;
    }
    for (const k of ['hint', 'required_message', 'constraint_message'] as const)
      if (texts[k]) body[k] = textOf(texts[k], defaultLanguage);
    // Logic
    for (const k of ['relevant', 'constraint', 'calculation', 'choice_filter'] as const)
      if (values[k] !== undefined) body[k] = values[k];
    if (values.required !== undefined) {
      const v = values.required.toLowerCase();
      if (YES.has(v)) body.required = true;
      else if (!NO.has(v)) {
        body.required_if = values.required;
        source.columns.required_if = headers.required ?? 'required';
      }
    }
    if (values.read_only !== undefined) {
      const v = values.read_only.toLowerCase();
      if (YES.has(v)) body.read_only = true;
      else if (!NO.has(v)) {
        r.refuse(
          at(headers.read_only ?? 'read_only'),
          'read_only_expression',
          `read_only takes yes or no in Fieldhouse, not an expression (${values.read_only}).`,
          { value: values.read_only },
        );
        continue;
      }
    }
    if (values.appearance !== undefined) {
      const appearance = values.appearance;
      if (!(APPEARANCES as readonly string[]).includes(appearance)) {
        r.refuse(
          at(headers.appearance ?? 'appearance'),
          'unsupported_appearance',
          `The ${appearance} appearance is not supported by Fieldhouse (${APPEARANCES.join(', ')}).`,
          { appearance, supported: APPEARANCES.join(', ') },
        );
        continue;
      }
      body.appearance = appearance;
    }
    if (values.repeat_count !== undefined)
      body.repeat_count = /^\d+$/.test(values.repeat_count)
        ? Number(values.repeat_count)
        : values.repeat_count;
    if (values.default !== undefined) body.default = typedDefault(kind!, values.default);
    // Choices
    if (listName !== undefined) {
      const list = lists.get(listName);
      if (!list) {
        r.refuse(at(typeColumn), 'unknown_list', `${listName} is not a list of the choices sheet.`, {
          list: listName,
        });
        continue;
      }
      body.choices = list.choices.map((c) => ({
        value: c.value,
        label: textOf(c.texts, defaultLanguage) ?? c.value,
        ...(Object.keys(c.properties).length ? { properties: c.properties } : {}),
      }));
      source.choiceRows = list.choices.map((c) => c.row);
    }
    fields.push(body);
    sources.push(source);
    if (begin) stack.push({ kind: begin[1] as 'group' | 'repeat', name, row: row.number });
  }
  for (const open of stack)
    r.refuse(
      { sheet, row: open.row, column: typeColumn },
      'unclosed_begin',
      `begin ${open.kind} ${open.name} has no end ${open.kind}.`,
      {
        type: `begin ${open.kind}`,
        name: open.name,
      },
    );
  return { fields, sources };
}

/** An XLSForm `default` (always text) as the value of the field's type. */
function typedDefault(type: string, text: string): unknown {
  if ((type === 'integer' || type === 'decimal') && text.trim() !== '' && !Number.isNaN(Number(text)))
    return Number(text);
  if (type === 'select_multiple') return text.split(/\s+/).filter(Boolean);
  if (type === 'time' && /^\d{2}:\d{2}$/.test(text)) return `${text}:00`;
  return text;
}

/** The cell of a field's refusal found by the use case (its row, the property's column). */
function locate(f: FieldIssue, sources: readonly FieldSource[]): XlsFormIssue {
  const reason = f.reason;
  const values: Record<string, string | number> = f.column !== undefined ? { position: f.column } : {};
  const source = sources[f.index];
  if (!source) return issue({ sheet: 'survey' }, reason, f.message, values);
  const choice = /^choices\.(\d+)\.(\w+)(?:\.(\w+))?/.exec(f.property);
  if (choice && source.choiceRows[Number(choice[1])] !== undefined) {
    const column = choice[2] === 'value' ? 'name' : choice[2] === 'properties' ? choice[3]! : 'label';
    return issue(
      { sheet: 'choices', row: source.choiceRows[Number(choice[1])], column },
      reason,
      f.message,
      values,
    );
  }
  const property = f.property.split('.')[0]!;
  const column =
    source.columns[property] ??
    (property === 'translations' || property === 'choices' || property === 'parent'
      ? (source.columns.label ?? source.columns.type)
      : property);
  return issue({ sheet: 'survey', row: source.row, column }, reason, f.message, values);
}
