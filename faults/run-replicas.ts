/**
 * `npm run test:replicas [-- <scenario>...]`: the replicas suite (docs/scaling.md, "Many
 * replicas, proven"). Starts two gateways and two replicas of each service and each worker
 * behind HAProxy (round robin; lib/haproxy.ts), with their own databases, Redis, vhost and S3
 * bucket, then runs the scenarios, each printing its figures and checks. The last line is
 * exactly `replicas: N passed, M failed`; the exit code is 1 when a scenario failed.
 *
 * `--list` prints the scenarios. REPLICAS_LOG_DIR (default .local/replicas/<run>) keeps the
 * children's logs; REPLICAS_TIMEOUT_S (default 600) stops the whole run; the load's rates are
 * the fault suite's (FAULTS_RATE_*, lib/settings.ts).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runSuite } from './lib/suite.ts';
import { checkinRace } from './replica-scenarios/checkin-race.ts';
import { exportsOnce } from './replica-scenarios/exports-once.ts';
import { revocation } from './replica-scenarios/revocation.ts';
import { rollingRestart } from './replica-scenarios/rolling-restart.ts';
import { sessions } from './replica-scenarios/sessions.ts';
import { REPLICA_LIMITS, sharedLimits } from './replica-scenarios/shared-limits.ts';
import { sseAcross } from './replica-scenarios/sse-across.ts';

await runSuite({
  suite: 'replicas',
  root: join(dirname(fileURLToPath(import.meta.url)), '..'),
  scenarios: [sseAcross, sharedLimits, revocation, sessions, exportsOnce, checkinRace, rollingRestart],
  timeoutS: Number(process.env.REPLICAS_TIMEOUT_S ?? 600),
  ...(process.env.REPLICAS_LOG_DIR ? { logDir: process.env.REPLICAS_LOG_DIR } : {}),
  stack: {
    replicas: 2,
    envOf: {
      gateway: {
        // Low enough for shared-limits to reach, high enough for the steady load's one user.
        RATE_LIMIT_USER: String(REPLICA_LIMITS.perUser),
        RATE_LIMIT_WINDOW_SECONDS: String(REPLICA_LIMITS.windowSeconds),
        RATE_LIMIT_LOGIN: String(REPLICA_LIMITS.login),
        RATE_LIMIT_SYNC_MS: String(REPLICA_LIMITS.syncMs),
      },
      // exports-once reads which worker completed each export from its log; rolling-restart waits
      // for each worker's start line (FaultStack.waitWorkerStarted), logged at info.
      'collection-worker': { LOG_LEVEL: 'info' },
      'polls-worker': { LOG_LEVEL: 'info' },
      'events-worker': { LOG_LEVEL: 'info' },
    },
  },
});
