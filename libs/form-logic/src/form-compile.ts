/**
 * compileForm(): a form definition checked and compiled once (every expression with its field,
 * property and position on error), with the evaluation order of its calculations and relevance.
 */
import { compile, type Expression } from './compile.ts';
import { parse } from './parse.ts';
import type { Node } from './ast.ts';
import { levelKey, TOP, type FormModel, type Meta, type Property, type Task } from './form-meta.ts';
import { CHOICE_PREFIX } from './form-runtime.ts';
import type { CompileFormResult, FormDefinition, FormError, FormNode } from './form-types.ts';
import { makeCompiledForm } from './form-compiled.ts';

/** Appearances of the form model (form-model.md). */
export const APPEARANCES: readonly string[] = [
  'minimal',
  'horizontal',
  'likert',
  'multiline',
  'numbers',
  'field-list',
];
const SELECTS: ReadonlySet<string> = new Set(['select_one', 'select_multiple']);
const UNANSWERED: ReadonlySet<string> = new Set(['group', 'repeat', 'note', 'calculate']);

const filled = (v: string | null | undefined): v is string => typeof v === 'string' && v.trim() !== '';

/**
 * Checks and compiles a form definition once: every expression (`relevant`, `constraint`,
 * `required_if`, `calculation`, `choice_filter`, `repeat_count`) with compile(), references limited
 * to the form's field names; refuses (each as a FormError naming field, property and position):
 * syntax errors, unknown references/functions, wrong arity, a cycle among calculations and
 * relevance (`${a}` ↔ `${b}`), duplicate names, `required` with `required_if`, a calculation
 * outside `calculate` (or a `calculate` without one), `choice_filter` outside select types,
 * repeat properties outside repeats or `repeat_count` with `min_repeats`/`max_repeats`, min > max,
 * an appearance outside {@link APPEARANCES}, a language not among the version's. Never throws.
 */
export function compileForm(definition: FormDefinition): CompileFormResult {
  const errors: FormError[] = [];
  const metas: Meta[] = [];
  const byName = new Map<string, Meta>();
  const byUuid = new Map<string, Meta>();
  const languages = new Set(definition.languages ?? []);
  const defaultLanguage = definition.default_language ?? definition.languages?.[0] ?? null;
  if (defaultLanguage && languages.size && !languages.has(defaultLanguage))
    errors.push({
      field: '',
      property: 'default_language',
      code: 'invalid',
      message: `default_language ${defaultLanguage} is not one of the languages`,
    });

  const walk = (
    nodes: readonly FormNode[],
    parent: Meta | null,
    level: Meta | null,
    repeats: Meta[],
  ): void => {
    for (const node of nodes) {
      const meta: Meta = {
        id: metas.length,
        node,
        name: node.name,
        type: node.type,
        parent,
        level,
        repeats,
        children: [],
        answered: !UNANSWERED.has(node.type),
        choices: node.choices ?? [],
      };
      metas.push(meta);
      parent?.children.push(meta);
      if (byName.has(node.name))
        errors.push(invalid(node.name, 'name', `the name ${node.name} is used twice`, 'duplicate_name'));
      else byName.set(node.name, meta);
      byUuid.set(node.uuid, meta);
      if (node.type === 'group') walk(node.children ?? [], meta, level, repeats);
      if (node.type === 'repeat') walk(node.children ?? [], meta, meta, [...repeats, meta]);
    }
  };
  walk(definition.nodes, null, null, []);

  const names: ReadonlySet<string> = new Set(byName.keys());
  for (const meta of metas) {
    checkProperties(meta, languages, errors);
    compileProperties(meta, names, errors);
  }
  if (errors.length) return { ok: false, errors };

  const ordered = orderTasks(metas, byName, errors);
  if (!ordered) return { ok: false, errors };

  const levelMetas = new Map<number, Meta[]>([[TOP, []]]);
  for (const meta of metas) {
    if (meta.type === 'repeat') levelMetas.set(meta.id, []);
    levelMetas.get(levelKey(meta.level))!.push(meta);
  }
  const model: FormModel = {
    metas,
    byName,
    byUuid,
    levelMetas,
    tasks: ordered,
    dependents: dependentsOf(metas, ordered),
    defaultLanguage,
  };
  return { ok: true, form: makeCompiledForm(definition, model) };
}

