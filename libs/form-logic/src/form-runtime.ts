/**
 * Evaluation of a compiled form over a tree of scopes (the top level and every repeat instance):
 * reference resolution with ODK's nearest-instance rule and the tasks run in dependency order.
 */
import type { EvaluationContext } from './context.ts';
import { levelKey, TOP, type FormModel, type Meta, type Task } from './form-meta.ts';
import type { FormAnswers, FormChoice } from './form-types.ts';
import { answerText, NodeSet, type Answer } from './values.ts';

/** Prefix of the names a choice_filter's bare names are rewritten to (`country` → `${choice.country}`). */
export const CHOICE_PREFIX = 'choice.';

/** Repeat bounds of a repeat node in one scope. */
export interface Bounds {
  count: number | null;
  min: number;
  max: number;
}

/** One level of answers: the top level or one repeat instance. */
export class Scope {
  /** Answers of this level by field name (calculations written here); repeats hold instance objects. */
  readonly values: FormAnswers;
  readonly parent: Scope | null;
  /** The repeat this is an instance of (null: the top level). */
  readonly repeat: Meta | null;
  /** 0-based instance index. */
  index: number;
  /** Instances of each repeat at this level, by the repeat's id. */
  readonly instances = new Map<number, Scope[]>();
  /** Per node id: relevant (own and inherited), required, constraint holds. */
  readonly relevant: Uint8Array;
  readonly required: Uint8Array;
  readonly valid: Uint8Array;
  readonly choices = new Map<number, readonly FormChoice[]>();
  readonly bounds = new Map<number, Bounds>();

  constructor(values: FormAnswers, parent: Scope | null, repeat: Meta | null, index: number, size: number) {
    this.values = values;
    this.parent = parent;
    this.repeat = repeat;
    this.index = index;
    this.relevant = new Uint8Array(size);
    this.required = new Uint8Array(size);
    this.valid = new Uint8Array(size);
  }
}

/** What an entry or answer value reads as in an expression (geopoints as `lat lon alt acc`). */
export function answerOf(value: unknown): Answer {
  if (value === null || value === undefined) return '';
  const t = typeof value;
  if (t === 'string' || t === 'number' || t === 'boolean') return value as Answer;
  if (Array.isArray(value)) return value.map((v) => answerText(v as Answer));
  if (t === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.latitude === 'number' && typeof o.longitude === 'number')
      return `${o.latitude} ${o.longitude} ${Number(o.altitude ?? 0)} ${Number(o.accuracy ?? 0)}`;
    if (typeof o.photo_id === 'string') return o.photo_id;
    if (typeof o.filename === 'string') return o.filename;
  }
  return '';
}

/** Whether an answer is empty (no answer): null, '', an empty array. */
export function isEmptyAnswer(value: unknown): boolean {
  return (
    value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)
  );
}

type Reader = (scope: Scope) => Answer | NodeSet;

/**
 * How a reference to `target` is read from a scope of `level`: the nearest-instance rule. Climb to
 * the deepest repeat both share; if the target's level is that one, it is one answer; otherwise
 * the node-set of its answers in every instance below (a repeat named itself: one node per
 * instance, so count(${member}) counts instances).
 */
function readerFor(level: Meta | null, target: Meta): Reader {
  const from = level ? [...level.repeats, level] : [];
  const to =
    target.type === 'repeat'
      ? [...target.repeats, target]
      : target.level
        ? [...target.level.repeats, target.level]
        : [];
  let shared = 0;
  while (shared < from.length && shared < to.length && from[shared] === to[shared]) shared++;
  const climb = from.length - shared;
  const descend = to.slice(shared);
  const name = target.name;
  const up = (scope: Scope): Scope => {
    let s = scope;
    for (let i = 0; i < climb; i++) s = s.parent!;
    return s;
  };
  if (descend.length === 0) {
    if (target.type === 'group' || target.type === 'note') return () => '';
    return climb === 0
      ? (scope) => answerOf(scope.values[name])
      : (scope) => answerOf(up(scope).values[name]);
  }
  const isRepeat = target.type === 'repeat';
  return (scope) => {
    const out: string[] = [];
    const collect = (s: Scope, depth: number): void => {
      const instances = s.instances.get(descend[depth]!.id) ?? [];
      if (depth === descend.length - 1) {
        for (const i of instances) out.push(isRepeat ? '' : answerText(answerOf(i.values[name])));
      } else for (const i of instances) collect(i, depth + 1);
    };
    collect(up(scope), 0);
    return new NodeSet(out);
  };
}

/** Resolution tables: for each level, every field name's reader. */
export function readersOf(model: FormModel): Map<number, Map<string, Reader>> {
  const out = new Map<number, Map<string, Reader>>();
  for (const key of model.levelMetas.keys()) {
    const level = key === TOP ? null : model.metas[key]!;
    const table = new Map<string, Reader>();
    for (const meta of model.metas) table.set(meta.name, readerFor(level, meta));
    out.set(key, table);
  }
  return out;
}

/** The mutable context of an evaluation run: the scope and node being evaluated. */
class RunContext implements EvaluationContext {
  scope!: Scope;
  table!: Map<string, Reader>;
  current: Answer = '';
  position = 0;
  now: number;
  choice: FormChoice | null = null;
  constructor(now: number) {
    this.now = now;
  }
  resolve(name: string): Answer | NodeSet {
    const read = this.table.get(name);
    if (read) return read(this.scope);
    if (this.choice && name.startsWith(CHOICE_PREFIX)) {
      const key = name.slice(CHOICE_PREFIX.length);
      const own = this.choice.properties?.[key];
      if (own !== undefined) return own;
      if (key === 'name' || key === 'value') return this.choice.value;
      if (key === 'label') return this.choice.label;
    }
    return '';
  }
}

