/// <reference lib="dom" />
/**
 * The data-collection pages of `npm run bench:console` (issue #17):
 * - the submissions table of a project holding ROWS submissions (default 1,000,000, bulk-loaded
 *   with bench/collection/data.ts's generate_series): from navigation to the first page's rows
 *   on screen (target 1 s), and from a click on "Next page" to the next page's rows (target
 *   300 ms; both timed in the page: a MutationObserver, and the click event itself), desktop
 *   viewport, no throttling, on loopback;
 * - the collector's web form on a phone with the CPU throttled 4×, cold cache: from navigation
 *   to its first input on screen and enabled (target 2 s), and its initial JavaScript from the
 *   build's dist/.vite/web-form-budget.json (target 200 KB gzip).
 * Each prints its runs, median and worst; returns whether its targets held.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { CONSOLE_DIST } from '@fieldhouse/console/ensure-built';
import type { ConsoleStack } from '../../e2e/browser/support/console-stack.ts';
import { signInThroughPage } from '../../e2e/browser/support/sign-in.ts';
import { benchFields, bulkLoad, submissionBody } from '../collection/data.ts';
import { median } from '../lib/percentile.ts';

interface Owner {
  email: string;
  password: string;
  token: string;
}

async function api(c: ConsoleStack, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${c.baseUrl}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { data: { id: number; uuid?: string; name?: string } };
}

/** A published project with the bench's 20-field form; its version id and field uuids. */
async function benchProject(c: ConsoleStack, owner: Owner, publication: object = {}) {
  const ws = (await api(c, owner.token, 'POST', '/api/v1/workspaces', { name: 'Bench' })).data.id;
  const projectId = (
    await api(c, owner.token, 'POST', `/api/v1/workspaces/${ws}/projects`, { name: 'Survey' })
  ).data.id;
  const versionId = (await api(c, owner.token, 'POST', `/api/v1/projects/${projectId}/versions`, {})).data.id;
  const uuids: Record<string, string> = {};
  for (const f of benchFields)
    uuids[f.name] = (await api(c, owner.token, 'POST', `/api/v1/versions/${versionId}/fields`, f)).data.uuid!;
  await api(c, owner.token, 'POST', `/api/v1/versions/${versionId}/publish`);
  await api(c, owner.token, 'POST', `/api/v1/projects/${projectId}/publish`, publication);
  return { projectId, versionId, uuids };
}

/**
 * ms since navigation start when the submissions table first shows a row (`__rowsAt`); and, in
 * the page, when "Next page" is clicked (`__clickAt`, a capture-phase listener: the click event
 * itself) and when the table's first row then changes (`__nextAt`), so the next page is timed by
 * the page's own clock from the click to the new rows, without the test driver's round trips.
 */
const watchRows = () => {
  const w = window as unknown as { __rowsAt?: number; __clickAt?: number; __nextAt?: number };
  let before: string | null = null;
  const firstRowId = () =>
    document.querySelector('tbody tr[data-submission]')?.getAttribute('data-submission') ?? null;
  document.addEventListener(
    'click',
    (e) => {
      const button = (e.target as Element | null)?.closest('button');
      if (button?.getAttribute('aria-label') !== 'Next page' && button?.textContent?.trim() !== 'Next page')
        return;
      before = firstRowId();
      w.__clickAt = performance.now();
      w.__nextAt = undefined;
    },
    true,
  );
  new MutationObserver(() => {
    if (w.__rowsAt === undefined && document.querySelector('tbody tr[data-submission]'))
      w.__rowsAt = performance.now();
    if (w.__clickAt !== undefined && w.__nextAt === undefined) {
      const id = firstRowId();
      if (id !== null && id !== before) w.__nextAt = performance.now();
    }
  }).observe(document, { childList: true, subtree: true });
};

/** ms since navigation start when the web form's first input is on screen and enabled. */
const watchInput = () => {
  const w = window as unknown as { __inputAt?: number };
  new MutationObserver(() => {
    const input = document.querySelector<HTMLInputElement>('form input');
    if (w.__inputAt === undefined && input && !input.disabled && input.getClientRects().length)
      w.__inputAt = performance.now();
  }).observe(document, { childList: true, subtree: true });
};

const firstRow = (page: Page) =>
  page.locator('tbody tr[data-submission]').first().getAttribute('data-submission');