function invalid(
  field: string,
  property: string,
  message: string,
  code: FormError['code'] = 'invalid',
): FormError {
  return { field, property, code, message };
}

function checkProperties(meta: Meta, languages: ReadonlySet<string>, errors: FormError[]): void {
  const n = meta.node;
  const name = n.name;
  if (n.required === true && filled(n.required_if))
    errors.push(invalid(name, 'required_if', 'required and required_if cannot both be set'));
  if (n.type === 'calculate' && !filled(n.calculation))
    errors.push(invalid(name, 'calculation', 'a calculate field needs a calculation'));
  if (n.type !== 'calculate' && filled(n.calculation))
    errors.push(invalid(name, 'calculation', 'only calculate fields have a calculation'));
  if (filled(n.choice_filter) && !SELECTS.has(n.type))
    errors.push(
      invalid(name, 'choice_filter', 'only select_one and select_multiple fields have a choice_filter'),
    );
  const hasCount = n.repeat_count != null && n.repeat_count !== '';
  if (n.type !== 'repeat') {
    for (const p of ['repeat_count', 'min_repeats', 'max_repeats'] as const)
      if (n[p] != null && n[p] !== '') errors.push(invalid(name, p, `only repeats have ${p}`));
  } else {
    if (hasCount && (n.min_repeats != null || n.max_repeats != null))
      errors.push(invalid(name, 'repeat_count', 'repeat_count excludes min_repeats and max_repeats'));
    if (n.min_repeats != null && n.max_repeats != null && n.min_repeats > n.max_repeats)
      errors.push(invalid(name, 'min_repeats', 'min_repeats must not exceed max_repeats'));
  }
  if (n.appearance != null && n.appearance !== '' && !APPEARANCES.includes(n.appearance))
    errors.push(invalid(name, 'appearance', `appearance must be one of ${APPEARANCES.join(', ')}`));
  if (languages.size) {
    for (const lang of Object.keys(n.translations ?? {}))
      if (!languages.has(lang))
        errors.push(invalid(name, 'translations', `${lang} is not one of the version's languages`));
  }
}

/** The message of a compile error, naming the property and the position (form-model.md). */
function describeError(property: string, message: string, line: number, column: number): string {
  const text = message.replace(/\.$/, '');
  if (/\bcolumn\b|ends too early/.test(text)) return `${property}: ${text}`;
  return `${property}: ${text} at ${line > 1 ? `line ${line}, ` : ''}column ${column}`;
}

function compileProperty(
  meta: Meta,
  property: string,
  source: string,
  names: ReadonlySet<string>,
  errors: FormError[],
): Expression | undefined {
  // Compiled without `fields` first: compile() copies the list into a set per expression, which is
  // most of the cost of a large form; the references are checked here, and only an expression
  // with an unknown one is compiled again with `fields` for compile()'s error and position.
  const fast = compile(source);
  if (fast.ok && fast.expression.references.every((r) => names.has(r))) return fast.expression;
  const result = fast.ok ? compile(source, { fields: names }) : fast;
  if (result.ok) return result.expression;
  const { code, message, position } = result.error;
  errors.push({
    field: meta.name,
    property,
    code,
    message: describeError(property, message, position.line, position.column),
    position,
  });
  return undefined;
}