/** Every scope at each level (key: repeat id, -1 top), in instance order. */
export function scopesByLevel(top: Scope, model: FormModel): Map<number, Scope[]> {
  const out = new Map<number, Scope[]>();
  for (const key of model.levelMetas.keys()) out.set(key, []);
  const walk = (s: Scope): void => {
    out.get(levelKey(s.repeat))!.push(s);
    for (const list of s.instances.values()) for (const i of list) walk(i);
  };
  walk(top);
  return out;
}

/** Builds the scope tree over an answers tree (the objects are used as they are: calculations are written into them). */
export function scopeTree(model: FormModel, answers: FormAnswers): Scope {
  const size = model.metas.length;
  const build = (values: FormAnswers, parent: Scope | null, repeat: Meta | null, index: number): Scope => {
    const scope = new Scope(values, parent, repeat, index, size);
    for (const meta of model.levelMetas.get(levelKey(repeat))!) {
      if (meta.type !== 'repeat') continue;
      const raw = values[meta.name];
      const list = Array.isArray(raw) ? raw : [];
      scope.instances.set(
        meta.id,
        list.map((v, i) => build(isRecord(v) ? v : {}, scope, meta, i)),
      );
    }
    return scope;
  };
  return build(answers, null, null, 0);
}

export const isRecord = (v: unknown): v is FormAnswers =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A copy of an answers tree deep enough that calculations can be written into it (instances copied). */
export function copyAnswers(model: FormModel, answers: FormAnswers, repeat: Meta | null = null): FormAnswers {
  const out: FormAnswers = { ...answers };
  for (const meta of model.levelMetas.get(levelKey(repeat)) ?? []) {
    if (meta.type === 'repeat' && Array.isArray(answers[meta.name]))
      out[meta.name] = (answers[meta.name] as unknown[]).map((i) =>
        copyAnswers(model, isRecord(i) ? i : {}, meta),
      );
  }
  return out;
}

/** Runs tasks over every scope of their level, in the order given. */
export class Runner {
  private readonly model: FormModel;
  private readonly readers: Map<number, Map<string, Reader>>;
  constructor(model: FormModel, readers: Map<number, Map<string, Reader>>) {
    this.model = model;
    this.readers = readers;
  }

  run(tasks: readonly Task[], levels: Map<number, Scope[]>, now: number): void {
    const ctx = new RunContext(now);
    for (const task of tasks) {
      const meta = task.meta;
      const key = levelKey(meta.level);
      ctx.table = this.readers.get(key)!;
      for (const scope of levels.get(key)!) {
        ctx.scope = scope;
        ctx.position = scope.repeat ? scope.index + 1 : 0;
        this.runOne(task, meta, scope, ctx);
      }
    }
  }

  private runOne(task: Task, meta: Meta, scope: Scope, ctx: RunContext): void {
    const id = meta.id;
    ctx.current = meta.answered ? answerOf(scope.values[meta.name]) : '';
    switch (task.property) {
      case 'relevant': {
        const parent = meta.parent;
        const inherited = !parent
          ? 1
          : parent === scope.repeat
            ? scope.parent!.relevant[parent.id]!
            : scope.relevant[parent.id]!;
        if (!inherited || !meta.relevant) {
          scope.relevant[id] = inherited;
        } else {
          scope.relevant[id] = meta.relevant.evaluateBoolean(ctx) ? 1 : 0;
        }
        return;
      }
      case 'calculation':
        scope.values[meta.name] = scope.relevant[id] ? meta.calculation!.evaluateText(ctx) : '';
        return;
      case 'required': {
        const n = meta.node;
        scope.required[id] =
          scope.relevant[id] &&
          (n.required === true || (meta.requiredIf !== undefined && meta.requiredIf.evaluateBoolean(ctx)))
            ? 1
            : 0;
        return;
      }
      case 'constraint': {
        const value = scope.values[meta.name];
        if (!scope.relevant[id] || isEmptyAnswer(value)) {
          scope.valid[id] = 1;
        } else {
          scope.valid[id] = meta.constraint!.evaluateBoolean(ctx) ? 1 : 0;
        }
        return;
      }
      case 'choices': {
        const allowed: FormChoice[] = [];
        if (scope.relevant[id]) {
          for (const choice of meta.choices) {
            ctx.choice = choice;
            if (meta.choiceFilter!.evaluateBoolean(ctx)) allowed.push(choice);
          }
          ctx.choice = null;
        }
        const before = scope.choices.get(id);
        if (!before || before.length !== allowed.length || before.some((c, i) => c !== allowed[i]))
          scope.choices.set(id, allowed);
        return;
      }
      case 'repeat': {
        const n = meta.node;
        let count: number | null = null;
        if (typeof meta.repeatCount === 'number') count = meta.repeatCount;
        else if (meta.repeatCount) {
          const c = meta.repeatCount.evaluateNumber(ctx);
          count = Number.isFinite(c) && c > 0 ? Math.trunc(c) : 0;
        }
        const bounds: Bounds =
          count !== null
            ? { count, min: count, max: count }
            : { count: null, min: n.min_repeats ?? 0, max: n.max_repeats ?? Infinity };
        const before = scope.bounds.get(id);
        if (
          !before ||
          before.count !== bounds.count ||
          before.min !== bounds.min ||
          before.max !== bounds.max
        )
          scope.bounds.set(id, bounds);
        return;
      }
    }
  }
}