export async function benchCollectionPages(
  c: ConsoleStack,
  owner: Owner,
  opts: { rows: number; runs: number; throttle: number },
): Promise<boolean> {
  // The submissions table over ROWS submissions.
  const big = await benchProject(c, owner);
  const template = submissionBody(big.versionId, big.uuids);
  const t0 = Date.now();
  await bulkLoad(c.stack.collection.db, big.projectId, big.versionId, opts.rows, template.data as unknown[]);
  console.log(
    `\nloaded ${opts.rows.toLocaleString('en')} submissions in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  );
  const context = await c.newContext();
  const page = await context.newPage();
  await signInThroughPage(page, owner, '/workspaces');
  await page.addInitScript(watchRows);
  const first: number[] = [];
  const next: number[] = [];
  for (let run = 0; run <= opts.runs; run++) {
    await page.goto(`/projects/${big.projectId}/submissions`);
    await page.waitForFunction(() => (window as { __rowsAt?: number }).__rowsAt !== undefined, null, {
      timeout: 30_000,
    });
    const shown = await page.evaluate(() => (window as unknown as { __rowsAt: number }).__rowsAt);
    const before = await firstRow(page);
    const clicked = Date.now();
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.waitForFunction(
      (id) => document.querySelector('tbody tr[data-submission]')?.getAttribute('data-submission') !== id,
      before,
      { timeout: 30_000 },
    );
    const driverMs = Date.now() - clicked;
    const nextMs = Math.round(
      await page.evaluate(() => {
        const w = window as unknown as { __clickAt?: number; __nextAt?: number };
        return (w.__nextAt ?? NaN) - (w.__clickAt ?? NaN);
      }),
    );
    if (!Number.isFinite(nextMs)) throw new Error('the click on "Next page" or the new rows were not seen');
    if (run === 0) continue; // warm-up
    first.push(shown);
    next.push(nextMs);
    console.log(
      `run ${run}: first page ${shown.toFixed(0)} ms, next page ${nextMs} ms (${driverMs} ms as the test driver sees it: its click and polling included)`,
    );
  }
  await context.close();
  const tablePass = Math.max(...first) <= 1_000 && Math.max(...next) <= 300;
  console.log(
    `submissions table, ${opts.rows.toLocaleString('en')} submissions, ${opts.runs} runs:\n` +
      `  first page shown: median ${median(first).toFixed(0)} ms, worst ${Math.max(...first).toFixed(0)} ms (target <= 1000 ms)\n` +
      `  next page shown: median ${median(next)} ms, worst ${Math.max(...next)} ms (target <= 300 ms)`,
  );

  // The collector's web form (a public project, so no sign-in is timed).
  const form = await benchProject(c, owner, { collect_access: 'public' });
  const times: number[] = [];
  for (let run = 0; run <= opts.runs; run++) {
    const ctx = await c.newContext({ phone: true });
    const p = await ctx.newPage();
    const cdp = await ctx.newCDPSession(p);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: opts.throttle });
    await p.addInitScript(watchInput);
    await p.goto(`/f/${form.projectId}`);
    await p.waitForFunction(() => (window as { __inputAt?: number }).__inputAt !== undefined, null, {
      timeout: 30_000,
    });
    const at = await p.evaluate(() => (window as unknown as { __inputAt: number }).__inputAt);
    await ctx.close();
    if (run === 0) continue;
    times.push(at);
    console.log(`run ${run}: web form interactive ${at.toFixed(0)} ms after navigation`);
  }
  const budget = JSON.parse(readFileSync(join(CONSOLE_DIST, '.vite', 'web-form-budget.json'), 'utf8')) as {
    totalGzipBytes: number;
    budgetBytes: number;
  };
  const formPass = Math.max(...times) <= 2_000 && budget.totalGzipBytes <= budget.budgetBytes;
  console.log(
    `web form (20 fields), CPU throttled ${opts.throttle}x, phone viewport, cold cache, ${opts.runs} runs:\n` +
      `  first input usable: median ${median(times).toFixed(0)} ms, worst ${Math.max(...times).toFixed(0)} ms (target <= 2000 ms)\n` +
      `  initial JavaScript in the build: ${(budget.totalGzipBytes / 1000).toFixed(1)} KB gzip (budget ${budget.budgetBytes / 1000} KB)`,
  );
  return tablePass && formPass;
}