function compileProperties(meta: Meta, names: ReadonlySet<string>, errors: FormError[]): void {
  const n = meta.node;
  if (filled(n.relevant)) meta.relevant = compileProperty(meta, 'relevant', n.relevant, names, errors);
  if (filled(n.constraint))
    meta.constraint = compileProperty(meta, 'constraint', n.constraint, names, errors);
  if (filled(n.required_if))
    meta.requiredIf = compileProperty(meta, 'required_if', n.required_if, names, errors);
  if (filled(n.calculation))
    meta.calculation = compileProperty(meta, 'calculation', n.calculation, names, errors);
  if (filled(n.choice_filter)) meta.choiceFilter = compileChoiceFilter(meta, n.choice_filter, names, errors);
  const count = n.repeat_count;
  if (typeof count === 'number') meta.repeatCount = count;
  else if (typeof count === 'string' && /^\s*\d+\s*$/.test(count)) meta.repeatCount = Number(count);
  else if (filled(count)) meta.repeatCount = compileProperty(meta, 'repeat_count', count, names, errors);
}

/**
 * A choice_filter: a bare name (`country`) is the choice's property of that name (`name` and
 * `value` are the choice's value, `label` its label), `${...}` are answers. The bare names are
 * rewritten to `${choice.<name>}` (a name no field can have) once syntax and `${...}` references
 * have been checked on the text as written, so positions are the user's.
 */
function compileChoiceFilter(
  meta: Meta,
  source: string,
  names: ReadonlySet<string>,
  errors: FormError[],
): Expression | undefined {
  if (!compileProperty(meta, 'choice_filter', source, new Set([...names, ...bareNames(source)]), errors))
    return undefined;
  const parsed = parse(source);
  if (!parsed.ok) return undefined;
  const edits: { start: number; end: number; text: string }[] = [];
  visit(parsed.ast, (node) => {
    if (node.type === 'path' && isBare(node)) {
      edits.push({
        start: node.start,
        end: node.start + node.text.length,
        text: `\${${CHOICE_PREFIX}${node.steps[0]}}`,
      });
    }
  });
  let rewritten = source;
  for (const e of edits.sort((a, b) => b.start - a.start))
    rewritten = rewritten.slice(0, e.start) + e.text + rewritten.slice(e.end);
  const result = compile(rewritten);
  return result.ok ? result.expression : undefined;
}

const isBare = (node: Extract<Node, { type: 'path' }>): boolean =>
  !node.absolute && node.steps.length === 1 && node.steps[0] !== '.' && node.steps[0] !== '..';

function bareNames(source: string): string[] {
  const parsed = parse(source);
  const out: string[] = [];
  if (parsed.ok)
    visit(parsed.ast, (node) => node.type === 'path' && isBare(node) && out.push(node.steps[0]!));
  return out;
}

function visit(node: Node, f: (node: Node) => unknown): void {
  f(node);
  switch (node.type) {
    case 'binary':
      visit(node.left, f);
      visit(node.right, f);
      break;
    case 'negate':
      visit(node.operand, f);
      break;
    case 'union':
      node.operands.forEach((o) => visit(o, f));
      break;
    case 'call':
      node.args.forEach((a) => visit(a, f));
      break;
    default:
  }
}

/** The expressions of a task (what it reads). */
function expressionsOf(meta: Meta, property: Property): Expression[] {
  const e = (x: Expression | number | undefined): Expression[] => (x && typeof x !== 'number' ? [x] : []);
  switch (property) {
    case 'relevant':
      return e(meta.relevant);
    case 'calculation':
      return e(meta.calculation);
    case 'required':
      return e(meta.requiredIf);
    case 'constraint':
      return e(meta.constraint);
    case 'choices':
      return e(meta.choiceFilter);
    case 'repeat':
      return e(meta.repeatCount);
  }
}

/**
 * Orders the tasks: relevance and calculations topologically (a calculation after the calculations
 * it reads and after its own relevance; relevance after its parent's and after the calculations
 * it reads), then the checks (required, constraint, choices, repeat bounds), which nothing reads.
 * A cycle is an error on the first task of it; returns undefined then.
 */
