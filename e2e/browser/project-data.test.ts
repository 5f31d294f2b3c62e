import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { startExportWorker } from '@fieldhouse/collection';
import { Broker, OutboxRelay } from '@fieldhouse/messaging';
import { backingUrl, randomPrefix, testLogger } from '@fieldhouse/testkit';
import { registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { createCollectionProject, submit, type CollectionProject } from './support/collection-project.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';

describe('console: exports, analyses and the map of a project (browser)', function () {
  this.timeout(180_000);
  const logger = testLogger('console-project-data');
  let c: ConsoleStack;
  let broker: Broker;
  let relay: OutboxRelay;
  let worker: { close: () => Promise<void> };
  let owner: Awaited<ReturnType<typeof registerUser>>;
  let project: CollectionProject;
  before(async () => {
    c = await startConsoleStack();
    // The export worker, as services/collection/src/workers/main.ts runs it.
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
    for (let i = 0; i < 10; i++)
      await submit(c.baseUrl, owner.token, project, {
        site: `Site ${i + 1}`,
        quality: i < 7 ? 'good' : 'poor',
        depth: 5 + i,
        place: [14.6 + i * 0.01, -17.4 - i * 0.01, 0, 5],
      });
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
    }
    expect(files.csv!.toString('utf8').trim().split('\n')).to.have.length(11); // header + 10 rows
    expect(files.csv!.toString('utf8')).to.contain('Site 10');
    expect(files.xlsx!.subarray(0, 2).toString('latin1')).to.equal('PK');
    const geo = JSON.parse(files.geojson!.toString('utf8')) as { features: unknown[] };
    expect(geo.features).to.have.length(10);
    expect(await page.locator('tr[data-status="completed"]').count()).to.equal(3);
    await screenshotBoth(page, 'exports');
    // On a phone the download links stay within the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    const link = await page
      .getByRole('link', { name: /^Download the / })
      .first()
      .boundingBox();
    expect(link!.x + link!.width).to.be.at.most(390);
  });

  it('creates an analysis and draws its chart from the Vega-Lite specification, with the SVG to download', async () => {
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
    expect(await data.innerText())
      .to.contain('good')
      .and.contain('7');
    await expectAccessible(page, 'analyses page');
    await screenshotBoth(page, 'analyses');

    const svgLink = page.getByRole('link', { name: 'Download as SVG' }).first();
    const href = await svgLink.getAttribute('href');
    const svg = await page.request.get(href!);
    expect(svg.status()).to.equal(200);
    expect(svg.headers()['content-type']).to.contain('image/svg+xml');
    expect(await svg.text()).to.contain('<svg');
  });

  it('shows the geopoint answers on a clustered map, each point leading to its submission', async () => {
    const page = await c.newPage();
    await signInThroughPage(page, owner, `/projects/${project.projectId}/map`);
    await page.getByText('10 points from 10 submissions.').waitFor();
    const map = page.getByRole('region', { name: "Map of the submissions' locations" });
    await map.locator('canvas').waitFor();
    await page.locator('[data-testid="points-map"][data-drawn="true"]').waitFor();
    await expectAccessible(page, 'map page');
    await screenshotBoth(page, 'map');
    await page.getByText('The points as a list').click();
    await page.getByRole('link', { name: /^Submission #\d+: 14\.6, -17\.4/ }).click();
    await page.waitForURL((u) => u.pathname.endsWith('/submissions') && u.searchParams.has('submission'));
    const drawer = page.getByRole('dialog', { name: /^Submission #/ });
    await drawer.getByText('Site 1', { exact: true }).waitFor();
    await drawer.getByRole('region', { name: 'Map of Well location' }).locator('canvas').waitFor();
  });
});
