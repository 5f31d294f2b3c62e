import type { SubmissionStatus } from '../collection/types.ts';

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
