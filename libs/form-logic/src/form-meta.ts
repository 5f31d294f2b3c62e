/**
 * The compiled shape of a form that evaluation walks: one Meta per node, the levels (the top level
 * and each repeat's instances) and the tasks (a property of a node evaluated at every instance of
 * its level) in dependency order. Built by compileForm (form-compile.ts).
 */
import type { Expression } from './compile.ts';
import type { FormChoice, FormNode } from './form-types.ts';

export type Property = 'relevant' | 'calculation' | 'required' | 'constraint' | 'choices' | 'repeat';

export interface Meta {
  /** Index in form order (depth first), also the index of the node's slot in a scope's state arrays. */
  readonly id: number;
  readonly node: FormNode;
  readonly name: string;
  readonly type: string;
  /** The enclosing group or repeat. */
  readonly parent: Meta | null;
  /** The repeat whose instances hold this node's answer (null: the top level). A repeat's own level is its parent's. */
  readonly level: Meta | null;
  /** Enclosing repeats of the node's level, outermost first (a repeat's own chain excludes itself). */
  readonly repeats: readonly Meta[];
  /** Children (groups and repeats). */
  readonly children: Meta[];
  /** Whether the node holds an answer (not a group, repeat, note or calculate). */
  readonly answered: boolean;
  relevant?: Expression;
  calculation?: Expression;
  requiredIf?: Expression;
  constraint?: Expression;
  choiceFilter?: Expression;
  /** repeat_count: a fixed count or an expression. */
  repeatCount?: number | Expression;
  /** Choices with `properties` for choice_filter. */
  readonly choices: readonly FormChoice[];
}

export interface Task {
  readonly meta: Meta;
  readonly property: Property;
  /** Position in the form's evaluation order. */
  order: number;
}

export interface FormModel {
  readonly metas: readonly Meta[];
  readonly byName: ReadonlyMap<string, Meta>;
  readonly byUuid: ReadonlyMap<string, Meta>;
  /** Nodes at each level (key: the repeat's id, -1 for the top level), groups included, in form order. */
  readonly levelMetas: ReadonlyMap<number, readonly Meta[]>;
  /** Every task in evaluation order. */
  readonly tasks: readonly Task[];
  /** For each field name, the tasks to re-run when its answer changes, in evaluation order. */
  readonly dependents: ReadonlyMap<string, readonly Task[]>;
  readonly defaultLanguage: string | null;
}

export const TOP = -1;
export const levelKey = (meta: Meta | null): number => (meta ? meta.id : TOP);
