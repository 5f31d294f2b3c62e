/**
 * Types of the form-level engine of @fieldhouse/form-logic (issue 34, /docs/form-logic.md "Forms"):
 * a form definition (a tree of nodes with the logic properties of the form model), the compiled
 * form, its evaluation, validation of submission entries and the incremental session of the web
 * form. Browser-safe: no Node API.
 */
import type { Position } from './parse.ts';

/** Per-language texts of a node beside the default language's (the API's normalised `translations`). */
export type NodeTranslations = Readonly<
  Record<
    string,
    Readonly<{ label?: string; hint?: string; constraint_message?: string; required_message?: string }>
  >
>;

/** A choice of a select field; `properties` are what a `choice_filter` reads by bare name. */
export interface FormChoice {
  value: string;
  label: string;
  properties?: Readonly<Record<string, string>> | null;
  translations?: Readonly<Record<string, Readonly<{ label?: string }>>> | null;
}

/**
 * One node of a form: a field as the API returns it (docs/collection.md), plus `children` for a
 * `group` or `repeat`. Expressions are strings in the ODK XPath subset of compile(). Texts are the
 * default language's; `translations` holds the others.
 */
export interface FormNode {
  name: string;
  /** A field type (`text`, `integer`, `select_one`...), or `group`, `repeat`, `note`, `calculate`. */
  type: string;
  uuid: string;
  label?: string | null;
  hint?: string | null;
  /** Boolean form of required (`required_if` is the expression form; not both). */
  required?: boolean | null;
  required_if?: string | null;
  required_message?: string | null;
  /** On a group or repeat, applies to everything inside. */
  relevant?: string | null;
  constraint?: string | null;
  constraint_message?: string | null;
  /** Required for, and only for, `calculate`. */
  calculation?: string | null;
  /** A literal value of the field's type (XLSForm `default`), pre-filled by the web form. */
  default?: unknown;
  read_only?: boolean | null;
  /** Select types: evaluated once per choice; a bare name is the choice's property of that name. */
  choice_filter?: string | null;
  choices?: readonly FormChoice[] | null;
  /** Repeat only: a fixed count (integer) or an expression. */
  repeat_count?: number | string | null;
  min_repeats?: number | null;
  max_repeats?: number | null;
  appearance?: string | null;
  translations?: NodeTranslations | null;
  /** Members of a group or repeat, in order (ignored for other types). */
  children?: readonly FormNode[] | null;
}

/** A form version's definition: its languages and its tree of nodes (top level first). */
export interface FormDefinition {
  /** BCP 47 codes; empty or absent: a one-language form. */
  languages?: readonly string[] | null;
  default_language?: string | null;
  nodes: readonly FormNode[];
}

/** A field as the API lists it: flat, `parent` naming its group/repeat, `position` among siblings. */
export type FlatField = Omit<FormNode, 'children'> & { parent?: string | null; position?: number | null };

/**
 * A problem with a form definition, as the 422 of a version's field shows it: the field (its
 * `name`), the property (`relevant`, `calculation`, `parent`...), a stable `code`, an English
 * `message` (naming the position for expressions) and the `position` in the expression.
 */
export interface FormError {
  field: string;
  property: string;
  code:
    | 'syntax'
    | 'unknown_reference'
    | 'unknown_function'
    | 'arity'
    | 'argument'
    | 'unsupported'
    | 'cycle'
    | 'parent'
    | 'duplicate_name'
    | 'invalid';
  message: string;
  position?: Position;
}

export type FormTreeResult = { ok: true; nodes: FormNode[] } | { ok: false; errors: FormError[] };

export type CompileFormResult = { ok: true; form: CompiledForm } | { ok: false; errors: FormError[] };

/**
 * Answers as the engine holds them: one object per level (the top level, or one repeat instance),
 * keyed by field name (names are unique in a form). A value is the submission entry's `value`
 * (string, number, boolean, string[] for select_multiple, an object for geopoint/photo, null); a
 * repeat's value is its instances, each such an object. Groups and notes have no key.
 */
export interface FormAnswers {
  [name: string]: unknown;
}

/**
 * A path names a node at one level: the field name, preceded by the repeats and 0-based instance
 * indexes that contain it: `age`, `member.2.age`, `member.2.child.0.age`; a group is named like a
 * field (`health`, `member.2.health`), a repeat itself by its name (`member`).
 */
export type FormPath = string;

/** The state of one node for given answers. */
export interface NodeState {
  /** Its own and every enclosing group/repeat's `relevant` (true without one). */
  relevant: boolean;
  /** `required` or `required_if` true, and relevant. */
  required: boolean;
  readOnly: boolean;
  /** The constraint holds (true without a constraint, for an empty answer, or when not relevant). */
  valid: boolean;
  /** Select types: the choices `choice_filter` lets through (all without a filter). */
  choices?: readonly FormChoice[];
  /** Repeats: the instances expected (`count` when `repeat_count` is given) and the bounds. */
  repeat?: { count: number | null; min: number; max: number; instances: number };
}

