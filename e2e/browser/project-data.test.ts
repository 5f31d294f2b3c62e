import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import JSZip from 'jszip';
import type { Locator, Page } from 'playwright-core';
import { startExportWorker } from '@fieldhouse/collection';
import { Broker, OutboxRelay } from '@fieldhouse/messaging';
import { backingUrl, eventually, PNG, randomPrefix, testLogger } from '@fieldhouse/testkit';
import { gatewayClient, registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { createCollectionProject, submit, type CollectionProject } from './support/collection-project.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';

/** A mark MapLibre drew on the map's canvas: a cluster or a single point, by its centre (CSS px). */
interface MapMark {
  kind: 'cluster' | 'point';
  x: number;
  y: number;
  /** Width of its filled disc (px): a cluster's grows with its count (PointsMap.tsx). */
  width: number;
}

/**
 * The clusters and points on the map's canvas as it looks now. MapLibre draws them in WebGL,
 * with no DOM of their own, so they are found by colour in a screenshot of the canvas (decoded
 * by the page itself): points are #e8590c, clusters #1c7ed6 at 75 % over the #e9eef2
 * background (PointsMap.tsx); each connected patch of one colour is one mark.
 */
async function mapMarks(page: Page, canvas: Locator): Promise<MapMark[]> {
  const png = (await canvas.screenshot()).toString('base64');
  return page.evaluate(async (b64) => {
    const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const { width, height } = bitmap;
    const context = new OffscreenCanvas(width, height).getContext('2d')!;
    context.drawImage(bitmap, 0, 0);
    const px = context.getImageData(0, 0, width, height).data;
    const near = (i: number, [r, g, b]: number[]) =>
      Math.abs(px[4 * i]! - r!) < 40 &&
      Math.abs(px[4 * i + 1]! - g!) < 40 &&
      Math.abs(px[4 * i + 2]! - b!) < 40;
    const kinds = new Uint8Array(width * height);
    for (let i = 0; i < kinds.length; i++)
      kinds[i] = near(i, [232, 89, 12]) ? 1 : near(i, [79, 154, 221]) ? 2 : 0;
    const marks: Array<{ kind: 'cluster' | 'point'; x: number; y: number; width: number }> = [];
    for (let start = 0; start < kinds.length; start++) {
      const kind = kinds[start];
      if (!kind) continue;
      let [n, sumX, sumY, minX, maxX] = [0, 0, 0, width, 0];
      const todo = [start];
      kinds[start] = 0;
      while (todo.length) {
        const i = todo.pop()!;
        const x = i % width;
        const y = (i - x) / width;
        n++;
        sumX += x;
        sumY += y;
        minX = Math.min(minX, x);
        maxX = Math.max(maxX, x);
        for (const j of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width])
          if (j >= 0 && j < kinds.length && kinds[j] === kind) {
            kinds[j] = 0;
            todo.push(j);
          }
      }
      // A few stray pixels of a similar colour (anti-aliasing) are no mark.
      if (n >= 40)
        marks.push({
          kind: kind === 1 ? 'point' : 'cluster',
          x: sumX / n,
          y: sumY / n,
          width: maxX - minX + 1,
        });
    }
    return marks;
  }, png);
}

/** The map's marks once it has drawn something other than `before` and stopped changing. */
async function settledMarks(page: Page, canvas: Locator, before?: MapMark[]): Promise<MapMark[]> {
  let last = '';
  return eventually(
    async () => {
      const marks = await mapMarks(page, canvas);
      const now = JSON.stringify(marks);
      const settled = marks.length > 0 && now === last && now !== JSON.stringify(before ?? null);
      last = now;
      return settled && marks;
    },
    15_000,
    250,
  );
}

