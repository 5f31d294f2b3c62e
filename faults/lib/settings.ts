/**
 * The suite's knobs, all from the environment (defaults fit the 10-minute budget on a 2-core
 * machine; docs/reliability.md, "The fault suite").
 */
const num = (name: string, dflt: number) => {
  const v = process.env[name];
  if (v === undefined || v === '') return dflt;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got ${v}`);
  return n;
};

export const settings = {
  /** Requests per second of each stream of the steady load. */
  rates: {
    votes: num('FAULTS_RATE_VOTES', 15),
    submissions: num('FAULTS_RATE_SUBMISSIONS', 8),
    checkins: num('FAULTS_RATE_CHECKINS', 8),
  },
  /** How long a killed process stays down before it is started again, ms. */
  downMs: num('FAULTS_DOWN_MS', 1_000),
  /** Load after each restart before the next kill, ms (recovery is measured meanwhile). */
  afterRestartMs: num('FAULTS_AFTER_RESTART_MS', 8_000),
  /** Longest wait for a restarted process's first success before it counts as not recovered, ms. */
  recoveryLimitMs: num('FAULTS_RECOVERY_LIMIT_MS', 30_000),
  /** How long the poll's counters may take to equal MongoDB after the load, ms. */
  settleMs: num('FAULTS_SETTLE_MS', 15_000),
  /** How long Redis stays away in redis-loss, ms; and the target for votes after it returns. */
  redisDownMs: num('FAULTS_REDIS_DOWN_MS', 3_000),
  redisRecoveryTargetMs: 5_000,
  /** Exports and invitations of rabbitmq-drop. */
  rabbitExports: num('FAULTS_RABBIT_EXPORTS', 8),
  rabbitInvites: num('FAULTS_RABBIT_INVITES', 40),
  /** Submissions of the project exported in export-kill, and the target to a final state, ms. */
  exportRows: num('FAULTS_EXPORT_ROWS', 5_000),
  exportTargetMs: 60_000,
  /** sse-streams: streams, streams per client address, seconds of votes, votes per second. */
  sseStreams: num('FAULTS_SSE_STREAMS', 10_000),
  ssePerAddress: num('FAULTS_SSE_PER_ADDRESS', 50),
  sseSeconds: num('FAULTS_SSE_SECONDS', 20),
  sseVoteRate: num('FAULTS_SSE_VOTE_RATE', 5),
  sseReadRate: num('FAULTS_SSE_READ_RATE', 20),
  sseP99TargetMs: 100,
  /** store-stop: the targets of docs/reliability.md, "When a store hangs", ms. */
  storeRefusalTargetMs: 1_000,
  storeRestartTargetMs: 30_000,
  storeRecoveryTargetMs: 5_000,
  /** webhook-flood: seconds of load, dead receivers of the one owner, votes per owner poll and burst. */
  floodSeconds: num('FAULTS_FLOOD_SECONDS', 120),
  floodReceivers: num('FAULTS_FLOOD_RECEIVERS', 60),
  floodVotesPerPoll: num('FAULTS_FLOOD_VOTES', 20),
  /** webhook-flood: another owner's delivery, from its vote's answer to the receiver, at most (ms). */
  floodIsolationTargetMs: 1_000,
  /** webhook-flood: how long after a bulk write of the flooding owner counts as its window, and the target there (ms). */
  floodWindowMs: 3_000,
  floodBulkTargetMs: 3_000,
};
