/**
 * The FormState of an evaluated scope tree: every node's state and every calculation's value, by path.
 */
import { levelKey, type FormModel, type Meta } from './form-meta.ts';
import type { Scope } from './form-runtime.ts';
import type { FormState, NodeState } from './form-types.ts';

/** The FormState (paths to values and node states) of an evaluated scope tree. */
export function stateOf(model: FormModel, top: Scope): FormState {
  const state: FormState = { values: {}, nodes: {} };
  const walk = (scope: Scope, prefix: string): void => {
    for (const meta of model.levelMetas.get(levelKey(scope.repeat))!) {
      const path = prefix + meta.name;
      state.nodes[path] = nodeState(meta, scope);
      if (meta.type === 'calculate') state.values[path] = String(scope.values[meta.name] ?? '');
      if (meta.type === 'repeat') scope.instances.get(meta.id)!.forEach((i, n) => walk(i, `${path}.${n}.`));
    }
  };
  walk(top, '');
  return state;
}

/** The state of one node in one scope. */
export function nodeState(meta: Meta, scope: Scope): NodeState {
  const id = meta.id;
  const out: NodeState = {
    relevant: scope.relevant[id] === 1,
    required: scope.required[id] === 1,
    readOnly: meta.node.read_only === true || meta.type === 'calculate',
    valid: meta.constraint ? scope.valid[id] === 1 : true,
  };
  if (meta.choiceFilter) out.choices = scope.choices.get(id) ?? [];
  else if (meta.node.choices) out.choices = meta.node.choices;
  if (meta.type === 'repeat') {
    const b = scope.bounds.get(id) ?? { count: null, min: 0, max: Infinity };
    out.repeat = { ...b, instances: scope.instances.get(id)?.length ?? 0 };
  }
  return out;
}
