import i18n from 'i18next';
import { ApiError } from '../../api/problem.ts';
import { problemMessage } from '../../api/problem-message.ts';
import { reviewSubmission, type Review } from './use-submissions.ts';

/** The outcome of one submission in a bulk review. */
export type BulkOutcome = { id: number; ok: true } | { id: number; ok: false; reason: string };

/**
 * The refusal of a status change that does not exist (422 `illegal_transition` with
 * `current_status` and `requested_status`), naming both statuses in the reader's language:
 * the generic message of the code cannot say which submission was where.
 */
function transitionRefusal(err: unknown): string | undefined {
  if (!(err instanceof ApiError) || err.problem.code !== 'illegal_transition') return undefined;
  const { current_status: from, requested_status: to } = err.problem;
  if (typeof from !== 'string' || typeof to !== 'string') return undefined;
  return i18n.t('submissions:bulk.illegalTransition', {
    from: i18n.t(`collection:status.${from}`),
    to: i18n.t(`collection:status.${to}`),
  });
}

/** Requests in flight at once: enough to be quick, few enough to stay under rate limits. */
const CONCURRENCY = 4;

/**
 * Applies one review to many submissions, each with its own `PUT` (the API has no bulk
 * endpoint, and a refusal must not undo the others): at most {@link CONCURRENCY} at a time, in
 * order of `ids`. Resolves with one outcome per id, in the same order; a refusal carries its
 * reason in the reader's language (e.g. "This submission is Rejected: it cannot become Reviewed.").
 * `onProgress(done, total)` follows along.
 */
export async function bulkReview(
  projectId: number,
  ids: readonly number[],
  review: Review,
  onProgress?: (done: number, total: number) => void,
): Promise<BulkOutcome[]> {
  const outcomes: BulkOutcome[] = new Array(ids.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < ids.length) {
      const i = next++;
      const id = ids[i]!;
      try {
        await reviewSubmission(projectId, id, review);
        outcomes[i] = { id, ok: true };
      } catch (err) {
        const reason = transitionRefusal(err) ?? problemMessage(err);
        outcomes[i] = { id, ok: false, reason };
      }
      onProgress?.(++done, ids.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, ids.length) }, worker));
  return outcomes;
}
