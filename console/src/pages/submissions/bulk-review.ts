import { problemMessage } from '../../api/problem-message.ts';
import { reviewSubmission, type Review } from './use-submissions.ts';

/** The outcome of one submission in a bulk review. */
export type BulkOutcome = { id: number; ok: true } | { id: number; ok: false; reason: string };

/** Requests in flight at once: enough to be quick, few enough to stay under rate limits. */
const CONCURRENCY = 4;

/**
 * Applies one review to many submissions, each with its own `PUT` (the API has no bulk
 * endpoint, and a refusal must not undo the others): at most {@link CONCURRENCY} at a time, in
 * order of `ids`. Resolves with one outcome per id, in the same order; a refusal carries the
 * service's `detail` (e.g. "A submission cannot go from status rejected to reviewed.").
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
        const reason = problemMessage(err);
        outcomes[i] = { id, ok: false, reason };
      }
      onProgress?.(++done, ids.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, ids.length) }, worker));
  return outcomes;
}
