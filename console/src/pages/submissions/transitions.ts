import { can } from '../collection/roles.ts';
import type { Role, Submission, SubmissionStatus } from '../collection/types.ts';

/**
 * The status changes a reviewer (owner, admin, manager) may make, by current status
 * (docs/collection.md, "Status transitions"): submitted → reviewed, rejected or
 * requires_correction; reviewed → requires_correction. Draft, rejected (final) and
 * requires_correction (back to its collector) offer none.
 */
export const REVIEW_TRANSITIONS: Record<SubmissionStatus, readonly SubmissionStatus[]> = {
  submitted: ['reviewed', 'rejected', 'requires_correction'],
  reviewed: ['requires_correction'],
  draft: [],
  rejected: [],
  requires_correction: [],
};

/** Every status a reviewer can move some submission to: the choices of a bulk review. */
export const REVIEW_TARGETS: readonly SubmissionStatus[] = ['reviewed', 'rejected', 'requires_correction'];

/**
 * Whether the caller may edit a submission's answers, as the service decides (docs/collection.md,
 * "Editing a submission and its versions"): a reviewer (owner, admin, manager) any submission
 * but a draft; its collector a draft, one sent back, or a submitted one when the project allows
 * edits. The service still decides (a 403 shows next to the form).
 */
export function mayEditSubmission(
  s: Pick<Submission, 'status' | 'collector_id'>,
  role: Role | undefined,
  userId: number | undefined,
  allowEdits: boolean,
): boolean {
  if (can(role, 'submission.review') && s.status !== 'draft') return true;
  if (userId === undefined || s.collector_id !== userId || role === undefined) return false;
  return (
    s.status === 'draft' || s.status === 'requires_correction' || (s.status === 'submitted' && allowEdits)
  );
}
