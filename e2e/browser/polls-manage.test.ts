import { expect } from 'chai';
import request from 'supertest';
import { registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';

interface ApiPoll {
  id: string;
  title: string;
  status: string;
  settings: Record<string, unknown>;
  sections: Array<{ id: string; title: string; options: Array<{ id: string; label: string }> }>;
}

describe('console: my polls, the poll editor, sharing (browser)', function () {
  this.timeout(120_000);
  let c: ConsoleStack;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  before(async () => {
    c = await startConsoleStack();
    owner = await registerUser(c.baseUrl, 'Poll Owner');
  });
  after(async () => c?.stop());

  const api = (path: string) => request(c.baseUrl).get(path).auth(owner.token, { type: 'bearer' });
  const myPolls = async () => (await api('/api/polls?per_page=100').expect(200)).body.data as ApiPoll[];

  it('creates a poll with two sections and its settings through the form', async () => {
    const page = await c.newPage();
    await signInThroughPage(page, owner, '/polls');
    await page.getByText('You have no polls yet.').waitFor();
    await expectAccessible(page, 'empty polls list');
    await page.getByRole('link', { name: 'Create a poll' }).first().click();
    await page.waitForURL((u) => u.pathname === '/polls/new');
    await expectAccessible(page, 'poll editor');

    // The client refuses an empty form before anything is sent.
    await page.getByRole('button', { name: 'Create the poll' }).click();
    expect(await page.getByText('Required').count()).to.be.greaterThan(0);

    await page.getByRole('textbox', { name: 'Question or title' }).fill('Team offsite');
    await page.getByRole('textbox', { name: 'Description' }).fill('Where and when');
    await page.getByRole('textbox', { name: 'Title of section 1' }).fill('Place');
    await page.getByRole('textbox', { name: 'Option 1 of section 1' }).fill('Lyon');
    await page.getByRole('textbox', { name: 'Option 2 of section 1' }).fill('Nantes');
    // A section can never have fewer than 2 options: its remove buttons are disabled.
    expect(await page.getByRole('button', { name: 'Remove Option 1 of section 1' }).isDisabled()).to.equal(
      true,
    );
    await page.getByRole('button', { name: 'Add an option to section 1' }).click();
    await page.getByRole('textbox', { name: 'Option 3 of section 1' }).fill('Lille');
    await page.getByRole('button', { name: 'Move Option 3 of section 1 up' }).click();
    expect(await page.getByRole('textbox', { name: 'Option 2 of section 1' }).inputValue()).to.equal('Lille');
    await page.getByRole('button', { name: 'Add a section' }).click();
    await page.getByRole('textbox', { name: 'Title of section 2' }).fill('Month');
    await page.getByRole('textbox', { name: 'Option 1 of section 2' }).fill('May');
    await page.getByRole('textbox', { name: 'Option 2 of section 2' }).fill('June');

    await page.getByRole('textbox', { name: 'Votes per voter' }).fill('3');
    await page.getByText('Signed-in users only', { exact: true }).click();
    await page.getByRole('switch', { name: 'Confirm votes with a one-time password' }).check();
    await page.getByRole('switch', { name: 'Allow reactions' }).uncheck();
    // Closing before opening is refused in the browser.
    await page.getByLabel('Voting opens').fill('2030-06-01T10:00');
    await page.getByLabel('Voting closes').fill('2030-05-01T10:00');
    await page.getByRole('button', { name: 'Create the poll' }).click();
    await page.getByText('Voting must close after it opens').waitFor();
    await page.getByLabel('Voting closes').fill('2030-06-30T18:00');
    await page.getByLabel('Voting closes').blur(); // no half-selected date in the screenshot
    await screenshotBoth(page, 'poll-editor');
    await page.getByRole('button', { name: 'Create the poll' }).click();
    await page.waitForURL((u) => u.pathname === '/polls');
    await page.getByRole('heading', { name: 'Team offsite' }).waitFor();

    const [poll] = await myPolls();
    expect(poll!.title).to.equal('Team offsite');
    expect(poll!.sections.map((s) => [s.title, s.options.map((o) => o.label)])).to.deep.equal([
      ['Place', ['Lyon', 'Lille', 'Nantes']],
      ['Month', ['May', 'June']],
    ]);
    expect(poll!.settings).to.include({
      max_votes_per_voter: 3,
      access: 'authenticated',
      require_verification: true,
      allow_reactions: false,
      allow_comments: true,
      show_stats_public: true,
    });
    // The browser's time zone is the machine's; the instants round-trip through it.
    const opens = new Date(poll!.settings.starts_at as string);
    expect(opens.getFullYear()).to.equal(2030);
    expect(new Date(poll!.settings.ends_at as string) > opens).to.equal(true);
  });

  it('edits a poll (rename, add an option, a setting) and shows a refusal of the service next to Save, keeping the form', async () => {
    const created = await request(c.baseUrl)
      .post('/api/polls')
      .auth(owner.token, { type: 'bearer' })
      .send({
        title: 'Lunch',
        sections: [{ title: 'Dish', options: [{ label: 'Soup' }, { label: 'Salad' }] }],
      })
      .expect(201);
    const poll = created.body.data as ApiPoll;
    const page = await c.newPage();
    await signInThroughPage(page, owner, `/polls/${poll.id}/edit`);
    const first = page.getByRole('textbox', { name: 'Option 1 of section 1' });
    await first.waitFor();
    expect(await first.inputValue()).to.equal('Soup');
    await first.fill('Tomato soup');
    await page.getByRole('button', { name: 'Add an option to section 1' }).click();
    await page.getByRole('textbox', { name: 'Option 3 of section 1' }).fill('Pasta');
    await page.getByRole('switch', { name: 'Allow comments' }).uncheck();
    await page.getByRole('button', { name: 'Save the changes' }).click();
    await page.waitForURL((u) => u.pathname === '/polls');
    const edited = (await api(`/api/polls/${poll.id}`).expect(200)).body.data as ApiPoll;
    expect(edited.sections[0]!.options.map((o) => o.label)).to.deep.equal(['Tomato soup', 'Salad', 'Pasta']);
    expect(edited.sections[0]!.options[0]!.id, 'the option kept its id').to.equal(
      poll.sections[0]!.options[0]!.id,
    );
    expect(edited.settings.allow_comments).to.equal(false);

    // A counted vote on "Salad": removing it is refused by the service (422), shown next to Save.
    await request(c.baseUrl)
      .post(`/api/polls/${poll.id}/vote`)
      .send({
        votes: { [poll.sections[0]!.id]: poll.sections[0]!.options[1]!.id },
        voter_fingerprint: 'fp-salad',
      })
      .expect(201);
    await page.goto(`/polls/${poll.id}/edit`);
    await page.getByRole('textbox', { name: 'Option 2 of section 1' }).waitFor();
    await page.getByRole('textbox', { name: 'Question or title' }).fill('Lunch (edited)');
    await page.getByRole('button', { name: 'Remove Option 2 of section 1' }).click();
    await page.getByRole('button', { name: 'Save the changes' }).click();
    const problem = page.getByTestId('problem');
    await problem.waitFor();
    expect(await problem.innerText()).to.match(/Some values need correcting/);
    // The service's sentence about the option, in the user's words under its section.
    await page.getByText('An option that has votes cannot be removed').waitFor();
    expect(await page.getByRole('textbox', { name: 'Question or title' }).inputValue()).to.equal(
      'Lunch (edited)',
    );
    expect(page.url()).to.contain('/edit');
    await expectAccessible(page, 'poll editor with a 422');
  });

  it('closes and reopens a poll, shares its link and QR code, and deletes it after a confirmation', async () => {
    const created = await request(c.baseUrl)
      .post('/api/polls')
      .auth(owner.token, { type: 'bearer' })
      .send({
        title: 'Share me',
        sections: [{ title: 'Yes or no', options: [{ label: 'Yes' }, { label: 'No' }] }],
      })
      .expect(201);
    const poll = created.body.data as ApiPoll;
    const page = await c.newPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signInThroughPage(page, owner, '/polls');
    const card = page.getByRole('article', { name: 'Share me' });
    await card.waitFor();
    await expectAccessible(page, 'polls list');
    await screenshotBoth(page, 'polls-list');

    await card.getByRole('button', { name: 'More actions for Share me' }).click();
    await page.getByRole('menuitem', { name: 'Close the poll' }).click();
    await card.getByText('Closed', { exact: true }).waitFor();
    expect(((await api(`/api/polls/${poll.id}`).expect(200)).body.data as ApiPoll).status).to.equal('closed');
    await card.getByRole('button', { name: 'More actions for Share me' }).click();
    await page.getByRole('menuitem', { name: 'Reopen the poll' }).click();
    await card.getByText('Open', { exact: true }).waitFor();

    await card.getByRole('button', { name: 'Share Share me: link and QR code' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share "Share me"' });
    await dialog.waitFor();
    const link = `${c.baseUrl}/p/${poll.id}`;
    expect(await dialog.getByTestId('poll-link').innerText()).to.equal(link);
    expect(await dialog.getByTestId('poll-qr').getAttribute('data-link')).to.equal(link);
    await dialog.getByRole('button', { name: 'Copy the link' }).click();
    await dialog.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).to.equal(link);
    await expectAccessible(page, 'share dialog');
    await screenshotBoth(page, 'poll-qr');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await card.getByRole('button', { name: 'More actions for Share me' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this poll?' });
    await confirm.getByText(/all its votes, comments and reactions/).waitFor();
    await confirm.getByRole('button', { name: 'Delete the poll' }).click();
    await card.waitFor({ state: 'detached' });
    await api(`/api/polls/${poll.id}`).expect(404);
  });

  it('builds a poll with the keyboard only', async () => {
    const page = await c.newPage();
    await signInThroughPage(page, owner, '/polls/new');
    const title = page.getByRole('textbox', { name: 'Question or title' });
    await title.waitFor();
    await title.click(); // the page's first field (a pointer only to start; the rest is keys)
    await page.keyboard.type('Keyboard poll');
    await page.keyboard.press('Tab'); // description
    await page.keyboard.press('Tab'); // section 1 title
    await page.keyboard.type('Pick one');
    await page.keyboard.press('Tab'); // move up (disabled: skipped), move down (disabled), remove (disabled)
    const focusedName = () =>
      page.evaluate(
        () =>
          document.activeElement?.getAttribute('aria-label') ??
          (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent ??
          '',
      );
    for (let i = 0; i < 6 && !(await focusedName()).startsWith('Option 1 of section 1'); i++)
      await page.keyboard.press('Tab');
    await page.keyboard.type('Alpha');
    for (let i = 0; i < 6 && !(await focusedName()).startsWith('Option 2 of section 1'); i++)
      await page.keyboard.press('Tab');
    await page.keyboard.type('Beta');
    for (
      let i = 0;
      i < 8 &&
      !(await page.evaluate(() => document.activeElement?.textContent ?? '')).includes('Add an option');
      i++
    )
      await page.keyboard.press('Tab');
    await page.keyboard.press('Enter'); // adds option 3, focus stays on the button
    await page.getByRole('textbox', { name: 'Option 3 of section 1' }).waitFor();
    // Back to the new option's field: Shift+Tab past its remove and move-up buttons.
    for (let i = 0; i < 4 && !(await focusedName()).startsWith('Option 3 of section 1'); i++)
      await page.keyboard.press('Shift+Tab');
    expect(await focusedName()).to.match(/^Option 3 of section 1/);
    await page.keyboard.type('Gamma');
    await page.keyboard.press('Enter'); // submits the form
    await page.waitForURL((u) => u.pathname === '/polls');
    const made = (await myPolls()).find((p) => p.title === 'Keyboard poll');
    expect(made!.sections[0]!.options.map((o) => o.label)).to.deep.equal(['Alpha', 'Beta', 'Gamma']);
  });
});
