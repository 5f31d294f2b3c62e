import { expect } from 'chai';
import type { Page } from 'playwright-core';
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
    await dialog.getByText('19 submissions changed. 1 refused:').waitFor();
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
});
