import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { bearerApi } from './support/api.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';

/** Presses Tab until `name` has the focus (at most 15 times); fails if it never does. */
async function tabTo(page: Page, name: string) {
  const seen: string[] = [];
  for (let i = 0; i < 15; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(
      () =>
        document.activeElement?.textContent?.trim() ||
        document.activeElement?.getAttribute('aria-label') ||
        '',
    );
    if (focused === name) return;
    seen.push(focused);
  }
  throw new Error(`Tab never reached “${name}”: ${seen.join(' → ')}`);
}

/** The empty state (title, then its action) of a list. */
const emptyState = (page: Page, title: string) =>
  page.locator('[data-empty-state]').filter({ hasText: title });

describe('console: first steps — home, start page, empty states, confirmations (browser)', function () {
  this.timeout(240_000);
  let c: ConsoleStack;
  before(async () => {
    c = await startConsoleStack();
  });
  after(async () => c?.stop());

  it('shows a signed-out visitor what Fieldhouse does at /, with the ways in, by keyboard too', async () => {
    const page = await c.newPage();
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: /Collect data in the field/ }).waitFor();
    expect(new URL(page.url()).pathname, 'no redirect to sign-in').to.equal('/');
    for (const job of ['Field data collection', 'Live polls', 'Event invitations and check-in'])
      await page.getByRole('heading', { level: 2, name: job }).waitFor();
    await page.getByText(/collectors answer on a phone, even offline/).waitFor();
    await page.getByText(/door with a phone as scanner/).waitFor();
    await expectAccessible(page, 'home page');
    await screenshotBoth(page, 'home');

    // Keyboard: Tab reaches "Create an account", Enter follows it.
    await tabTo(page, 'Create an account');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/register');
    await page.goto('/');
    await page.getByRole('link', { name: 'Sign in' }).waitFor();
    await tabTo(page, 'Sign in');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/sign-in');

    const fr = await c.newPage({ locale: 'fr-FR' });
    await fr.goto('/');
    await fr.getByRole('heading', { level: 2, name: 'Sondages en direct' }).waitFor();
    await fr.getByRole('link', { name: 'Créer un compte' }).waitFor();
    await expectAccessible(fr, 'home page in French');
  });

  it('after registering, lands on the start page whose three actions work; a form is built from there, its field names from the labels, and publishing asks first', async () => {
    const page = await c.newPage();
    await page.goto('/');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('button', { name: 'Create the account' }).waitFor();
    const email = `newcomer${Date.now()}@example.test`;
    await page.getByRole('textbox', { name: 'Name' }).fill('Nadia Newcomer');
    await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('correct horse battery');
    await page.getByRole('textbox', { name: 'Confirm the password' }).fill('correct horse battery');
    await page.getByRole('button', { name: 'Create the account' }).click();
    await page.waitForURL((u) => u.pathname === '/start');
    await page.getByRole('heading', { level: 1, name: 'Welcome, Nadia Newcomer' }).waitFor();
    for (const none of ['No workspace yet.', 'No poll yet.', 'No event yet.'])
      await page.getByText(none).waitFor();
    await expectAccessible(page, 'start page');
    await screenshotBoth(page, 'start');
    // Signed in, `/` is the start page too.
    await page.goto('/');
    await page.waitForURL((u) => u.pathname === '/start');

    // A poll: the editor.
    await page.getByRole('link', { name: 'Create a poll' }).click();
    await page.waitForURL((u) => u.pathname === '/polls/new');
    await page.getByRole('heading', { name: 'New poll' }).waitFor();

    // An event: the events page with its creation dialog open; closed, the empty list's action.
    await page.goto('/start');
    await page.getByRole('link', { name: 'Create an event' }).click();
    await page.waitForURL((u) => u.pathname === '/events');
    await page.getByRole('dialog', { name: 'New event' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'New event' }).waitFor({ state: 'detached' });
    const noEvents = emptyState(page, 'No upcoming events.');
    await noEvents.getByRole('button', { name: 'Create an event' }).click();
    await page.getByRole('dialog', { name: 'New event' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'New event' }).waitFor({ state: 'detached' });
    await expectAccessible(page, 'events page, empty');

    // A form: a workspace first, then its project, then the form builder.
    await page.goto('/start');
    await page.getByRole('button', { name: 'Create a form' }).click();
    const wsDialog = page.getByRole('dialog', { name: 'First, a workspace for your forms' });
    await wsDialog.getByRole('textbox', { name: 'Name' }).fill('Nutrition');
    await wsDialog.getByRole('button', { name: 'Create the workspace' }).click();
    await page.waitForURL((u) => /^\/workspaces\/\d+$/.test(u.pathname));
    const projectDialog = page.getByRole('dialog', { name: 'New project' });
    await projectDialog.getByRole('textbox', { name: 'Name' }).fill('Child growth');
    await projectDialog.getByRole('button', { name: 'Create the project' }).click();
    await page.waitForURL((u) => /^\/projects\/\d+\/form$/.test(u.pathname));
    const projectId = Number(/\/projects\/(\d+)\//.exec(page.url())![1]);

    // No version yet: the builder offers to start the first one at once.
    const noForm = emptyState(page, 'This project has no form yet.');
    await noForm.waitFor();
    expect(await page.getByRole('button', { name: 'New empty version' }).count()).to.equal(0);
    await expectAccessible(page, 'form builder without a version');
    await noForm.getByRole('button', { name: 'Start the first version' }).click();
    await page.getByRole('heading', { name: 'Fields of version 1' }).waitFor();
    await emptyState(page, 'No fields yet.').getByRole('button', { name: 'Add the first field' }).click();

    // The name follows the label, accents folded.
    const dialog = page.getByRole('dialog', { name: 'New field' });
    const label = dialog.getByRole('textbox', { name: 'Question (label)' });
    const name = dialog.getByRole('textbox', { name: 'Name' });
    await label.fill('Âge du répondant');
    expect(await name.inputValue()).to.equal('age_du_repondant');
    await expectAccessible(page, 'field dialog with a derived name');
    await dialog.getByRole('combobox', { name: 'Type' }).selectOption('integer');
    await dialog.getByRole('button', { name: 'Add the field' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.locator('[data-field-name="age_du_repondant"]').waitFor();

    // Unique within the version; a name typed by the user stays when the label changes.
    await page.getByRole('button', { name: 'Add a field' }).click();
    await label.fill('Âge du répondant');
    expect(await name.inputValue()).to.equal('age_du_repondant_2');
    await label.fill('Village');
    expect(await name.inputValue()).to.equal('village');
    await name.fill('home_place');
    await label.fill('Village or town');
    expect(await name.inputValue(), 'the name typed is kept').to.equal('home_place');
    await dialog.getByRole('button', { name: 'Add the field' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.locator('[data-field-name="home_place"]').waitFor();
    // Editing an existing field never renames it.
    await page.getByRole('button', { name: 'Edit Village or town' }).click();
    const editDialog = page.getByRole('dialog', { name: /Edit/ });
    await editDialog.getByRole('textbox', { name: 'Question (label)' }).fill('Town');
    expect(await editDialog.getByRole('textbox', { name: 'Name' }).inputValue()).to.equal('home_place');
    await editDialog.getByRole('button', { name: 'Cancel' }).click();

    // Publishing asks first and says what it does; cancel keeps the draft.
    const versions = async () => {
      const res = await page.evaluate(
        async (id) =>
          (await (await fetch(`/api/v1/projects/${id}/versions`)).json()) as {
            data: Array<{ status: string }>;
          },
        projectId,
      );
      return res.data.map((v) => v.status);
    };
    await page.getByRole('button', { name: 'Publish this version' }).click();
    const confirm = page.getByRole('dialog', { name: 'Publish version 1?' });
    await confirm.getByText(/cannot be undone/).waitFor();
    await confirm.getByText(/the form collectors get/).waitFor();
    await expectAccessible(page, 'publish confirmation');
    await screenshotBoth(page, 'publish-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await versions()).to.deep.equal(['draft']);
    await page.getByText('Draft', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Publish this version' }).click();
    await confirm.getByRole('button', { name: 'Publish version 1' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByText('Published, read-only').waitFor();
    expect(await versions()).to.deep.equal(['published']);

    // The start page now counts what the user has.
    await page.goto('/start');
    await page.getByRole('link', { name: 'Your workspace' }).waitFor();
    await page.getByRole('link', { name: 'Create a form' }).waitFor();
  });

  it('says what to do next on every empty list, with the action; a delete asks first', async () => {
    const owner = await registerUser(c.baseUrl, 'Empty Lists');
    const api = bearerApi(c.baseUrl, owner.token);
    const page = await c.newPage();
    await signInThroughPage(page, owner, '/polls');

    const noPolls = emptyState(page, 'You have no polls yet.');
    await noPolls.getByText(/share its voting page/).waitFor();
    await noPolls.getByRole('link', { name: 'Create your first poll' }).waitFor();
    await expectAccessible(page, 'my polls, empty');
    await screenshotBoth(page, 'empty-polls');

    await page.goto('/workspaces');
    await emptyState(page, 'You are not a member of any workspace yet.')
      .getByRole('button', { name: 'Create your first workspace' })
      .click();
    await page.getByRole('dialog', { name: 'New workspace' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'New workspace' }).waitFor({ state: 'detached' });
    await expectAccessible(page, 'workspaces, empty');

    const ws = (await api('POST', '/api/v1/workspaces', { name: 'Water' })) as { data: { id: number } };
    await page.goto(`/workspaces/${ws.data.id}`);
    await emptyState(page, 'No projects yet.')
      .getByRole('button', { name: 'Create the first project' })
      .click();
    await page.getByRole('dialog', { name: 'New project' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'New project' }).waitFor({ state: 'detached' });
    await expectAccessible(page, 'a workspace without projects');

    const project = (await api('POST', `/api/v1/workspaces/${ws.data.id}/projects`, { name: 'Wells' })) as {
      data: { id: number };
    };
    await page.goto(`/projects/${project.data.id}/analyses`);
    await emptyState(page, 'No analyses yet.').getByRole('button', { name: 'Start a new analysis' }).click();
    expect(await page.evaluate(() => document.activeElement?.tagName)).to.equal('INPUT');
    await expectAccessible(page, 'analyses, empty');

    const event = (await api('POST', '/api/events', {
      name: 'Book fair',
      start_date: '2031-09-12T09:00',
      location: 'Brive',
    })) as { id: string };
    await page.goto(`/events/${event.id}/invites`);
    const noInvitees = emptyState(page, 'No invitees yet.');
    await noInvitees.getByRole('button', { name: 'Import a CSV' }).waitFor();
    await noInvitees.getByRole('button', { name: 'Add an invitee' }).click();
    await page.getByRole('dialog', { name: 'Add an invitee' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Add an invitee' }).waitFor({ state: 'detached' });
    await expectAccessible(page, 'invitees, empty');
    await page.getByRole('textbox', { name: 'Search by name, e-mail or code' }).fill('nobody');
    await page.getByRole('textbox', { name: 'Search by name, e-mail or code' }).press('Enter');
    await emptyState(page, 'No invitees match.')
      .getByRole('button', { name: 'Clear the search and filters' })
      .click();
    await noInvitees.waitFor();
    expect(await page.getByRole('textbox', { name: 'Search by name, e-mail or code' }).inputValue()).to.equal(
      '',
    );

    // A delete asks first: cancel keeps the poll, confirm deletes it.
    await api('POST', '/api/polls', {
      title: 'Doomed poll',
      sections: [{ title: 'Q', options: [{ label: 'A' }, { label: 'B' }] }],
    });
    await page.goto('/polls');
    const more = page.getByRole('button', { name: 'More actions for Doomed poll' });
    await more.click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const ask = page.getByRole('dialog', { name: 'Delete this poll?' });
    await ask.getByText(/This cannot be undone/).waitFor();
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    await more.waitFor();
    await more.click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await ask.getByRole('button', { name: 'Delete the poll' }).click();
    await noPolls.waitFor();
  });
});
