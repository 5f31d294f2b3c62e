/**
 * `npm run test:faults [-- <scenario>...]`: the fault suite (docs/reliability.md, "The fault
 * suite"). Starts its own stack (lib/stack.ts), creates the fixtures through the gateway, runs
 * the scenarios (all, or those named) one after the other, each printing its figures and
 * checks, then removes everything it created (also on failure and on Ctrl-C). The last line is
 * exactly `faults: N passed, M failed`; the exit code is 1 when a scenario failed (lib/suite.ts).
 *
 * `--list` prints the scenarios. Knobs: lib/settings.ts (FAULTS_* variables); FAULTS_LOG_DIR
 * (default .local/faults/<run>) keeps the children's logs; FAULTS_TIMEOUT_S (default 600) stops
 * the whole run.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { raiseFdLimit } from '../scripts/lib/limits.ts';
import { settings } from './lib/settings.ts';
import { runSuite } from './lib/suite.ts';
import { exportKill } from './scenarios/export-kill.ts';
import { killEach } from './scenarios/kill-each.ts';
import { rabbitDrop } from './scenarios/rabbitmq-drop.ts';
import { redisLoss } from './scenarios/redis-loss.ts';
import { sseStreams } from './scenarios/sse-streams.ts';
import { storeStop } from './scenarios/store-stop.ts';
import { webhookFlood } from './scenarios/webhook-flood.ts';

await runSuite({
  suite: 'faults',
  root: join(dirname(fileURLToPath(import.meta.url)), '..'),
  scenarios: [killEach, redisLoss, rabbitDrop, exportKill, sseStreams, storeStop, webhookFlood],
  timeoutS: Number(process.env.FAULTS_TIMEOUT_S ?? 600),
  stack: {},
  ...(process.env.FAULTS_LOG_DIR ? { logDir: process.env.FAULTS_LOG_DIR } : {}),
  before: (chosen) => {
    const fdWanted = Math.max(20_000, settings.sseStreams * 4 + 5_000);
    if (chosen.includes(sseStreams) && !raiseFdLimit(fdWanted))
      console.log(
        `note: could not raise the open-file limit to ${fdWanted} (prlimit needs root); ulimit -n applies`,
      );
  },
});
