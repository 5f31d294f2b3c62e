/**
 * The collection service's shared types and the constant lists that define them, free of logic:
 * what data/ and domain/ both speak (data/ may import this module and no other of domain/; lint).
 * The rules over them stay in their domain/ modules (roles.ts, transitions.ts, publication.ts...).
 */

// --- roles (domain/roles.ts) ---

/**
 * Workspace roles and what each may do (docs/collection.md, "Roles"). Non-members may do
 * nothing below a workspace and get 404 (except submitting to, and reading the published form
 * of, a project published with `collect_access` public or authenticated).
 */
export const ROLES = ['owner', 'admin', 'manager', 'collector', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

// --- submissions (domain/transitions.ts, domain/submission-validation.ts) ---

/** Submission status values of spec 2.1. */
export const STATUSES = ['submitted', 'draft', 'reviewed', 'rejected', 'requires_correction'] as const;
export type Status = (typeof STATUSES)[number];

/** A data entry of spec 2.1 after validation. */
export interface DataEntry {
  field_uuid: string;
  type: string;
  value: unknown;
}

/** A stored photo as it appears in a submission's data. */
export interface PhotoRef {
  photo_id: string;
  content_type: string;
  size: number;
  url: string;
}

// --- form fields (domain/fields.ts) ---

/** Field types of spec 2.1: those answered with a value of their own format. */
export const VALUE_TYPES = [
  'text',
  'integer',
  'decimal',
  'date',
  'time',
  'datetime',
  'select_one',
  'select_multiple',
  'geopoint',
  'photo',
] as const;
export type ValueType = (typeof VALUE_TYPES)[number];

/**
 * Every field type: the value types, and those of the form model of issue 34
 * (docs/collection.md, "Form versions and fields"): `group` and `repeat` (containers), `note`
 * (display only, never answered), `calculate` (hidden, its value computed by the service).
 */
export const FIELD_TYPES = [...VALUE_TYPES, 'group', 'repeat', 'note', 'calculate'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
/** The field types whose answers are choices of the field's list. */
export const SELECT_TYPES: readonly FieldType[] = ['select_one', 'select_multiple'];
/** The field types whose answers are numbers (`min`/`max` apply). */
export const NUMBER_TYPES: readonly FieldType[] = ['integer', 'decimal'];

/** Per-language texts beside the default language's: `{"fr": {"label": "...", "hint": "..."}}`. */
export type Translations = Record<
  string,
  { label?: string; hint?: string; constraint_message?: string; required_message?: string }
>;

export interface Choice {
  value: string;
  label: string;
  /** Extra properties a `choice_filter` reads by bare name (cascading selects). */
  properties?: Record<string, string>;
  /** The label in the version's other languages: `{"fr": {"label": "..."}}`. */
  translations?: Record<string, { label?: string }>;
}

/** Optional constraints: `min`/`max` for integer and decimal, `max_length`/`pattern` for text. */
export interface Constraints {
  min?: number;
  max?: number;
  max_length?: number;
  /** A JavaScript regular expression (Unicode mode) the whole text must match. */
  pattern?: string;
}

/**
 * The logic and display properties of a field (form model of issue 34; all optional, stored in
 * `fields.logic`): expressions are strings in the ODK XPath subset of `@fieldhouse/form-logic`.
 */
export interface FieldLogic {
  relevant?: string;
  constraint?: string;
  constraint_message?: string;
  required_if?: string;
  required_message?: string;
  calculation?: string;
  default?: unknown;
  read_only?: boolean;
  choice_filter?: string;
  hint?: string;
  appearance?: string;
  repeat_count?: number | string;
  min_repeats?: number;
  max_repeats?: number;
}

/** The keys of {@link FieldLogic}, in the order answers list them. */
export const LOGIC_KEYS = [
  'hint',
  'relevant',
  'constraint',
  'constraint_message',
  'required_if',
  'required_message',
  'calculation',
  'default',
  'read_only',
  'choice_filter',
  'appearance',
  'repeat_count',
  'min_repeats',
  'max_repeats',
] as const satisfies ReadonlyArray<keyof FieldLogic>;

/** A form field as the validators need it. */
export interface FieldDef {
  id: number;
  uuid: string;
  name: string;
  label: string;
  type: FieldType;
  required: boolean;
  choices: Choice[] | null;
  constraints: Constraints;
  /** The `group` or `repeat` containing it (its name), null at the top level. */
  parent: string | null;
  logic: FieldLogic;
  translations: Translations;
}

// --- publication (domain/publication.ts) ---

/**
 * `collect_access` values: `public` (anyone through the gateway, anonymous included),
 * `authenticated` (any signed-in user, member or not), `members` (workspace members whose role
 * may collect: owner, admin, manager, collector). Default `members`.
 */
export const COLLECT_ACCESS = ['public', 'authenticated', 'members'] as const;
type CollectAccess = (typeof COLLECT_ACCESS)[number];

/** Publication settings of spec 2.1 as stored on a project (every key present). */
export interface PublicationSettings {
  collect_access: CollectAccess;
  submission_limit: number | null;
  collect_starts_at: string | null;
  collect_expires_at: string | null;
  allow_multiple_submissions: boolean;
  allow_edits: boolean;
  require_consent: boolean;
  consent_text: string | null;
  notify_on_submission: boolean;
  notification_emails: string[];
}

export const DEFAULT_SETTINGS: PublicationSettings = {
  collect_access: 'members',
  submission_limit: null,
  collect_starts_at: null,
  collect_expires_at: null,
  allow_multiple_submissions: true,
  allow_edits: false,
  require_consent: false,
  consent_text: null,
  notify_on_submission: false,
  notification_emails: [],
};

// --- photos and exports (domain/photos.ts, domain/formula-escaping.ts, domain/export-columns.ts) ---

/** Image types accepted for photo fields, detected from the bytes (never from a client header). */
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/heic', 'image/avif'];

/**
 * First characters that start a formula: `=`, `+`, `-`, `@`, tab, carriage return (OWASP), and
 * the full-width `＝ ＋ － ＠` that Apple Numbers normalises to them (as csv-stringify's
 * `escape_formulas` does).
 */
export const FORMULA_TRIGGERS = [
  '=',
  '+',
  '-',
  '@',
  '\t',
  '\r',
  '\uFF1D',
  '\uFF0B',
  '\uFF0D',
  '\uFF20',
] as const;

/** A plain decimal number, optionally signed, with an optional exponent (POSIX ERE and JS). */
export const PLAIN_NUMBER = '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?$';

/** A field as the export sees it: one per field uuid over the project's published versions. */
export interface ExportField {
  uuid: string;
  name: string;
  label: string;
  type: string;
  /** Choice values of a select field, in form order (the newest version's, then older ones). */
  choices: string[];
  /** With an export's `lang` only: each choice value's label in it (else its default label). */
  choiceLabels?: Record<string, string>;
  /**
   * The uuids of the `repeat` fields around this one, outermost first (issue 34's form model;
   * groups are transparent): empty for a field of the submission's own table.
   */
  repeats: string[];
}

/** Header rows an export may have: field names (default) or field labels. */
export const EXPORT_HEADERS = ['names', 'labels'] as const;

/** Export options of the request (docs/collection.md, "Exports"). */
export interface ExportOptions {
  /** Header row: field names (default) or field labels. */
  header: (typeof EXPORT_HEADERS)[number];
  /** Adds one 0/1 column per choice after each select_multiple column. */
  choice_columns: boolean;
  /**
   * CSV only: text cells a spreadsheet would run as a formula get a leading `'`
   * (domain/formula-escaping.ts); `false` writes every value exactly as stored.
   */
  formula_escaping: boolean;
  /**
   * The language of the labels (a code of the version's `languages`); absent: the default
   * language's text (what `label` holds).
   */
  lang?: string;
}

export const DEFAULT_EXPORT_OPTIONS: ExportOptions = {
  header: 'names',
  choice_columns: false,
  formula_escaping: true,
};

/**
 * What one column of an export holds:
 * - `meta`: a submission column (`id`, `status`, `collector_id`, `collector_name`,
 *   `form_version`, `created_at`, `updated_at`, `latitude`, `longitude`);
 * - `value`: the field's value as text (numbers as stored, dates and times as sent);
 * - `joined`: a select_multiple's values separated by spaces;
 * - `choice`: 1 when a select_multiple holds `choice`, 0 when it does not, empty when unanswered;
 * - `geo`: part `index` of a geopoint (0 latitude, 1 longitude, 2 altitude, 3 precision);
 * - `photo`: a photo's absolute download URL, or its path inside a media zip ({@link PhotoCells});
 * - `instance`: in a repeat's table, the instance's `key`, its parent's (`parent_key`) or its
 *   submission's id (docs/collection.md, "Exports").
 */
export type ColumnSource =
  | { kind: 'meta'; column: MetaColumn }
  | { kind: 'value' | 'joined' | 'photo'; uuid: string }
  | { kind: 'choice'; uuid: string; choice: string }
  | { kind: 'geo'; uuid: string; index: number }
  | { kind: 'instance'; part: 'key' | 'parent_key' | 'submission_id' };

/**
 * What a photo cell holds (docs/collection.md, "Exports"):
 * - `url`: the photo's API URL made absolute with `base` (the deployment's `PUBLIC_URL`):
 *   `<base>/api/v1/photos/<id>`, which asks whoever follows it to sign in and may read the
 *   submission (CSV, xlsx, GeoJSON);
 * - `media`: the photo's file inside the zip, `media/<photo id>.<ext>` (the media zip's CSV).
 */
export type PhotoCells = { kind: 'url'; base: string } | { kind: 'media' };

/** One export column: its header, its label and where its values come from. */
export interface ExportColumn {
  /** Machine header: the field name, with suffixes for geopoint parts and choices. */
  name: string;
  /** Human header: the field label, with the same suffixes in parentheses. */
  label: string;
  source: ColumnSource;
  /** Whether xlsx and GeoJSON write the value as a number (CSV is text anyway). */
  numeric: boolean;
}

export type MetaColumn =
  | 'id'
  | 'status'
  | 'collector_id'
  | 'collector_name'
  | 'form_version'
  | 'created_at'
  | 'updated_at'
  | 'latitude'
  | 'longitude';

// --- analyses (domain/charts.ts) ---

/** Chart kinds of an analysis (docs/collection.md, "Analyses and charts"). */
export const CHART_KINDS = ['choice_counts', 'histogram', 'over_time', 'map', 'status'] as const;
export type ChartKind = (typeof CHART_KINDS)[number];

/** A chart definition as stored in an analysis. */
export interface ChartDef {
  title: string;
  kind: ChartKind;
  /** Field name: select_one/select_multiple (choice_counts), integer/decimal (histogram), geopoint (map). */
  field?: string;
  /** A select_one field whose values split the counts (choice_counts, over_time, status). */
  split_by?: string;
  /** Number of bins of a histogram (default 10). */
  bins?: number;
}
