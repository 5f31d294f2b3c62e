import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { eventually, PNG } from '@fieldhouse/testkit';
import { gatewayClient, registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { createCollectionProject, submit, type CollectionProject } from './support/collection-project.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';

/** CRC-32 of a PNG chunk (type and data). */
const crc32 = (bytes: Buffer) => {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
};

/** A `size`×`size` PNG of one colour: the tile the local tile server answers with. */
function solidPng(size: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB
  const row = Buffer.concat([
    Buffer.from([0]),
    Buffer.from(Array.from({ length: size }, () => [r, g, b]).flat()),
  ]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: size }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The texts of a chart's y-axis tick labels. */
const yTicks = (page: Page, chartName: string) =>
  page
    .getByRole('img', { name: chartName })
    .locator('g[aria-label^="Y-axis"] .role-axis-label text')
    .allTextContents();

describe('console: map tiles and status filter, readable charts, sharing the web form (browser)', function () {
  this.timeout(180_000);
  let c: ConsoleStack;
  let tiles: Server;
  /** Paths the local tile server was asked for. */
  const tileRequests: string[] = [];
  let owner: Awaited<ReturnType<typeof registerUser>>;
  let project: CollectionProject;

  before(async () => {
    // A tile server on this machine (tests reach no internet): a light green tile for any z/x/y,
    // with the CORS header MapLibre's fetch needs.
    const tile = solidPng(256, [214, 232, 200]);
    tiles = createServer((req, res) => {
      tileRequests.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*' });
      res.end(tile);
    });
    await new Promise<void>((resolve) => tiles.listen(0, '127.0.0.1', resolve));
    const { port } = tiles.address() as AddressInfo;
    // The attribution is left to its default: OpenStreetMap's.
    c = await startConsoleStack({ MAP_TILE_URL: `http://127.0.0.1:${port}/tiles/{z}/{x}/{y}.png` });
    owner = await registerUser(c.baseUrl, 'Awa Mapper');
    project = await createCollectionProject(c.baseUrl, owner.token, [
      { name: 'site', label: 'Site', type: 'text' },
      {
        name: 'water_source',
        label: 'Water source',
        type: 'select_one',
        choices: [
          { value: 'piped', label: 'Piped water' },
          { value: 'well', label: 'Protected well' },
          { value: 'river', label: 'River' },
        ],
      },
      { name: 'place', label: 'Location of the source', type: 'geopoint' },
      { name: 'photo', label: 'Photo of the source', type: 'photo' },
    ]);
    const sources = ['piped', 'piped', 'well', 'piped', 'river'];
    const ids: number[] = [];
    for (const [i, source] of sources.entries())
      ids.push(
        await submit(c.baseUrl, owner.token, project, {
          site: `Source ${i + 1}`,
          water_source: source,
          place: [14.69 + i * 0.01, -17.44 - i * 0.01, 0, 5],
        }),
      );
    // Two of the five reviewed: the map's status filter keeps those.
    const api = gatewayClient(c.baseUrl, owner.token);
    for (const id of ids.slice(0, 2))
      await api
        .put(`/api/v1/projects/${project.projectId}/submissions/${id}`)
        .send({ status: 'reviewed' })
        .expect(200);
    await api
      .post(`/api/v1/projects/${project.projectId}/analyses`)
      .send({
        name: 'Water points survey',
        charts: [
          { title: 'Water sources', kind: 'choice_counts', field: 'water_source' },
          { title: 'Review', kind: 'status' },
          { title: 'Per day', kind: 'over_time' },
        ],
      })
      .expect(201);
  });
  after(async () => {
    await c?.stop();
    await new Promise((resolve) => tiles?.close(resolve));
  });

  it('draws the map over the configured tile server with its attribution, narrows it by status (in the URL), and shares the web form', async () => {
    const page = await c.newPage();
    await signInThroughPage(page, owner, `/projects/${project.projectId}/map`);
    await page.getByText('5 points from 5 submissions.').waitFor();
    await page.locator('[data-testid="points-map"][data-drawn="true"]').waitFor();
    // Tiles come from the deployment's setting, served by the gateway at run time.
    await eventually(async () => tileRequests.some((p) => /^\/tiles\/\d+\/\d+\/\d+\.png$/.test(p)), 10_000);
    const attribution = page.getByRole('link', { name: '© OpenStreetMap contributors' });
    expect(await attribution.getAttribute('href')).to.equal('https://www.openstreetmap.org/copyright');
    await expectAccessible(page, 'map page with tiles');

    await page.getByRole('combobox', { name: 'Review status' }).selectOption('reviewed');
    await page.waitForURL((u) => u.searchParams.get('status') === 'reviewed');
    await page.getByText('2 points from 2 submissions.').waitFor();
    await page.locator('[data-testid="points-map"][data-drawn="true"]').waitFor();
    await page.getByText('The points as a list').click();
    expect(await page.getByRole('link', { name: /^Submission #\d+: / }).count()).to.equal(2);
    // The filter is in the address: a reload (or a shared link) shows the same view.
    await page.reload();
    await page.getByText('2 points from 2 submissions.').waitFor();
    expect(await page.getByRole('combobox', { name: 'Review status' }).inputValue()).to.equal('reviewed');
    await page.locator('[data-testid="points-map"][data-drawn="true"]').waitFor();
    await expectAccessible(page, 'map page filtered by status');
    await screenshotBoth(page, 'map');

    // "Share" beside "Open the web form": its link with a copy button and its QR code.
    await page.getByRole('button', { name: 'Share the web form of Water points: link and QR code' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share the web form of “Water points”' });
    const link = `${c.baseUrl}/f/${project.projectId}`;
    expect(await dialog.getByTestId('web-form-link').innerText()).to.equal(link);
    expect(await dialog.getByTestId('web-form-qr').getAttribute('data-link')).to.equal(link);
    await dialog.getByRole('button', { name: 'Copy the link' }).waitFor();
    await dialog.getByRole('button', { name: 'Download PNG' }).waitFor();
    await expectAccessible(page, 'web form share dialog');
    await screenshotBoth(page, 'webform-share');
  });

  it('draws charts with the labels, whole-number count ticks and shares, in the reader’s language and color scheme', async () => {
    const page = await c.newPage();
    await signInThroughPage(page, owner, `/projects/${project.projectId}/analyses`);
    const sources = page.getByRole('img', { name: 'Water sources' });
    await sources.locator('[data-drawn="light"] svg').waitFor();
    await page.getByRole('img', { name: 'Review' }).locator('[data-drawn="light"] svg').waitFor();
    const texts = await sources.locator('svg text').allTextContents();
    expect(texts).to.include.members([
      'Piped water',
      'Protected well',
      'River',
      'Water source',
      'Submissions',
    ]);
    expect(texts).not.to.include.members(['piped']);
    expect(texts).not.to.include('water_source');
    // Counts of 1 to 3: ticks 0, 1, 2, 3 and no 0.5.
    const ticks = await yTicks(page, 'Water sources');
    expect(ticks.length).to.be.greaterThan(1);
    for (const tick of ticks) expect(tick).to.match(/^\d+$/);
    // Submissions per day: whole counts, days named by their date in English.
    const perDay = page.getByRole('img', { name: 'Per day' });
    await perDay.locator('[data-drawn="light"] svg').waitFor();
    for (const tick of await yTicks(page, 'Per day')) expect(tick).to.match(/^\d+$/);
    expect(await perDay.locator('svg text').allTextContents()).to.include('Day (UTC)');
    const review = await page.getByRole('img', { name: 'Review' }).locator('svg text').allTextContents();
    expect(review).to.include.members(['Status', 'Submitted', 'Reviewed']);
    // The table of the data says the same, with each choice's share.
    await page.getByRole('button', { name: 'Show the data' }).first().click();
    const data = page.getByRole('table', { name: 'Data of Water sources' });
    expect(await data.innerText())
      .to.contain('Piped water')
      .and.contain('Share of the total')
      .and.contain('60%');
    await expectAccessible(page, 'analyses page');
    await screenshotBoth(page, 'analyses');

    // The SVG download is the same drawing.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download as SVG' }).first().click(),
    ]);
    expect(download.suggestedFilename()).to.equal('Water sources.svg');

    // Dark: the charts follow Mantine's color scheme (light text on the dark page).
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.locator('html[data-mantine-color-scheme="dark"]').waitFor({ state: 'attached' });
    await sources.locator('[data-drawn="dark"] svg').waitFor();
    const fill = await sources
      .locator('g[aria-label^="Y-axis"] .role-axis-title text')
      .evaluate((el) => getComputedStyle(el).fill || el.getAttribute('fill'));
    const [r, g, b] = (fill ?? '').match(/\d+/g)!.map(Number);
    expect(0.2126 * r! + 0.7152 * g! + 0.0722 * b!, `fill ${fill}`).to.be.greaterThan(180);
    await expectAccessible(page, 'analyses page, dark');
    await screenshotBoth(page, 'analyses-dark');

    // French: axis titles, statuses, the table and its percentages in French.
    await page.emulateMedia({ colorScheme: 'light' });
    await page.evaluate(() => localStorage.setItem('fieldhouse.lang', 'fr'));
    await page.reload();
    await sources.locator('[data-drawn="light"] svg').waitFor();
    const french = await sources.locator('svg text').allTextContents();
    expect(french).to.include.members(['Soumissions', 'Piped water', 'Water source']);
    const frenchReview = await page
      .getByRole('img', { name: 'Review' })
      .locator('svg text')
      .allTextContents();
    expect(frenchReview).to.include('Statut');
    expect(frenchReview).not.to.include('Status');
    // The day axis in French: its title and the month's French abbreviation.
    const frenchDays = await page.getByRole('img', { name: 'Per day' }).locator('svg text').allTextContents();
    expect(frenchDays).to.include('Jour (UTC)');
    expect(frenchDays.join(' ')).to.match(/\b(janv|févr|mars|avr|mai|juin|juil|août|sept|oct|nov|déc)\b/);
    await page.getByRole('button', { name: 'Voir les données' }).first().click();
    expect(await page.getByRole('table', { name: /Water sources/ }).innerText())
      .to.contain('Part du total')
      .and.match(/60\s%/);
    await expectAccessible(page, 'analyses page in French');
  });

  it('clears the photo picker after a send, and names queued items by their first answers', async () => {
    const page = await c.newPage();
    await signInThroughPage(page, owner, `/f/${project.projectId}`);
    await page.getByLabel('Site').fill('Well 12');
    await page.getByRole('radio', { name: 'Piped water' }).check();
    const photo = page.getByLabel('Photo of the source');
    await photo.setInputFiles({ name: 'source.png', mimeType: 'image/png', buffer: PNG });
    await page.getByText('source.png').first().waitFor();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const sent = page.locator('li[data-status="sent"]');
    await sent.waitFor();
    // The form is empty again, the picker too: no file name left from the photo just sent.
    expect(await page.getByLabel('Site').inputValue()).to.equal('');
    expect(await photo.evaluate((el: HTMLInputElement) => [el.value, el.files?.length ?? 0])).to.deep.equal([
      '',
      0,
    ]);
    expect(await page.getByText('source.png').count()).to.equal(0);
    expect(await sent.getByTestId('queue-answer').allInnerTexts()).to.deep.equal([
      'Site: Well 12',
      'Water source: Piped water',
    ]);
    await expectAccessible(page, 'web form queue with first answers');
  });
});
