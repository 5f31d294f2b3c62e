/**
 * The runner shared by the fault suite (`npm run test:faults`) and the replicas suite
 * (`npm run test:replicas`): parses the scenario names of the command line (`--list` prints
 * them), starts the suite's stack (lib/stack.ts), creates the fixtures through the gateway, runs
 * the scenarios one after the other, each printing its figures and checks, then removes
 * everything it created (also on failure, on Ctrl-C and after `timeoutS`). The last line is
 * exactly `<suite>: N passed, M failed`; the exit code is 1 when a scenario failed.
 */
import { join } from 'node:path';
import { Stores } from './durability.ts';
import { createFixtures } from './fixtures.ts';
import { Api } from './http.ts';
import { cleanUp, onCleanup, onInterrupt } from './life.ts';
import { waitForQuietCpu } from './quiet.ts';
import { ScenarioReport } from './report.ts';
import type { Scenario, ScenarioContext } from './scenario.ts';
import { FaultStack, type StackOptions } from './stack.ts';

export interface SuiteOptions {
  /** `faults` or `replicas`: the summary line's word and the log folder's. */
  suite: string;
  root: string;
  scenarios: Scenario[];
  /** The whole run stops (and fails) after this many seconds. */
  timeoutS: number;
  /** The stack's layout (the log folder is the suite's). */
  stack: Omit<StackOptions, 'logDir'>;
  /** Called with the chosen scenarios before the stack starts (limits to raise...). */
  before?: (chosen: Scenario[]) => void;
  /** Folder of the children's logs (default `.local/<suite>/<time>`). */
  logDir?: string;
}

/** Runs the suite as described above; never returns (exits). */
export async function runSuite(o: SuiteOptions): Promise<never> {
  const args = process.argv.slice(2);
  if (args.includes('--list')) {
    for (const s of o.scenarios) console.log(`${s.name.padEnd(16)} ${s.title}`);
    process.exit(0);
  }
  const unknown = args.filter((a) => !o.scenarios.some((s) => s.name === a));
  if (unknown.length) {
    console.error(
      `unknown scenario(s): ${unknown.join(', ')}; known: ${o.scenarios.map((s) => s.name).join(', ')}`,
    );
    process.exit(2);
  }
  const chosen = args.length ? o.scenarios.filter((s) => args.includes(s.name)) : o.scenarios;
  const results = new Map<string, boolean>();
  let finished = false;

  /** Cleans up, prints the summary (scenarios not run count as failed) and exits. */
  const finish = async (code?: number): Promise<never> => {
    if (finished) return new Promise<never>(() => undefined);
    finished = true;
    await cleanUp();
    const passed = chosen.filter((s) => results.get(s.name) === true).length;
    const failed = chosen.length - passed;
    console.log(`${o.suite}: ${passed} passed, ${failed} failed`);
    process.exit(code ?? (failed ? 1 : 0));
  };

  onInterrupt((signal) => {
    console.error(`\n${signal}: stopping and cleaning up`);
    void finish(130);
  });
  setTimeout(() => {
    console.error(`\nthe suite ran over its ${o.timeoutS} s: stopping`);
    void finish(1);
  }, o.timeoutS * 1000).unref();

  const t0 = performance.now();
  try {
    o.before?.(chosen);
    const logDir =
      o.logDir ?? join(o.root, '.local', o.suite, new Date().toISOString().replace(/[:.]/g, '-'));
    const stack = await FaultStack.start(o.root, { ...o.stack, label: o.suite, logDir });
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
      // Latency bars measure the scenario's own load: let what ran before drain first (20 s at most).
      const settled = await waitForQuietCpu();
      if (settled)
        console.log(
          `       machine ${settled.quiet ? 'quiet' : 'still busy'}: ${Math.round(settled.idle * 100)} % idle after ${(settled.waitedMs / 1000).toFixed(1)} s`,
        );
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
    console.error(
      `${o.suite} suite error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
    );
  }
  return finish();
}
