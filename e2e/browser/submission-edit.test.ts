import { expect } from 'chai';
import { gatewayClient, registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { createCollectionProject, submit, type CollectionProject } from './support/collection-project.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';

/**
 * Issue 32, item 4: a reviewer edits a submission in its drawer with the web form's checks, the
 * edit shows in the history with the person's name (names, not user ids, in the review history
 * too), and the submission is deleted after a confirmation.
 */
describe('console: editing and deleting a submission in its drawer (browser)', function () {
  this.timeout(180_000);
  let c: ConsoleStack;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  let collector: Awaited<ReturnType<typeof registerUser>>;
  let project: CollectionProject;
  let edited: number;
  let other: number;
  before(async () => {
    c = await startConsoleStack();
    owner = await registerUser(c.baseUrl, 'Ada Manager');
    collector = await registerUser(c.baseUrl, 'Kofi Collector');
    await gatewayClient(c.baseUrl, collector.token).get('/api/v1/workspaces').expect(200); // known to the service
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
      { name: 'depth', label: 'Depth (m)', type: 'integer', constraints: { min: 0, max: 200 } },
    ]);
    await api()
      .post(`/api/v1/workspaces/${project.workspaceId}/members`)
      .send({ user_id: collector.id, role: 'collector' })
      .expect(201);
    other = await submit(c.baseUrl, collector.token, project, {
      village: 'Matam',
      quality: 'good',
      depth: 8,
    });
    edited = await submit(c.baseUrl, collector.token, project, {
      village: 'Kolda',
      quality: 'poor',
      depth: 12,
    });
    await api()
      .put(`/api/v1/projects/${project.projectId}/submissions/${edited}`)
      .send({ status: 'reviewed', comment: 'Seen on site' })
      .expect(200);
  });
  after(async () => c?.stop());

  const api = () => gatewayClient(c.baseUrl, owner.token);
  const url = (id: number) => `/api/v1/projects/${project.projectId}/submissions/${id}`;

  it('edits the answers with the form’s checks, shows the edit in the history with names, and deletes after a confirmation', async () => {
    const page = await c.newPage();
    await signInThroughPage(page, owner, `/projects/${project.projectId}/submissions?submission=${edited}`);
    const drawer = page.getByRole('dialog', { name: `Submission #${edited}` });
    await drawer.getByText('Kolda', { exact: true }).waitFor();
    // Names, not user ids: the collector, and the reviewer in the review history.
    await drawer.getByText(/^By Kofi Collector,/).waitFor();
    await drawer.getByText(/^Ada Manager, /).waitFor();
    expect(await drawer.getByText(/User #/).count()).to.equal(0);

    await drawer.getByRole('button', { name: 'Edit' }).click();
    const form = drawer.getByRole('form', { name: `Edit submission #${edited}` });
    const depth = form.getByRole('spinbutton', { name: 'Depth (m)' });
    await depth.waitFor();
    expect(await depth.inputValue()).to.equal('12');
    expect(await form.getByRole('radio', { name: 'Poor' }).isChecked()).to.equal(true);
    await expectAccessible(page, 'submission edit form');

    // A value outside the field's range is refused next to its field, and nothing is sent.
    await depth.fill('500');
    await form.getByRole('button', { name: 'Save the changes' }).click();
    const depthField = form.locator(`[data-edit-field="${project.fields.depth!.uuid}"]`);
    await depthField.getByText('At most 200', { exact: true }).last().waitFor();
    expect(await depth.getAttribute('aria-invalid')).to.equal('true');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).to.equal('number');
    await form.getByRole('alert').waitFor();
    await expectAccessible(page, 'submission edit form with an error');
    await screenshotBoth(page, 'submission-edit');
    const unchanged = (await api().get(url(edited)).expect(200)).body.data;
    expect(
      unchanged.data.find((e: { field_uuid: string }) => e.field_uuid === project.fields.depth!.uuid).value,
    ).to.equal(12);

    // A good edit: saved, kept as version 1 by Ada Manager, shown with before → after.
    await depth.fill('42');
    await form.getByRole('radio', { name: 'Good' }).check();
    await form.getByRole('button', { name: 'Save the changes' }).click();
    await drawer.getByText('Edited (version 1)').waitFor();
    await drawer.getByText('Depth (m): 12 → 42').waitFor();
    await drawer.getByText('Water quality: Poor → Good').waitFor();
    expect(await drawer.getByText('Village:').count()).to.equal(0); // untouched answers are no change
    expect(await form.count()).to.equal(0);
    const versions = (
      await api()
        .get(`${url(edited)}/versions`)
        .expect(200)
    ).body;
    expect(versions.pagination.total).to.equal(1);
    expect(versions.data[0]).to.deep.include({ number: 1, user_id: owner.id, user_name: 'Ada Manager' });
    // Oldest first: created, reviewed, then the edit, each with its person.
    const history = await drawer.locator('.mantine-Timeline-item').allInnerTexts();
    expect(history).to.have.length(3);
    expect(history[0]).to.contain('Created as Submitted').and.contain('Kofi Collector');
    expect(history[1]).to.contain('Submitted → Reviewed').and.contain('Ada Manager');
    expect(history[2]).to.contain('Edited (version 1)').and.contain('Ada Manager');
    await expectAccessible(page, 'submission drawer with its edit history');
    await screenshotBoth(page, 'submission-history');

    // Delete, after a confirmation: "Keep it" keeps it; "Delete for good" deletes it.
    await drawer.getByRole('button', { name: 'Delete' }).click();
    let confirm = page.getByRole('dialog', { name: `Delete submission #${edited}?` });
    await confirm.getByText('cannot be undone').waitFor();
    await expectAccessible(page, 'delete confirmation');
    await screenshotBoth(page, 'submission-delete');
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await api().get(url(edited)).expect(200);
    await drawer.getByRole('button', { name: 'Delete' }).click();
    confirm = page.getByRole('dialog', { name: `Delete submission #${edited}?` });
    await confirm.getByRole('button', { name: 'Delete for good' }).click();
    await page.getByRole('status').getByText(`Submission #${edited} was deleted.`).waitFor();
    await drawer.waitFor({ state: 'hidden' });
    await page.getByText('1 submission', { exact: true }).waitFor();
    expect(await page.locator('tbody tr[data-submission]').getAttribute('data-submission')).to.equal(
      String(other),
    );
    expect(new URL(page.url()).searchParams.get('submission')).to.equal(null);
    await api().get(url(edited)).expect(404);
    await expectAccessible(page, 'submissions after a delete');
  });

  it('offers a collector neither editing a sent submission (no allow_edits) nor deleting', async () => {
    const page = await c.newPage();
    await signInThroughPage(
      page,
      collector,
      `/projects/${project.projectId}/submissions?submission=${other}`,
    );
    const drawer = page.getByRole('dialog', { name: `Submission #${other}` });
    await drawer.getByText('Matam', { exact: true }).waitFor();
    await drawer.getByText(/^By Kofi Collector,/).waitFor();
    expect(await drawer.getByRole('button', { name: 'Edit' }).count()).to.equal(0);
    expect(await drawer.getByRole('button', { name: 'Delete' }).count()).to.equal(0);
  });
});
