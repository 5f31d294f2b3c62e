import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { PNG } from '@fieldhouse/testkit';
import { gatewayClient, registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { createCollectionProject, submit, type CollectionProject } from './support/collection-project.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';

const VILLAGES = ['Kolda', 'Ziguinchor', 'Sedhiou', 'Tambacounda', 'Matam'];

describe('console: submissions table, detail drawer and review (browser)', function () {
  this.timeout(180_000);
  let c: ConsoleStack;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  let project: CollectionProject;
  /** Submission ids, oldest first: 25 submitted, of which `rejectedId` is then rejected. */
  let ids: number[];
  let rejectedId: number;
  /** A second project, "Pumps": its submissions by day and collector, one with a photo. */
  let pumps: CollectionProject;
  let collector: Awaited<ReturnType<typeof registerUser>>;
  /** The pumps' submission ids by name (`Pump A` to `Pump E`). */
  const pumpIds: Record<string, number> = {};
  before(async () => {
    c = await startConsoleStack();
    owner = await registerUser(c.baseUrl, 'Ada Manager');
    project = await createCollectionProject(c.baseUrl, owner.token, [
      { name: 'village', label: 'Village', type: 'text', required: true },
      {
        name: 'quality',
        label: 'Water quality',
        type: 'select_one',
        choices: [
          { value: 'good', label: 'Good' },
          { value: 'poor', label: 'Poor' },
        ],
      },
      { name: 'depth', label: 'Depth (m)', type: 'integer' },
    ]);
    ids = [];
    for (let i = 0; i < 25; i++)
      ids.push(
        await submit(c.baseUrl, owner.token, project, {
          village: `${VILLAGES[i % VILLAGES.length]} well ${i + 1}`,
          quality: i % 3 === 0 ? 'poor' : 'good',
          depth: 10 + i,
        }),
      );
    rejectedId = ids[3]!;
    await api()
      .put(`/api/v1/projects/${project.projectId}/submissions/${rejectedId}`)
      .send({ status: 'rejected' })
      .expect(200);

    // Pumps: A, C and E sent by the owner, B and D by a collector; all but E dated in March
    // 2024 (the API dates a submission when it arrives: the rows are backdated in the database,
    // where a trigger keeps the per-day counters right). C and D straddle midnight of 9 March.
    collector = await registerUser(c.baseUrl, 'Kofi Collector');
    await gatewayClient(c.baseUrl, collector.token).get('/api/v1/workspaces').expect(200); // known to the service
    pumps = await createCollectionProject(
      c.baseUrl,
      owner.token,
      [
        { name: 'pump', label: 'Pump', type: 'text', required: true },
        { name: 'picture', label: 'Picture of the pump', type: 'photo' },
      ],
      {},
      { workspace: 'Pump crew', project: 'Pumps' },
    );
    await api()
      .post(`/api/v1/workspaces/${pumps.workspaceId}/members`)
      .send({ user_id: collector.id, role: 'collector' })
      .expect(201);
    const days: Record<string, [typeof owner, string | null]> = {
      'Pump A': [owner, '2024-03-02T10:00:00Z'],
      'Pump B': [collector, '2024-03-05T00:00:00Z'],
      'Pump C': [owner, '2024-03-09T23:59:00Z'],
      'Pump D': [collector, '2024-03-10T00:00:00Z'],
      'Pump E': [owner, null],
    };
    for (const [pump, [who, day]] of Object.entries(days)) {
      const answers = pump === 'Pump A' ? { pump, picture: PNG.toString('base64') } : { pump };
      pumpIds[pump] = await submit(c.baseUrl, who.token, pumps, answers);
      if (day)
        await c.stack.collection.db('submissions').where({ id: pumpIds[pump] }).update({ created_at: day });
    }
  });
  after(async () => c?.stop());

  const api = () => gatewayClient(c.baseUrl, owner.token);
  const statusOf = async (id: number) =>
    (await api().get(`/api/v1/projects/${project.projectId}/submissions/${id}`).expect(200)).body.data
      .status as string;
  const rows = (page: Page) => page.locator('tbody tr[data-submission]');
  const path = () => `/projects/${project.projectId}/submissions`;

  it('shows the submissions with a column per field, filters and searches them, and shares the view as a link', async () => {
    const page = await c.newPage();
    await signInThroughPage(page, owner, path());
    await page.getByText('25 submissions', { exact: true }).waitFor();
    for (const header of ['Village', 'Water quality', 'Depth (m)'])
      await page.getByRole('columnheader', { name: header }).waitFor();
    expect(await rows(page).count()).to.equal(15); // the API's default page size
    // Newest first; choices by their labels.
    const first = rows(page).first();
    expect(await first.getAttribute('data-submission')).to.equal(String(ids[24]));
    expect(await first.innerText())
      .to.contain('Matam well 25')
      .and.contain('Poor');
    await expectAccessible(page, 'submissions table');
    await screenshotBoth(page, 'submissions');

    await page.getByRole('combobox', { name: 'Status' }).selectOption('rejected');
    await page.getByText('1 submission', { exact: true }).waitFor();
    expect(await rows(page).getAttribute('data-submission')).to.equal(String(rejectedId));
    expect(new URL(page.url()).searchParams.get('status')).to.equal('rejected');

    await page.getByRole('button', { name: 'Clear the filters' }).click();
    await page.getByText('25 submissions', { exact: true }).waitFor();
    await page.getByRole('searchbox', { name: 'Search the answers' }).fill('kolda');
    await page.getByText('5 submissions', { exact: true }).waitFor();
    await page.getByRole('combobox', { name: 'Status' }).selectOption('submitted');
    await page.getByText('5 submissions', { exact: true }).waitFor(); // the rejected one is a Tambacounda well
    const shared = new URL(page.url());
    expect(shared.searchParams.get('search')).to.equal('kolda');
    expect(shared.searchParams.get('status')).to.equal('submitted');
    for (const text of await rows(page).allInnerTexts()) expect(text).to.contain('Kolda');

    // The link opens the same view in another browser.
    const other = await c.newPage({ phone: true });
    await signInThroughPage(other, owner, `${shared.pathname}${shared.search}`);
    await other.getByText('5 submissions', { exact: true }).waitFor();
    expect(await other.getByRole('searchbox', { name: 'Search the answers' }).inputValue()).to.equal('kolda');
    expect(await other.getByRole('combobox', { name: 'Status' }).inputValue()).to.equal('submitted');
    expect(await rows(other).count()).to.equal(5);
    // On a phone the table scrolls sideways, but each row's checkbox and link stay in view.
    const link = await other
      .getByRole('button', { name: /^Open submission/ })
      .first()
      .boundingBox();
    expect(link!.x + link!.width).to.be.at.most(390);
    await expectAccessible(other, 'filtered submissions on a phone');

    // Paging keeps the filters.
    await page.getByRole('button', { name: 'Clear the filters' }).click();
    await page.getByText('25 submissions', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Page 2' }).click();
    await page.waitForURL((u) => u.searchParams.get('page') === '2');
    await rows(page).filter({ hasText: 'well 10' }).first().waitFor();
    expect(await rows(page).count()).to.equal(10);
  });

  it('shows a submission in a drawer with its history and reviews it', async () => {
    const target = ids[20]!;
    const page = await c.newPage();
    await signInThroughPage(page, owner, path());
    await page.getByRole('button', { name: `Open submission ${target}` }).click();
    const drawer = page.getByRole('dialog', { name: `Submission #${target}` });
    await drawer.getByText('Kolda well 21').waitFor();
    expect(new URL(page.url()).searchParams.get('submission')).to.equal(String(target));
    await drawer.getByText('Created as Submitted').waitFor();
    await expectAccessible(page, 'submission drawer');
    // Only the documented transitions from "submitted".
    expect(await drawer.getByRole('radio').count()).to.equal(3);
    await drawer.getByRole('radio', { name: 'Reviewed' }).check();
    await drawer.getByRole('textbox', { name: 'Comment (kept in the history)' }).fill('Checked on site');
    await screenshotBoth(page, 'submission-drawer');
    await drawer.getByRole('button', { name: 'Save the review' }).click();
    await drawer.getByText('Submitted → Reviewed').waitFor();
    await drawer.getByText('“Checked on site”').waitFor();
    expect(await statusOf(target)).to.equal('reviewed');
    // From "reviewed" only "requires correction" remains.
    expect(await drawer.getByRole('radio').count()).to.equal(1);

    // The drawer's link opens it again; a rejected submission offers no review.
    await page.goto(`${path()}?submission=${rejectedId}`);
    const rejected = page.getByRole('dialog', { name: `Submission #${rejectedId}` });
    await rejected.getByText('cannot be reviewed').waitFor();
    expect(await rejected.getByRole('radio').count()).to.equal(0);
  });

  it('reviews 20 submissions at once, one refused transition leaving the others changed', async () => {
    const page = await c.newPage();
    await signInThroughPage(page, owner, `${path()}?per_page=25`);
    await page.getByText('25 submissions', { exact: true }).waitFor();

    // "Select all matching" reaches past the page.
    await page.goto(`${path()}?status=submitted`);
    await page.getByText('23 submissions', { exact: true }).waitFor();
    await page.getByRole('checkbox', { name: 'Select every submission of this page' }).check();
    await page.getByText('15 submissions selected').waitFor();
    await page.getByRole('button', { name: 'Select all 23 submissions matching the filters' }).click();
    await page.getByText('23 submissions selected').waitFor();
    await page.getByRole('button', { name: 'Clear the selection' }).click();

    // Twenty: nineteen submitted ones and the rejected one, whose transition is illegal.
    const chosen = [rejectedId, ...ids.filter((id) => id !== rejectedId && id !== ids[20]).slice(0, 19)];
    await page.goto(`${path()}?per_page=25`);
    await page.getByText('25 submissions', { exact: true }).waitFor();
    for (const id of chosen)
      await page.getByRole('checkbox', { name: `Select submission ${id}`, exact: true }).check();
    await page.getByText('20 submissions selected').waitFor();
    await page.getByRole('button', { name: 'Review 20 submissions' }).click();
    const dialog = page.getByRole('dialog', { name: 'Review 20 submissions' });
    await dialog.getByRole('combobox', { name: 'Set the status to' }).selectOption('reviewed');
    await dialog.getByRole('textbox', { name: 'Comment (kept in the history)' }).fill('Batch of 3 June');
    await expectAccessible(page, 'bulk review dialog');
    await dialog.getByRole('button', { name: 'Apply to 20 submissions' }).click();
    // Twenty reviews, each its own request and transaction: a limit for a loaded machine.
    await dialog.getByText('19 submissions changed. 1 refused:').waitFor({ timeout: 60_000 });
    const refused = dialog.getByTestId('bulk-refused');
    expect(await refused.innerText())
      .to.contain(`#${rejectedId}`)
      .and.match(/rejected/i);
    await screenshotBoth(page, 'submissions-bulk-review');

    const statuses = await Promise.all(chosen.map(statusOf));
    expect(statuses.filter((s) => s === 'reviewed')).to.have.length(19);
    expect(await statusOf(rejectedId)).to.equal('rejected');
    const detail = (
      await api().get(`/api/v1/projects/${project.projectId}/submissions/${chosen[1]}`).expect(200)
    ).body.data as { history: Array<{ to_status: string; comment: string | null }> };
    expect(detail.history.at(-1)).to.include({ to_status: 'reviewed', comment: 'Batch of 3 June' });
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    // The list shows the new statuses.
    await page.getByRole('combobox', { name: 'Status' }).selectOption('reviewed');
    await page.getByText('20 submissions', { exact: true }).waitFor(); // 19 + the one reviewed alone
  });

  it('filters by creation days and by collector, and keeps both in the link', async () => {
    const page = await c.newPage();
    await signInThroughPage(page, owner, `/projects/${pumps.projectId}/submissions`);
    await page.getByText('5 submissions', { exact: true }).waitFor();
    const shown = async (p: Page = page) =>
      (await rows(p).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-submission')))).map(Number);

    // Inclusive UTC days: from 5 March 00:00 to the end of 9 March.
    await page.getByLabel('Created from (UTC day)').fill('2024-03-05');
    await page.waitForURL((u) => u.searchParams.get('date_from') === '2024-03-05');
    await page.getByText('4 submissions', { exact: true }).waitFor(); // B, C, D and E (today)
    await page.getByLabel('Created until (UTC day)').fill('2024-03-09');
    await page.getByText('2 submissions', { exact: true }).waitFor();
    expect(await shown()).to.deep.equal([pumpIds['Pump C'], pumpIds['Pump B']]);
    let url = new URL(page.url());
    expect(url.searchParams.get('date_from')).to.equal('2024-03-05');
    expect(url.searchParams.get('date_to')).to.equal('2024-03-09');

    // The collectors are named, with their counts; one narrows the range further.
    const collectorBox = page.getByRole('combobox', { name: 'Collector' });
    expect(await collectorBox.locator('option').allInnerTexts()).to.have.members([
      'Any collector',
      'Ada Manager (3)',
      'Kofi Collector (2)',
    ]);
    await collectorBox.selectOption({ label: 'Kofi Collector (2)' });
    await page.getByText('1 submission', { exact: true }).waitFor();
    expect(await shown()).to.deep.equal([pumpIds['Pump B']]);
    url = new URL(page.url());
    expect(url.searchParams.get('collector_id')).to.equal(String(collector.id));
    expect(url.searchParams.get('date_from')).to.equal('2024-03-05');
    expect(url.searchParams.get('date_to')).to.equal('2024-03-09');
    expect(await rows(page).innerText()).to.contain('Kofi Collector');

    // The link opens the same view in another browser, the fields filled in.
    const other = await c.newPage();
    await signInThroughPage(other, owner, `${url.pathname}${url.search}`);
    await other.getByText('1 submission', { exact: true }).waitFor();
    expect(await shown(other)).to.deep.equal([pumpIds['Pump B']]);
    expect(await other.getByLabel('Created from (UTC day)').inputValue()).to.equal('2024-03-05');
    expect(await other.getByLabel('Created until (UTC day)').inputValue()).to.equal('2024-03-09');
    expect(await other.getByRole('combobox', { name: 'Collector' }).inputValue()).to.equal(
      String(collector.id),
    );
    await expectAccessible(other, 'submissions filtered by days and collector');

    // Without the days, the collector's two submissions; without any filter, all five again.
    // Both days cleared in one task, before the page renders again: neither edit may undo the other.
    await page.evaluate(() => {
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      for (const label of ['Created from (UTC day)', 'Created until (UTC day)']) {
        const input =
          document.querySelector<HTMLInputElement>(`input[aria-label="${label}"]`) ??
          [...document.querySelectorAll('label')].find((l) => l.textContent?.trim() === label)?.control;
        if (!(input instanceof HTMLInputElement)) throw new Error(`no input labelled ${label}`);
        setValue.call(input, '');
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }
    });
    await page.waitForURL((u) => !u.searchParams.has('date_from') && !u.searchParams.has('date_to'));
    await page.getByText('2 submissions', { exact: true }).waitFor();
    expect(await shown()).to.deep.equal([pumpIds['Pump D'], pumpIds['Pump B']]);
    url = new URL(page.url());
    expect(url.searchParams.get('collector_id')).to.equal(String(collector.id));
    await page.getByRole('button', { name: 'Clear the filters' }).click();
    await page.getByText('5 submissions', { exact: true }).waitFor();
    expect(new URL(page.url()).search).to.equal('');
  });

  it('shows a photo answer as the image itself in the drawer', async () => {
    const id = pumpIds['Pump A']!;
    const page = await c.newPage();
    await signInThroughPage(page, owner, `/projects/${pumps.projectId}/submissions`);
    await page.getByRole('button', { name: `Open submission ${id}` }).click();
    const drawer = page.getByRole('dialog', { name: `Submission #${id}` });
    await drawer.getByText('Pump A', { exact: true }).waitFor();
    const image = drawer.getByRole('img', { name: 'Photo: Picture of the pump' });
    await image.waitFor();
    // Loaded and decoded: the browser fetched the bytes with the session and read a PNG.
    await page.waitForFunction((img) => (img as HTMLImageElement).complete, await image.elementHandle());
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).to.be.greaterThan(0);
    const src = (await image.getAttribute('src'))!;
    const photo = await page.request.get(src);
    expect(photo.status()).to.equal(200);
    expect(photo.headers()['content-type']).to.equal('image/png');
    expect(Buffer.compare(await photo.body(), PNG)).to.equal(0);
    // Other submissions of the project have no photo: the drawer says so.
    await page.goto(`/projects/${pumps.projectId}/submissions?submission=${pumpIds['Pump B']}`);
    const without = page.getByRole('dialog', { name: `Submission #${pumpIds['Pump B']}` });
    await without.getByText('Pump B', { exact: true }).waitFor();
    await without.getByText('No answer').waitFor();
    expect(await without.getByRole('img', { name: /^Photo: / }).count()).to.equal(0);
  });
});