function orderTasks(
  metas: readonly Meta[],
  byName: ReadonlyMap<string, Meta>,
  errors: FormError[],
): Task[] | undefined {
  const relevant = new Map<Meta, Task>();
  const calculation = new Map<Meta, Task>();
  const all: Task[] = [];
  for (const meta of metas) {
    const r: Task = { meta, property: 'relevant', order: 0 };
    relevant.set(meta, r);
    all.push(r);
    if (meta.calculation) {
      const c: Task = { meta, property: 'calculation', order: 0 };
      calculation.set(meta, c);
      all.push(c);
    }
  }
  const needs = (task: Task): Task[] => {
    const out: Task[] = [];
    if (task.property === 'relevant' && task.meta.parent) out.push(relevant.get(task.meta.parent)!);
    if (task.property === 'calculation') out.push(relevant.get(task.meta)!);
    for (const e of expressionsOf(task.meta, task.property))
      for (const ref of e.references) {
        const c = calculation.get(byName.get(ref)!);
        if (c) out.push(c);
      }
    return out;
  };
  const ordered: Task[] = [];
  const state = new Map<Task, 'visiting' | 'done'>();
  const stack: Task[] = [];
  const visitTask = (task: Task): boolean => {
    const s = state.get(task);
    if (s === 'done') return true;
    if (s === 'visiting') {
      const cycle = stack.slice(stack.indexOf(task));
      const path = [...cycle, task].map((t) => `${t.meta.name} (${t.property})`).join(' → ');
      errors.push({
        field: task.meta.name,
        property: task.property,
        code: 'cycle',
        message: `${task.property}: a cycle of references: ${path}`,
      });
      return false;
    }
    state.set(task, 'visiting');
    stack.push(task);
    for (const need of needs(task)) if (!visitTask(need)) return false;
    stack.pop();
    state.set(task, 'done');
    ordered.push(task);
    return true;
  };
  for (const task of all) if (!visitTask(task)) return undefined;
  for (const meta of metas) {
    if (meta.answered) ordered.push({ meta, property: 'required', order: 0 });
    if (meta.answered && meta.constraint) ordered.push({ meta, property: 'constraint', order: 0 });
    if (meta.choiceFilter) ordered.push({ meta, property: 'choices', order: 0 });
    if (meta.type === 'repeat') ordered.push({ meta, property: 'repeat', order: 0 });
  }
  ordered.forEach((t, i) => (t.order = i));
  return ordered;
}

/**
 * For each field name, the tasks that must run again when its answer changes: those reading it,
 * its own constraint (reads `.`), its repeat bounds (instances), and, transitively, the readers of
 * calculations and the tasks of nodes whose relevance changes (their own and their children's).
 */
function dependentsOf(metas: readonly Meta[], tasks: readonly Task[]): Map<string, readonly Task[]> {
  const readers = new Map<string, Task[]>();
  const ofMeta = new Map<Meta, Task[]>();
  for (const t of tasks) {
    let list = ofMeta.get(t.meta);
    if (!list) ofMeta.set(t.meta, (list = []));
    list.push(t);
    for (const e of expressionsOf(t.meta, t.property))
      for (const ref of e.references) {
        let r = readers.get(ref);
        if (!r) readers.set(ref, (r = []));
        r.push(t);
      }
  }
  const out = new Map<string, readonly Task[]>();
  for (const meta of metas) {
    const found = new Set<Task>();
    const queue: Task[] = [];
    const add = (t: Task): void => {
      if (!found.has(t)) {
        found.add(t);
        queue.push(t);
      }
    };
    for (const t of ofMeta.get(meta) ?? [])
      if (t.property === 'constraint' || t.property === 'repeat') add(t);
    for (const t of readers.get(meta.name) ?? []) add(t);
    while (queue.length) {
      const t = queue.pop()!;
      if (t.property === 'calculation') for (const r of readers.get(t.meta.name) ?? []) add(r);
      if (t.property === 'relevant') {
        for (const own of ofMeta.get(t.meta) ?? []) add(own);
        for (const child of t.meta.children) for (const own of ofMeta.get(child) ?? []) add(own);
      }
    }
    out.set(
      meta.name,
      [...found].sort((a, b) => a.order - b.order),
    );
  }
  return out;
}
