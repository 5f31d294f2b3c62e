/**
 * The web form's incremental evaluation: answers held in a scope tree, a change re-running only
 * the tasks that depend on the changed field (FormModel.dependents), and the paths that changed.
 */
import { nodeState, stateOf } from './form-state.ts';
import { levelKey, type FormModel, type Meta, type Task } from './form-meta.ts';
import { copyAnswers, isRecord, scopesByLevel, scopeTree, type Runner, type Scope } from './form-runtime.ts';
import type { FormAnswers, FormPath, FormSession, FormState, SessionChange } from './form-types.ts';

/** What a node's state and value were, to tell what a change changed. */
interface Snapshot {
  relevant: number;
  required: number;
  valid: number;
  choices: unknown;
  bounds: unknown;
  instances: number;
  value: unknown;
}

const snapshot = (meta: Meta, scope: Scope): Snapshot => ({
  relevant: scope.relevant[meta.id]!,
  required: scope.required[meta.id]!,
  valid: scope.valid[meta.id]!,
  choices: scope.choices.get(meta.id),
  bounds: scope.bounds.get(meta.id),
  instances: scope.instances.get(meta.id)?.length ?? -1,
  value: meta.type === 'calculate' ? scope.values[meta.name] : undefined,
});

const sameState = (a: Snapshot, b: Snapshot): boolean =>
  a.relevant === b.relevant &&
  a.required === b.required &&
  a.valid === b.valid &&
  a.choices === b.choices &&
  a.bounds === b.bounds &&
  a.instances === b.instances;

/** The path prefix of a scope: '' at the top, `member.2.` for instance 2 of `member`. */
function prefixOf(scope: Scope): string {
  return scope.repeat ? `${prefixOf(scope.parent!)}${scope.repeat.name}.${scope.index}.` : '';
}

/**
 * Opens a session over a copy of `answers`: everything is evaluated once; then set() re-runs only
 * the dependents of the changed field, at every instance of their levels; adding, removing or
 * replacing repeat instances re-evaluates everything (positions and node-sets change).
 */
export function openSession(
  model: FormModel,
  runner: Runner,
  answers: FormAnswers,
  now?: number,
): FormSession {
  const clock = (): number => now ?? Date.now();
  const root = copyAnswers(model, answers);
  let top = scopeTree(model, root);
  let levels = scopesByLevel(top, model);
  runner.run(model.tasks, levels, clock());
  let cached: FormState | null = null;

  /** The scope and node a path names; throws on a path that names no node (a programming error). */
  const locate = (path: FormPath): { scope: Scope; meta: Meta } => {
    const parts = path.split('.');
    let scope = top;
    let i = 0;
    for (; parts.length - i > 1; i += 2) {
      const repeat = model.byName.get(parts[i]!);
      const instance =
        repeat?.type === 'repeat' && repeat.level === scope.repeat
          ? scope.instances.get(repeat.id)?.[Number(parts[i + 1])]
          : undefined;
      if (!instance)
        throw new Error(`form session: no repeat instance at ${parts.slice(0, i + 2).join('.')}`);
      scope = instance;
    }
    const meta = model.byName.get(parts[i]!);
    if (!meta || i !== parts.length - 1 || meta.level !== scope.repeat)
      throw new Error(`form session: ${path} names no node of this form`);
    return { scope, meta };
  };

  /** Everything again (after the repeat structure changed); changes found by path. */
  const full = (): SessionChange => {
    const before = stateOf(model, top);
    top = scopeTree(model, root);
    levels = scopesByLevel(top, model);
    runner.run(model.tasks, levels, clock());
    cached = stateOf(model, top);
    const change: SessionChange = { values: [], nodes: [] };
    for (const [path, value] of Object.entries(cached.values))
      if (before.values[path] !== value) change.values.push(path);
    for (const [path, node] of Object.entries(cached.nodes)) {
      const old = before.nodes[path];
      if (
        !old ||
        old.relevant !== node.relevant ||
        old.required !== node.required ||
        old.valid !== node.valid ||
        old.choices !== node.choices ||
        JSON.stringify(old.repeat) !== JSON.stringify(node.repeat)
      )
        change.nodes.push(path);
    }
    return change;
  };

  /** Re-runs `tasks` and reports the nodes of those tasks whose state or value changed. */
  const rerun = (tasks: readonly Task[]): SessionChange => {
    const metas = [...new Set(tasks.map((t) => t.meta))];
    const before = metas.map((m) => levels.get(levelKey(m.level))!.map((s) => snapshot(m, s)));
    runner.run(tasks, levels, clock());
    cached = null;
    const change: SessionChange = { values: [], nodes: [] };
    metas.forEach((meta, n) =>
      levels.get(levelKey(meta.level))!.forEach((scope, k) => {
        const old = before[n]![k]!;
        const now = snapshot(meta, scope);
        const path = prefixOf(scope) + meta.name;
        if (meta.type === 'calculate' && old.value !== now.value) change.values.push(path);
        if (!sameState(old, now)) change.nodes.push(path);
      }),
    );
    return change;
  };

  const repeatAt = (path: FormPath): { list: FormAnswers[] } => {
    const { scope, meta } = locate(path);
    if (meta.type !== 'repeat') throw new Error(`form session: ${path} is not a repeat`);
    if (!Array.isArray(scope.values[meta.name])) scope.values[meta.name] = [];
    return { list: scope.values[meta.name] as FormAnswers[] };
  };

  return {
    get answers() {
      return root;
    },
    get state() {
      return (cached ??= stateOf(model, top));
    },
    nodeAt(path) {
      const { scope, meta } = locate(path);
      return nodeState(meta, scope);
    },
    calculated(path) {
      const { scope, meta } = locate(path);
      return String(scope.values[meta.name] ?? '');
    },
    set(path, value) {
      const { scope, meta } = locate(path);
      if (meta.type === 'repeat') {
        scope.values[meta.name] = (Array.isArray(value) ? value : []).map((i) =>
          copyAnswers(model, isRecord(i) ? i : {}, meta),
        );
        return full();
      }
      if (!meta.answered) return { values: [], nodes: [] };
      scope.values[meta.name] = value;
      return rerun(model.dependents.get(meta.name) ?? []);
    },
    addInstance(path, instance = {}) {
      const { list } = repeatAt(path);
      const { meta } = locate(path);
      list.push(copyAnswers(model, instance, meta));
      return full();
    },
    removeInstance(path, index) {
      const { list } = repeatAt(path);
      if (index < 0 || index >= list.length)
        throw new Error(`form session: ${path} has no instance ${index}`);
      list.splice(index, 1);
      return full();
    },
  };
}