describe('console: exports, analyses and the map of a project (browser)', function () {
  this.timeout(180_000);
  const logger = testLogger('console-project-data');
  let c: ConsoleStack;
  let broker: Broker;
  let relay: OutboxRelay;
  let worker: { close: () => Promise<void> };
  let owner: Awaited<ReturnType<typeof registerUser>>;
  let project: CollectionProject;
  /** The submissions' ids, Site 1 first. */
  let ids: number[];
  before(async () => {
    c = await startConsoleStack();
    // The export worker, as services/collection/src/workers/main.ts runs it, but retrying after
    // 0.2, 0.5 and 1 s (instead of 1, 5 and 30 s) so a job that keeps failing ends within a test.
    broker = new Broker({
      url: await backingUrl('amqp'),
      logger,
      name: 'console-exports',
      prefix: randomPrefix('con-exp'),
    });
    relay = new OutboxRelay({ knex: c.stack.collection.db, table: 'outbox', broker, logger, intervalMs: 50 });
    relay.start();
    worker = await startExportWorker({
      broker,
      db: c.stack.collection.db,
      blobs: c.stack.collection.blobs,
      logger,
      settings: { ttlHours: 1, leaseMs: 10_000, heartbeatMs: 200, publicUrl: c.baseUrl },
      retryDelaysMs: [200, 500, 1_000],
      onOutbox: () => relay.kick(),
    });
    owner = await registerUser(c.baseUrl, 'Ines Analyst');
    project = await createCollectionProject(c.baseUrl, owner.token, [
      { name: 'site', label: 'Site', type: 'text' },
      {
        name: 'quality',
        label: 'Water quality',
        type: 'select_one',
        choices: [
          { value: 'good', label: 'Good' },
          { value: 'poor', label: 'Poor' },
        ],
      },
      { name: 'depth', label: 'Depth', type: 'integer' },
      { name: 'place', label: 'Well location', type: 'geopoint' },
    ]);
    // Site 1 alone; Sites 2 to 10 on a 3 × 3 grid 0.001° apart, about 5 km from it: one cluster
    // at the zoom that fits all ten, single points once zoomed into it.
    ids = [];
    for (let i = 0; i < 10; i++)
      ids.push(
        await submit(c.baseUrl, owner.token, project, {
          site: `Site ${i + 1}`,
          quality: i < 7 ? 'good' : 'poor',
          depth: 5 + i,
          place:
            i === 0
              ? [14.6, -17.4, 0, 5]
              : [14.64 + ((i - 1) % 3) * 0.001, -17.43 - Math.floor((i - 1) / 3) * 0.001, 0, 5],
        }),
      );
  });
  after(async () => {
    await worker?.close();
    await relay?.stop();
    await broker?.close();
    await c?.stop();
  });

  it('requests CSV, XLSX and GeoJSON exports of a filtered view, follows them, and downloads each', async () => {
    const page = await c.newPage();
    await signInThroughPage(page, owner, `/projects/${project.projectId}/submissions`);
    await page.getByText('10 submissions', { exact: true }).waitFor();
    await page.getByRole('searchbox', { name: 'Search the answers' }).fill('site');
    await page.waitForURL((u) => u.searchParams.get('search') === 'site');
    await page.getByRole('link', { name: 'Export this view' }).click();
    await page.waitForURL((u) => u.pathname.endsWith('/exports') && u.searchParams.get('search') === 'site');
    await page.getByText('Of: search: site.').waitFor();
    await page.getByText('No exports yet.').waitFor();
    await expectAccessible(page, 'exports page');

    const files: Record<string, Buffer> = {};
    let csvName = '';
    for (const [format, label] of [
      ['csv', 'CSV'],
      ['xlsx', 'Excel (XLSX)'],
      ['geojson', 'GeoJSON'],
    ] as const) {
      await page.getByRole('combobox', { name: 'Format' }).selectOption(format);
      await page.getByRole('button', { name: 'Request the export' }).click();
      const link = page.getByRole('link', { name: `Download the ${label} file` });
      await link.waitFor({ timeout: 30_000 });
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      files[format] = readFileSync((await download.path())!);
      if (format === 'csv') csvName = download.suggestedFilename();
    }
    expect(files.csv!.toString('utf8').trim().split('\n')).to.have.length(11); // header + 10 rows
    expect(files.csv!.toString('utf8')).to.contain('Site 10');
    expect(files.xlsx!.subarray(0, 2).toString('latin1')).to.equal('PK');
    const geo = JSON.parse(files.geojson!.toString('utf8')) as { features: unknown[] };
    expect(geo.features).to.have.length(10);
    expect(await page.locator('tr[data-status="completed"]').count()).to.equal(3);
    // Files are named after the project and the day (screenshots: the media zip's test below).
    expect(csvName).to.match(/^water-points-\d{4}-\d{2}-\d{2}\.csv$/);
    // On a phone the three download links stay within the screen, once the page has laid
    // itself out again for the new width (a CI run measured 443 px right after the resize).
    await page.setViewportSize({ width: 390, height: 844 });
    const rightEdges = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('a')]
          .filter((a) => /^Download the /.test(a.textContent ?? ''))
          .map((a) => a.getBoundingClientRect().right),
      );
    await eventually(async () => (await rightEdges()).every((right) => right <= 390), 30_000).catch(
      async () => expect.fail(`download links past 390 px on a phone: ${(await rightEdges()).join(', ')}`),
    );
    expect(await rightEdges()).to.have.length(3);
  });

  it('requests the all-data-and-media zip, downloads it named after the project, and finds each photo in it', async () => {
    const photos = await createCollectionProject(
      c.baseUrl,
      owner.token,
      [
        { name: 'site', label: 'Site', type: 'text' },
        { name: 'photo', label: 'Photo of the well', type: 'photo' },
      ],
      {},
      { workspace: 'Wells', project: 'Relevé des puits' },
    );
    for (const site of ['North', 'South', 'East'])
      await submit(c.baseUrl, owner.token, photos, { site, photo: PNG.toString('base64') });
    await submit(c.baseUrl, owner.token, photos, { site: 'No photo' });
    const page = await c.newPage();
    await signInThroughPage(page, owner, `/projects/${photos.projectId}/exports`);
    await page.getByText('No exports yet.').waitFor();
    await page.getByText('Photo columns hold links to the photos').waitFor();
    await page.getByRole('combobox', { name: 'Format' }).selectOption('zip');
    await page.getByText('A CSV file and a “media” folder holding each photo once').waitFor();
    await page.getByRole('button', { name: 'Request the export' }).click();
    const link = page.getByRole('link', { name: 'Download the data and media (ZIP)' });
    await link.waitFor({ timeout: 30_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const day = new Date().toISOString().slice(0, 10);
    expect(download.suggestedFilename()).to.equal(`relevé-des-puits-${day}.zip`);
    const zip = await JSZip.loadAsync(readFileSync((await download.path())!));
    const media = Object.keys(zip.files).filter((n) => n.startsWith('media/') && !zip.files[n]!.dir);
    expect(media).to.have.length(3);
    const csv = (await zip.file(`relevé-des-puits-${day}.csv`)!.async('string')).trim().split('\n');
    expect(csv).to.have.length(5); // header + 4 rows
    for (const path of media) {
      expect(csv.some((line) => line.includes(path))).to.equal(true);
      expect(await zip.file(path)!.async('nodebuffer')).to.deep.equal(PNG);
    }
    await expectAccessible(page, 'exports page with a media zip');
    await screenshotBoth(page, 'exports');
  });

  it('shows why an export failed: one column per choice of 2,000 choices, past what PostgreSQL can select', async () => {
    // Two multiple-choice questions of 1,000 choices each (the most a field may have): with one
    // column per choice the export needs 2,000 columns and more, but a PostgreSQL SELECT returns
    // at most 1,664. The API takes the request; the worker's query fails on every attempt.
    const choices = (q: string) =>
      Array.from({ length: 1_000 }, (_, i) => ({ value: `${q}${i}`, label: `${q.toUpperCase()} ${i}` }));
    const wide = await createCollectionProject(
      c.baseUrl,
      owner.token,
      [
        { name: 'tools', label: 'Tools seen', type: 'select_multiple', choices: choices('t') },
        { name: 'crops', label: 'Crops grown', type: 'select_multiple', choices: choices('c') },
      ],
      {},
      { workspace: 'Census', project: 'Farm census' },
    );
    await submit(c.baseUrl, owner.token, wide, { tools: ['t1', 't7'], crops: ['c3'] });
    const page = await c.newPage();
    await signInThroughPage(page, owner, `/projects/${wide.projectId}/exports`);
    await page.getByText('No exports yet.').waitFor();
    await page.getByRole('checkbox', { name: 'One column per choice for multiple choices' }).check();
    await page.getByRole('button', { name: 'Request the export' }).click();
    // The list follows the job by itself until it ends, failed, with the worker's reason.
    const row = page.locator('tr[data-status="failed"]');
    await row.waitFor({ timeout: 30_000 });
    await row.getByText('Failed', { exact: true }).waitFor();
    await row.getByText('target lists can have at most 1664 entries').waitFor();
    expect(await row.getByRole('link').count()).to.equal(0);
    const jobId = await row.getAttribute('data-export');
    const job = (await gatewayClient(c.baseUrl, owner.token).get(`/api/v1/exports/${jobId}`).expect(200)).body
      .data as { status: string; error: string; options: Record<string, unknown> };
    expect(job).to.include({ status: 'failed' });
    expect(job.error).to.contain('target lists can have at most 1664 entries');
    expect(job.options).to.include({ choice_columns: true });
    await gatewayClient(c.baseUrl, owner.token).get(`/api/v1/exports/${jobId}/download`).expect(409);
    await expectAccessible(page, 'exports page with a failed export');
  });

  it('creates an analysis and draws its chart from the Vega-Lite specification, with its SVG to download', async () => {
    const page = await c.newPage();
    await signInThroughPage(page, owner, `/projects/${project.projectId}/analyses`);
    await page.getByText('No analyses yet.').waitFor();
    await page.getByRole('button', { name: 'Create the analysis' }).click();
    await page.getByText('A name is required').waitFor();
    await page.getByRole('textbox', { name: 'Name of the analysis' }).fill('Water quality survey');
    await page.getByRole('textbox', { name: 'Title of chart 1' }).fill('Quality of the wells');
    await page.getByRole('combobox', { name: 'Question of chart 1' }).selectOption('quality');
    await page.getByRole('button', { name: 'Add a chart' }).click();
    await page.getByRole('textbox', { name: 'Title of chart 2' }).fill('Depths');
    await page.getByRole('combobox', { name: 'Kind of chart 2' }).selectOption('histogram');
    await page.getByRole('combobox', { name: 'Question of chart 2' }).selectOption('depth');
    await page.getByRole('button', { name: 'Create the analysis' }).click();
    await page.getByRole('heading', { name: 'Water quality survey' }).waitFor();

    // vega-embed draws an SVG inside each chart's figure.
    const chart = page.getByRole('img', { name: 'Quality of the wells' });
    await chart.locator('svg').first().waitFor();
    await page.getByRole('img', { name: 'Depths' }).locator('svg').first().waitFor();
    expect(await chart.locator('svg path, svg rect').count()).to.be.greaterThan(0);
    await page.getByRole('button', { name: 'Show the data' }).first().click();
    const data = page.getByRole('table', { name: 'Data of Quality of the wells' });
    // Choices by their labels (project-views.test.ts checks the rest of what charts show).
    expect(await data.innerText())
      .to.contain('Good')
      .and.contain('7');
    await expectAccessible(page, 'analyses page');

    // The SVG file is the drawing the page shows, made in the browser.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download as SVG' }).first().click(),
    ]);
    expect(download.suggestedFilename()).to.equal('Quality of the wells.svg');
    const svg = readFileSync((await download.path())!, 'utf8');
    expect(svg).to.contain('<svg').and.contain('Good').and.contain('Water quality');
  });

  it('shows the geopoint answers on a clustered map, each point leading to its submission', async () => {
    const page = await c.newPage();
    await signInThroughPage(page, owner, `/projects/${project.projectId}/map`);
    await page.getByText('10 points from 10 submissions.').waitFor();
    const map = page.getByRole('region', { name: "Map of the submissions' locations" });
    const canvas = map.locator('canvas');
    await canvas.waitFor();
    await page.locator('[data-testid="points-map"][data-drawn="true"]').waitFor();
    await expectAccessible(page, 'map page');
    // The list below the map, the way in without a pointer, links each point to its submission.
    await page.getByText('The points as a list').click();
    expect(await page.getByRole('link', { name: /^Submission #\d+: / }).count()).to.equal(10);
    expect(
      await page.getByRole('link', { name: /^Submission #\d+: 14\.6, -17\.4/ }).getAttribute('href'),
    ).to.match(new RegExp(`[?&]submission=${ids[0]}$`));

    // At the zoom that fits them all, the nine neighbours are one cluster, sized for fewer than
    // ten points (radius 14 px, twice a point's), and Site 1 is a point of its own.
    const marks = await settledMarks(page, canvas);
    const clusters = marks.filter((m) => m.kind === 'cluster');
    const points = marks.filter((m) => m.kind === 'point');
    expect(clusters, JSON.stringify(marks)).to.have.length(1);
    expect(points, JSON.stringify(marks)).to.have.length(1);
    expect(clusters[0]!.width).to.be.within(22, 34);
    expect(points[0]!.width).to.be.within(10, 18);

    // A click on the lone point opens Site 1's submission.
    await canvas.click({ position: { x: points[0]!.x, y: points[0]!.y } });
    await page.waitForURL((u) => u.pathname.endsWith('/submissions'));
    expect(new URL(page.url()).searchParams.get('submission')).to.equal(String(ids[0]));
    const drawer = page.getByRole('dialog', { name: `Submission #${ids[0]}` });
    await drawer.getByText('Site 1', { exact: true }).waitFor();
    await drawer.getByRole('region', { name: 'Map of Well location' }).locator('canvas').waitFor();

    // A click on the cluster zooms in until it splits (into smaller clusters, then points); a
    // click on the point nearest the middle opens that point's submission, one of the nine.
    await page.goto(`/projects/${project.projectId}/map`);
    await page.locator('[data-testid="points-map"][data-drawn="true"]').waitFor();
    let now = await settledMarks(page, canvas);
    const box = (await canvas.boundingBox())!;
    const nearest = (list: MapMark[]) =>
      list.toSorted(
        (a, b) =>
          Math.hypot(a.x - box.width / 2, a.y - box.height / 2) -
          Math.hypot(b.x - box.width / 2, b.y - box.height / 2),
      )[0]!;
    const cluster = now.find((m) => m.kind === 'cluster')!;
    for (let zooms = 0; ; zooms++) {
      expect(zooms, `still clustered after ${zooms} zooms: ${JSON.stringify(now)}`).to.be.below(4);
      const target = zooms === 0 ? cluster : nearest(now.filter((m) => m.kind === 'cluster'));
      await canvas.click({ position: { x: target.x, y: target.y } });
      const before = now;
      now = await settledMarks(page, canvas, before);
      // The cluster split: more marks than the one it was (Site 1 is out of view by now).
      expect(now.length, JSON.stringify(now)).to.be.greaterThan(1);
      if (now.some((m) => m.kind === 'point')) break;
    }
    const point = nearest(now.filter((m) => m.kind === 'point'));
    await canvas.click({ position: { x: point.x, y: point.y } });
    await page.waitForURL((u) => u.pathname.endsWith('/submissions') && u.searchParams.has('submission'));
    const opened = Number(new URL(page.url()).searchParams.get('submission'));
    expect(ids.slice(1)).to.include(opened);
    const other = page.getByRole('dialog', { name: `Submission #${opened}` });
    await other.getByText(`Site ${ids.indexOf(opened) + 1}`, { exact: true }).waitFor();
  });
});
