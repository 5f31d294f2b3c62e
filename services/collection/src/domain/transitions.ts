import { problems } from './problems.ts';
import type { Status } from './types.ts';
export { STATUSES, type Status } from './types.ts';

/** Who may make a transition: the submission's own collector, or a reviewer (submission.review). */
export type Party = 'collector' | 'reviewer';

/**
 * The transition table (docs/collection.md, "Status transitions"): from, to, and who may.
 * Anything else is an illegal transition (422).
 */
const TRANSITIONS: ReadonlyArray<{ from: Status; to: Status; by: Party }> = [
  { from: 'draft', to: 'submitted', by: 'collector' },
  { from: 'submitted', to: 'reviewed', by: 'reviewer' },
  { from: 'submitted', to: 'rejected', by: 'reviewer' },
  { from: 'submitted', to: 'requires_correction', by: 'reviewer' },
  { from: 'reviewed', to: 'requires_correction', by: 'reviewer' },
  { from: 'requires_correction', to: 'submitted', by: 'collector' },
];

/**
 * Checks a requested status change.
 * @param parties what the actor is for this submission (its collector, a reviewer, or both).
 * @returns 'ok', or 'forbidden' when the transition exists but the caller may not make it.
 * @throws ProblemError 422 naming the current and requested status when the transition does not exist.
 */
export function checkTransition(from: Status, to: Status, parties: Party[]): 'ok' | 'forbidden' {
  const rule = TRANSITIONS.find((t) => t.from === from && t.to === to);
  if (!rule) throw problems.illegalTransition({ from, to });
  return parties.includes(rule.by) ? 'ok' : 'forbidden';
}
