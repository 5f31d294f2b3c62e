/**
 * `npm run test:faults [-- <scenario>...]`: the fault suite (docs/reliability.md, "The fault
 * suite"). Starts its own stack (lib/stack.ts), creates the fixtures through the gateway, runs
 * the scenarios (all, or those named) one after the other, each printing its figures and
 * checks, then removes everything it created (also on failure and on Ctrl-C). The last line is
 * exactly `faults: N passed, M failed`; the exit code is 1 when a scenario failed.
 *
 * `--list` prints the scenarios. Knobs: lib/settings.ts (FAULTS_* variables); FAULTS_LOG_DIR
 * (default .local/faults/<run>) keeps the children's logs; FAULTS_TIMEOUT_S (default 600) stops
 * the whole run.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Stores } from './lib/durability.ts';
import { createFixtures } from './lib/fixtures.ts';
import { Api } from './lib/http.ts';
import { cleanUp, onCleanup, onInterrupt } from './lib/life.ts';
import { ScenarioReport } from './lib/report.ts';
import type { Scenario, ScenarioContext } from './lib/scenario.ts';
import { settings } from './lib/settings.ts';
import { raiseFdLimit } from '../scripts/lib/limits.ts';
import { FaultStack } from './lib/stack.ts';
import { exportKill } from './scenarios/export-kill.ts';
import { killEach } from './scenarios/kill-each.ts';
import { rabbitDrop } from './scenarios/rabbitmq-drop.ts';
import { redisLoss } from './scenarios/redis-loss.ts';
import { sseStreams } from './scenarios/sse-streams.ts';

const SCENARIOS: Scenario[] = [killEach, redisLoss, rabbitDrop, exportKill, sseStreams];
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const args = process.argv.slice(2);
if (args.includes('--list')) {
  for (const s of SCENARIOS) console.log(`${s.name.padEnd(14)} ${s.title}`);
  process.exit(0);
}
const unknown = args.filter((a) => !SCENARIOS.some((s) => s.name === a));
if (unknown.length) {
  console.error(
    `unknown scenario(s): ${unknown.join(', ')}; known: ${SCENARIOS.map((s) => s.name).join(', ')}`,
  );
  process.exit(2);
}
const chosen = args.length ? SCENARIOS.filter((s) => args.includes(s.name)) : SCENARIOS;
const results = new Map<string, boolean>();
let finished = false;

/** Cleans up, prints the summary (scenarios not run count as failed) and exits. */
async function finish(code?: number): Promise<never> {
  if (finished) return new Promise<never>(() => undefined);
  finished = true;
  await cleanUp();
  const passed = chosen.filter((s) => results.get(s.name) === true).length;
  const failed = chosen.length - passed;
  console.log(`faults: ${passed} passed, ${failed} failed`);
  process.exit(code ?? (failed ? 1 : 0));
}

onInterrupt((signal) => {
  console.error(`\n${signal}: stopping and cleaning up`);
  void finish(130);
});
const timeoutS = Number(process.env.FAULTS_TIMEOUT_S ?? 600);
setTimeout(() => {
  console.error(`\nthe suite ran over FAULTS_TIMEOUT_S (${timeoutS} s): stopping`);
  void finish(1);
}, timeoutS * 1000).unref();

const t0 = performance.now();
try {
  const fdWanted = Math.max(20_000, settings.sseStreams * 4 + 5_000);
  if (chosen.includes(sseStreams) && !raiseFdLimit(fdWanted))
    console.log(
      `note: could not raise the open-file limit to ${fdWanted} (prlimit needs root); ulimit -n applies`,
    );
  const logDir =
    process.env.FAULTS_LOG_DIR ??
    join(root, '.local', 'faults', new Date().toISOString().replace(/[:.]/g, '-'));
  const stack = await FaultStack.start(root, { logDir });
  const anonymous = new Api(stack.gatewayUrl, { timeoutMs: 10_000, maxSockets: 256 });
  const fx = await createFixtures(anonymous);
  const stores = await Stores.open({
    mongoUrl: stack.mongoUrl,
    mongoDb: stack.mongoDb,
    collectionDb: stack.databases.collection,
    eventsDb: stack.databases.events,
  });
  onCleanup('close the store connections', () => stores.close());
  const ctx: ScenarioContext = { stack, fx, stores, api: fx.api, anonymous };
  console.log(`stack and fixtures ready in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);

  for (const scenario of chosen) {
    const report = new ScenarioReport(scenario.name);
    const s0 = performance.now();
    const exitsBefore = stack.unexpectedExits.length;
    console.log(`== ${scenario.name}: ${scenario.title}`);
    try {
      await stack.ensureRunning();
      await scenario.run(ctx, report);
    } catch (err) {
      report.error(err);
    }
    const crashes = stack.unexpectedExits.slice(exitsBefore);
    report.check(
      crashes.length === 0,
      `no process exited by itself${crashes.length ? `: ${crashes.map((c) => `${c.name} (code ${c.code}, signal ${c.signal})`).join(', ')}` : ''}`,
    );
    results.set(scenario.name, report.passed);
    console.log(
      `== ${scenario.name}: ${report.passed ? 'PASSED' : 'FAILED'} in ${((performance.now() - s0) / 1000).toFixed(1)} s\n`,
    );
  }
  console.log(`total ${((performance.now() - t0) / 1000).toFixed(1)} s; logs in ${logDir}`);
} catch (err) {
  console.error(`fault suite error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
}
await finish();
