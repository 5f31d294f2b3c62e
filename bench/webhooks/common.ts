/**
 * What the bench process and its receiver process (bench/webhooks/receiver.ts) share: the clock
 * both read, and the shape of the receiver's records.
 */

/**
 * Wall-clock time in ms since the epoch with sub-millisecond resolution. Both processes read
 * it, so a commit time taken in the bench and an arrival time taken in the receiver compare.
 */
export const nowMs = (): number => performance.timeOrigin + performance.now();

/** Every request the receiver got, in arrival order (three parallel arrays), and its checks. */
export interface ReceiverResults {
  /** The `webhook-id` header of each request. */
  ids: string[];
  /** When each request's body was in, {@link nowMs}. */
  at: number[];
  /** The invite's `nom` in each body (`b<batch>.<row>`), `''` when the body was not as expected. */
  noms: string[];
  /** Requests whose signature was checked and valid (one in RECEIVER_VERIFY_EVERY). */
  verified: number;
  /** Requests whose signature was checked and not valid. */
  badSignatures: number;
  /** Requests whose body was not a JSON `invite.*` payload. */
  badBodies: number;
}
