import { answerText, NodeSet, type Answer, type Value } from './values.ts';

/**
 * What an evaluation reads. The caller resolves references, so it applies the form's rules: a
 * `${name}` inside a repeat is the answer in the same (nearest) repeat instance; a field inside a
 * repeat read from outside it is the node-set of its answers in every instance (build it with
 * `nodes([...])`).
 */
export interface EvaluationContext {
  /** The answer(s) of the field `name` (the last step of a path such as `/data/group/name`). */
  resolve(name: string): Answer | NodeSet;
  /** The field's own answer, read by `.`; empty when absent. */
  current?: Answer | NodeSet;
  /** 1-based position of the current repeat instance, read by `position(..)`; 0 when absent. */
  position?: number;
  /** The clock for today() and now(), in milliseconds since the epoch; Date.now() when absent. */
  now?: number;
}

/** The value of `.`: the field's own answer as a node-set of one (empty answer when absent). */
export function currentOf(ctx: EvaluationContext): Value {
  return toNodeSet(ctx.current);
}

/** The 1-based position of the current repeat instance; 0 outside repeats. */
export function positionOf(ctx: EvaluationContext): number {
  return ctx.position ?? 0;
}

/** The evaluation's clock in milliseconds since the epoch. */
export function clockOf(ctx: EvaluationContext): number {
  return ctx.now ?? Date.now();
}

/** A resolved answer as a node-set: one answer is a node-set of one node. */
export function toNodeSet(answer: Answer | NodeSet): NodeSet {
  return answer instanceof NodeSet ? answer : new NodeSet([answerText(answer)]);
}