/** What evaluate() returns: computed `calculate` values and the state of every node, by path. */
export interface FormState {
  /** The value of every `calculate` node (a string; '' when not relevant). */
  values: Record<FormPath, string>;
  nodes: Record<FormPath, NodeState>;
}

/** A submission entry (spec 2.1, extended for repeats: `value` is an array of instances of entries). */
export interface FormEntry {
  field_uuid: string;
  type: string;
  value: unknown;
}

export interface ValidateOptions {
  /** A draft: required answers are not enforced (everything else is). */
  draft?: boolean;
  /** Language of the messages (the version's default, then English, when the form lacks it). */
  language?: string | null;
  /** The clock of today()/now(), ms since the epoch (one per submission); Date.now() when absent. */
  now?: number;
  /** Key prefix of errors; `data` by default. */
  prefix?: string;
}

/**
 * validate()'s answer: the entries with `calculate` values recomputed (added where missing, removed
 * where not relevant), and the errors keyed as form-model.md says: `data.3.value`,
 * `data.5.value.1.2.value` (entry 2 of instance 1 of the repeat at entry 5), `data.5.value` (repeat
 * count), `data.<name>` / `data.5.value.1.<name>` (a required answer with no entry).
 */
export interface ValidateResult {
  entries: FormEntry[];
  errors: Record<string, string[]>;
}

/** An incremental evaluation for the web form, over answers it owns. */
export interface FormSession {
  /** The current answers (calculations included); do not mutate: use set(). */
  readonly answers: FormAnswers;
  /** The current state of every node (same shape as evaluate()); built on first read after a change. */
  readonly state: FormState;
  /**
   * The current state of the node at `path` (as `state.nodes[path]`), read from its scope without
   * building the whole state: a keystroke's re-rendered nodes cost their own depth, not the form.
   * Throws on a path that names no node (a programming error).
   */
  nodeAt(path: FormPath): NodeState;
  /** The current value of the calculation at `path` (as `state.values[path]`: '' when none). */
  calculated(path: FormPath): string;
  /**
   * Sets the answer at `path` (a field, or a repeat with its instances array) and re-evaluates only
   * what depends on it (the references graph). Returns the paths whose state or value changed.
   */
  set(path: FormPath, value: unknown): SessionChange;
  /** Adds an instance (empty, or `instance`) at the end of the repeat at `path`. */
  addInstance(path: FormPath, instance?: FormAnswers): SessionChange;
  /** Removes instance `index` of the repeat at `path`. */
  removeInstance(path: FormPath, index: number): SessionChange;
}

export interface SessionChange {
  /** Paths of calculate nodes whose value changed. */
  values: FormPath[];
  /** Paths of nodes whose state changed (relevant, required, valid, choices, repeat bounds). */
  nodes: FormPath[];
}

/** A compiled form: build it once per version (compileForm) and use it for every submission. */
export interface CompiledForm {
  readonly definition: FormDefinition;
  /** Every node by name. */
  readonly byName: ReadonlyMap<string, FormNode>;
  /** Every node by uuid. */
  readonly byUuid: ReadonlyMap<string, FormNode>;
  /** Names of `calculate` nodes in dependency order (a calculation after those it reads). */
  readonly calculationOrder: readonly string[];
  /** Evaluates everything for `answers` (calculations are recomputed, whatever `answers` holds). */
  evaluate(answers: FormAnswers, options?: { now?: number }): FormState;
  /** Checks submission entries against the logic ("Rules enforced" of the form model). */
  validate(entries: readonly FormEntry[], options?: ValidateOptions): ValidateResult;
  /** Starts an incremental evaluation over `answers` (copied). */
  session(answers?: FormAnswers, options?: { now?: number }): FormSession;
  /** Submission entries → answers tree (unknown uuids and malformed entries are left out). */
  answersFromEntries(entries: readonly FormEntry[]): FormAnswers;
  /** Answers tree → submission entries, in form order (calculate entries typed `calculate`). */
  entriesFromAnswers(answers: FormAnswers): FormEntry[];
  /**
   * A copy of `answers` keeping only relevant answers (calculations recomputed): what the web form
   * sends, since validate() refuses an answer to a question that is not relevant.
   */
  relevantAnswers(answers: FormAnswers, options?: { now?: number }): FormAnswers;
  /** Answers with every `default` pre-filled (and repeat_count/min_repeats instances), for a new submission. */
  initialAnswers(): FormAnswers;
}

/**
 * Signatures of the module's functions (implemented in form-compile.ts and form-tree.ts):
 * - `formTree(fields: readonly FlatField[]): FormTreeResult`: the tree from the API's flat list
 *   (children ordered by `position`, then list order); an unknown parent, a parent that is not a
 *   group/repeat, or a cycle → `{ ok: false, errors }` with property `parent`.
 * - `compileForm(definition: FormDefinition): CompileFormResult`: every expression compiled with
 *   its field, property and position on error; also duplicate names, calculation cycles, misplaced
 *   properties (`code: 'invalid'`).
 */
export type FormTreeFunction = (fields: readonly FlatField[]) => FormTreeResult;
export type CompileFormFunction = (definition: FormDefinition) => CompileFormResult;
