/**
 * The form tree from the flat field list the API returns (form-model.md: `parent` is the name of
 * the containing group or repeat, `position` orders siblings).
 */
import type { FlatField, FormError, FormNode, FormTreeResult } from './form-types.ts';

const CONTAINERS: ReadonlySet<string> = new Set(['group', 'repeat']);

/**
 * Builds the tree of nodes from `fields` (flat, any order): each node's `children` are the fields
 * whose `parent` is its name, ordered by `position` (then by their order in the list). Refuses, with
 * property `parent`, a parent that names no field, a parent that is not a `group` or `repeat`, and
 * a cycle of parents (`a` in `b` in `a`); never throws.
 */
export function formTree(fields: readonly FlatField[]): FormTreeResult {
  const byName = new Map<string, FlatField>();
  for (const f of fields) if (!byName.has(f.name)) byName.set(f.name, f);
  const errors: FormError[] = [];
  for (const f of fields) {
    if (f.parent == null) continue;
    const parent = byName.get(f.parent);
    if (!parent) {
      errors.push(error(f.name, `parent ${f.parent} is not a field of this version`));
    } else if (!CONTAINERS.has(parent.type)) {
      errors.push(error(f.name, `parent ${f.parent} is a ${parent.type}, not a group or repeat`));
    } else if (inCycle(f, byName)) {
      errors.push(error(f.name, `parent ${f.parent} is inside ${f.name}: groups cannot contain themselves`));
    }
  }
  if (errors.length) return { ok: false, errors };

  const order = new Map(fields.map((f, i) => [f, i]));
  const siblings = new Map<string | null, FlatField[]>();
  for (const f of fields) {
    const key = f.parent ?? null;
    let list = siblings.get(key);
    if (!list) siblings.set(key, (list = []));
    list.push(f);
  }
  const build = (parent: string | null): FormNode[] =>
    (siblings.get(parent) ?? [])
      .sort((a, b) => (a.position ?? 0) - (b.position ?? 0) || order.get(a)! - order.get(b)!)
      .map((f) => {
        const { parent: _parent, position: _position, ...node } = f;
        return CONTAINERS.has(f.type) ? { ...node, children: build(f.name) } : node;
      });
  return { ok: true, nodes: build(null) };
}

const error = (field: string, message: string): FormError => ({
  field,
  property: 'parent',
  code: 'parent',
  message,
});

/** Whether following `parent` from `field` comes back to it. */
function inCycle(field: FlatField, byName: ReadonlyMap<string, FlatField>): boolean {
  const seen = new Set<string>([field.name]);
  for (let at = field.parent; at != null; at = byName.get(at)?.parent) {
    if (seen.has(at)) return at === field.name;
    seen.add(at);
  }
  return false;
}
