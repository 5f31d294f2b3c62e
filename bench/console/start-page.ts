/// <reference lib="dom" />
/**
 * The signed-in landing of `npm run bench:console` (issue 32): a signed-in user opens `/` (what
 * the brand and a bookmark lead to), which sends them to the start page `/start`, on a phone with
 * the CPU throttled as for the voting page, cold cache (a fresh browser context with the session
 * cookie only). Timed in the page (ms since navigation start): when the page's heading is on
 * screen and no loader is left in the main area (`__landedAt`: the counts of the user's
 * workspaces, polls and events are in). Target: see TARGET_MS. Prints each run, the
 * median and worst and where `/` landed; returns whether the target held.
 */
import type { BrowserContext } from 'playwright-core';
import type { ConsoleStack } from '../../e2e/browser/support/console-stack.ts';
import { signInThroughPage } from '../../e2e/browser/support/sign-in.ts';
import { median } from '../lib/percentile.ts';

/**
 * No slower than the landing it replaced: before issue 32, `/` went to "My polls", measured the
 * same way at median 3.9 s, worst 5.6 s (5 runs, on the 2-core machine shared by the team).
 */
const TARGET_MS = 6_000;

/** Records `__landedAt` once `main h1` is visible and `main` holds no `role=status` loader. */
const watchLanding = () => {
  const w = window as unknown as { __landedAt?: number };
  const check = () => {
    if (w.__landedAt !== undefined) return;
    const main = document.querySelector('main');
    const heading = main?.querySelector('h1');
    if (!main || !heading || heading.getClientRects().length === 0) return;
    if (main.querySelector('[role=status] .mantine-Loader-root')) return;
    w.__landedAt = performance.now();
  };
  new MutationObserver(check).observe(document, {
    childList: true,
    subtree: true,
    characterData: true,
    attributes: true,
  });
};

/** Runs the start page's measure `runs` times (after a warm-up) for `user`. */
export async function benchStartPage(
  c: ConsoleStack,
  user: { email: string; password: string },
  opts: { runs: number; throttle: number },
): Promise<boolean> {
  const signIn = await c.newContext({ phone: true });
  const first = await signIn.newPage();
  await signInThroughPage(first, user, '/settings/tokens');
  const session = await signIn.storageState();
  await signIn.close();

  const times: number[] = [];
  let landedOn = '';
  for (let run = 0; run <= opts.runs; run++) {
    const context: BrowserContext = await c.newContext({ phone: true });
    await context.addCookies(session.cookies);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: opts.throttle });
    await page.addInitScript(watchLanding);
    await page.goto('/');
    await page.waitForFunction(() => (window as { __landedAt?: number }).__landedAt !== undefined, null, {
      timeout: 30_000,
    });
    const at = await page.evaluate(() => (window as unknown as { __landedAt: number }).__landedAt);
    landedOn = new URL(page.url()).pathname;
    await context.close();
    if (run === 0) {
      console.log(`start page warm-up: ${at.toFixed(0)} ms`);
      continue;
    }
    times.push(at);
    console.log(`start page run ${run}: ready ${at.toFixed(0)} ms after navigation`);
  }
  const worst = Math.max(...times);
  console.log(
    `\nsigned-in landing (/ → ${landedOn}), CPU throttled ${opts.throttle}x, phone viewport, cold cache, ${opts.runs} runs:\n` +
      `  heading shown, nothing loading: median ${median(times).toFixed(0)} ms, worst ${worst.toFixed(0)} ms (target <= ${TARGET_MS} ms)`,
  );
  return worst <= TARGET_MS;
}
