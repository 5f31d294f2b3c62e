import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import request from 'supertest';
import type { Page } from 'playwright-core';
import { registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { expectNoOverflow } from './support/overflow.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';
import { createPoll, twoSectionPoll, type TestPoll } from './support/vote-polls.ts';

type User = Awaited<ReturnType<typeof registerUser>>;

/** Votes through the API as anonymous `fingerprint`, choosing option `picks[i]` of section i. */
const voteByApi = (c: ConsoleStack, poll: TestPoll, fingerprint: string, picks: number[], name?: string) =>
  request(c.baseUrl)
    .post(`/api/polls/${poll.id}/vote`)
    .send({
      votes: Object.fromEntries(poll.sections.map((s, i) => [s.id, s.options[picks[i] ?? 0]!.id])),
      voter_fingerprint: fingerprint,
      ...(name ? { voter_name: name } : {}),
    })
    .expect(201);

/** Comments through the API as anonymous `fingerprint`. */
const commentByApi = (c: ConsoleStack, poll: TestPoll, fingerprint: string, content: string, name: string) =>
  request(c.baseUrl)
    .post(`/api/polls/${poll.id}/comment`)
    .send({ content, parent_id: null, author_name: name, voter_fingerprint: fingerprint })
    .expect(201);

/** Waits until the live stream is connected. */
const untilLive = (page: Page) => page.locator('[data-testid="live-status"][data-state="live"]').waitFor();

/**
 * Who voted (issue 37, part 3; docs/console.md, "Who voted"): the owner's participants tab and
 * exports, "you have voted" for a returning voter, comments arriving live and moderated by the
 * owner, and a tie in the leading options. Real Chromium, axe, both viewports.
 */
describe('console: who voted (browser)', function () {
  this.timeout(180_000);
  let c: ConsoleStack;
  let owner: User;
  before(async () => {
    c = await startConsoleStack();
    owner = await registerUser(c.baseUrl, 'Owner');
  });
  after(async () => c?.stop());

  it("the owner's Who voted tab: names, times and choices, a page at a time, and the CSV export", async () => {
    const poll = await createPoll(c.baseUrl, owner.token, twoSectionPoll({ show_participant_names: false }));
    await voteByApi(c, poll, 'fp-who-1', [0, 1], 'Ana');
    await voteByApi(c, poll, 'fp-who-2', [1, 0]);
    await voteByApi(c, poll, 'fp-who-3', [2, 1], '=cmd|calc');

    const page = await c.newPage();
    await signInThroughPage(page, owner, `/p/${poll.id}/results`);
    await page.getByRole('tab', { name: 'Who voted' }).click();
    await page.waitForURL((url) => url.searchParams.get('tab') === 'participants');
    const grid = page.getByTestId('participants');
    await grid.waitFor();
    const rows = grid.getByTestId('participant');
    expect(await rows.count()).to.equal(3);
    expect(await rows.nth(0).innerText())
      .to.contain('=cmd|calc')
      .and.contain('Salad place')
      .and.contain('1 pm');
    expect(await rows.nth(1).innerText())
      .to.contain('Anonymous')
      .and.contain('Noodle bar')
      .and.contain('Noon');
    expect(await rows.nth(2).innerText())
      .to.contain('Ana')
      .and.contain('Pizzeria');
    await page.getByText("Only you, the poll's owner, see this list and the exports.").waitFor();
    await page.getByText('3 counted votes').waitFor();
    await expectAccessible(page, 'results page: who voted');
    await expectNoOverflow(page, 'results page: who voted');
    await screenshotBoth(page, 'results-participants');

    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download the votes as CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).to.equal('team-lunch-votes.csv');
    const csv = readFileSync((await file.path())!, 'utf8').replace(/^\uFEFF/, '');
    expect(csv.split('\n')[0]).to.equal(
      'vote_id,created_at,voter_name,user_id,seq,verified,time_spent,Where,When',
    );
    expect(csv).to.contain(",'=cmd|calc,,1,no,,Salad place,1 pm");
    const xlsx = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download the results as Excel' }).click();
    expect((await xlsx).suggestedFilename()).to.equal('team-lunch-results.xlsx');

    // A voter (not the owner) gets no tab; the participants API refuses them.
    const visitor = await c.newPage();
    await visitor.goto(`/p/${poll.id}/results?tab=participants`);
    await visitor.getByRole('heading', { name: 'Results', exact: true }).waitFor();
    expect(await visitor.getByRole('tab').count()).to.equal(0);
    await request(c.baseUrl).get(`/api/polls/${poll.id}/participants`).expect(401);

    const french = await c.newPage({ locale: 'fr-FR' });
    await french.goto(`/sign-in?next=${encodeURIComponent(`/p/${poll.id}/results?tab=participants`)}`);
    await french.getByRole('textbox', { name: 'Adresse e-mail' }).fill(owner.email);
    await french.getByRole('textbox', { name: 'Mot de passe', exact: true }).fill(owner.password);
    await french.getByRole('button', { name: 'Se connecter', exact: true }).click();
    await french.getByRole('tab', { name: 'Qui a voté', selected: true }).waitFor();
    await french.getByText('3 votes comptés').waitFor();
    await french.getByRole('link', { name: 'Télécharger les votes en CSV' }).waitFor();
  });

  it('shown to voters: the owner turns on "Show who voted to voters"; a voter is told so, votes, and sees who voted', async () => {
    const poll = await createPoll(
      c.baseUrl,
      owner.token,
      twoSectionPoll({ results_visibility: 'after_vote' }, 'Board games night'),
    );
    // Lea votes while names go to the owner only: she stays off the list shown to voters.
    await voteByApi(c, poll, 'fp-shared-1', [1, 0], 'Lea');

    const editor = await c.newPage();
    await signInThroughPage(editor, owner, `/polls/${poll.id}/edit`);
    const names = editor.getByRole('switch', { name: 'Show who voted to voters' });
    await names.waitFor();
    expect(await names.isChecked(), 'off by default').to.equal(false);
    // Invited voters are named by their e-mail address: the switch is off and unavailable.
    await editor.getByRole('switch', { name: 'Only invited people can vote' }).check();
    expect(await names.isDisabled()).to.equal(true);
    await editor.getByText('Not with anonymous ballots or invited voters').waitFor();
    await editor.getByRole('switch', { name: 'Only invited people can vote' }).uncheck();
    await names.check();
    await editor.getByText('It applies to votes cast from now on', { exact: false }).waitFor();
    await expectAccessible(editor, 'poll editor: show who voted');
    await names.scrollIntoViewIfNeeded();
    await screenshotBoth(editor, 'poll-settings-names');
    await editor.getByRole('button', { name: 'Save the changes' }).click();
    await editor.waitForURL((u) => u.pathname === '/polls');
    const saved = await request(c.baseUrl)
      .get(`/api/polls/${poll.id}`)
      .auth(owner.token, { type: 'bearer' })
      .expect(200);
    expect(saved.body.data.settings).to.include({ show_participant_names: true, voters: 'anyone' });

    const voter = await c.newPage({ phone: true });
    await voter.goto(`/p/${poll.id}`);
    await voter
      .getByText('Shown with your vote to everyone who can see the results', { exact: false })
      .waitFor();
    await voter.getByRole('radio', { name: 'Pizzeria' }).check();
    await voter.getByRole('radio', { name: '1 pm' }).check();
    await voter.getByRole('textbox', { name: /Your name/ }).fill('Sam');
    await voter.getByRole('button', { name: 'Vote', exact: true }).click();
    await voter.getByTestId('vote-counted').waitFor();
    await voter.goto(`/p/${poll.id}/results`);
    await voter.getByRole('tab', { name: 'Who voted' }).click();
    const rows = voter.getByTestId('participant');
    await voter
      .getByTestId('participants-total')
      .getByText('1 participant listed', { exact: false })
      .waitFor();
    expect(await voter.getByTestId('participants-not-all').innerText()).to.contain(
      'Votes cast before the owner showed who voted',
    );
    expect(await rows.count()).to.equal(1);
    expect(await rows.nth(0).innerText())
      .to.contain('Sam')
      .and.contain('Pizzeria')
      .and.contain('1 pm');
    expect(await voter.getByTestId('participants').innerText()).to.not.contain('Lea');
    expect(await voter.getByTestId('participants-audience').innerText()).to.contain(
      'shows who voted, with their choices, to everyone who can see the results',
    );
    expect(await voter.getByRole('link', { name: /Download/ }).count(), 'no exports for voters').to.equal(0);
    await expectAccessible(voter, 'results page: who voted, shown to voters');
    await expectNoOverflow(voter, 'results page: who voted, shown to voters');
    await screenshotBoth(voter, 'results-participants-shared');

    // Someone who has not voted on this after_vote poll: no tab, and the API says why.
    const visitor = await c.newPage();
    await visitor.goto(`/p/${poll.id}/results?tab=participants`);
    await visitor.getByTestId('results-hidden').waitFor();
    expect(await visitor.getByRole('tab').count()).to.equal(0);
    const hidden = await request(c.baseUrl).get(`/api/polls/${poll.id}/participants`).expect(403);
    expect(hidden.body).to.include({ code: 'participants_hidden', until: 'after_vote' });

    // The embed's ballot says it too (it has no name field: choices and time are listed).
    const embed = await c.newPage();
    await embed.goto(`/p/${poll.id}/embed`);
    await embed
      .getByTestId('embed-names-shown')
      .getByText('Your choices are listed, with the time you vote, to everyone who can see the results.')
      .waitFor();

    const fr = await c.newPage({ locale: 'fr-FR' });
    await fr.goto(`/p/${poll.id}`);
    await fr
      .getByText('Affiché avec votre vote à toute personne qui peut voir les résultats', { exact: false })
      .waitFor();
  });

  it('a meeting poll shown to voters: who can come when, as a grid of participants and slots', async () => {
    const poll = await createPoll(c.baseUrl, owner.token, {
      title: 'Team offsite',
      sections: [
        {
          title: 'Which day?',
          kind: 'meeting',
          options: [
            { label: 'Monday', starts_at: '2030-01-07T09:00:00Z', ends_at: '2030-01-07T17:00:00Z' },
            { label: 'Wednesday', starts_at: '2030-01-09T09:00:00Z', ends_at: '2030-01-09T17:00:00Z' },
            { label: 'Friday', starts_at: '2030-01-11T09:00:00Z', ends_at: '2030-01-11T17:00:00Z' },
          ],
        },
      ],
      settings: { show_participant_names: true },
    });
    const section = poll.sections[0]!;
    const slot = (i: number) => section.options[i]!.id;
    const answer = (fingerprint: string, name: string, answers: Record<string, string>) =>
      request(c.baseUrl)
        .post(`/api/polls/${poll.id}/vote`)
        .send({
          votes: {},
          answers: { [section.id]: answers },
          voter_fingerprint: fingerprint,
          voter_name: name,
        })
        .expect(201);
    await answer('fp-grid-1', 'Ines', { [slot(0)]: 'yes', [slot(1)]: 'if_need_be' });
    await answer('fp-grid-2', 'Marc', { [slot(1)]: 'yes', [slot(2)]: 'yes' });

    const page = await c.newPage({ phone: true });
    await page.goto(`/p/${poll.id}/results?tab=participants`);
    const grid = page.getByRole('region', { name: 'Who can come when: Which day?' });
    await grid.waitFor();
    const cells = async (name: string) =>
      grid
        .getByRole('row', { name: new RegExp(`^${name}`) })
        .getByRole('cell')
        .allTextContents();
    expect(await cells('Ines')).to.deep.equal(['Yes', 'If need be', 'No']);
    expect(await cells('Marc')).to.deep.equal(['No', 'Yes', 'Yes']);
    expect(await grid.getByRole('columnheader').allInnerTexts()).to.have.length(4);
    // Only meeting sections: the grid is the list (no second table of the same names).
    expect(await page.getByTestId('participants').count()).to.equal(0);
    await expectAccessible(page, 'results page: who can come when');
    await expectNoOverflow(page, 'results page: who can come when');
    await screenshotBoth(page, 'results-participants-meeting');
  });

  it('the Who voted tab pages through more than 20 votes', async () => {
    const poll = await createPoll(c.baseUrl, owner.token);
    for (let i = 1; i <= 21; i++) await voteByApi(c, poll, `fp-page-${i}`, [i % 3, i % 2], `Voter ${i}`);
    const page = await c.newPage({ phone: true });
    await signInThroughPage(page, owner, `/p/${poll.id}/results?tab=participants`);
    const rows = page.getByTestId('participant');
    await page.getByText('21 counted votes').waitFor();
    expect(await rows.count()).to.equal(20);
    expect(await rows.first().innerText()).to.contain('Voter 21');
    await page.getByRole('button', { name: 'Next page' }).click();
    await rows.getByText('Voter 1', { exact: true }).waitFor();
    expect(await rows.count()).to.equal(1);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await rows.getByText('Voter 21', { exact: true }).waitFor();
    expect(await rows.count()).to.equal(20);
  });

  it('an anonymous poll: the tab lists ballots by hour, without choices, and exports the results only', async () => {
    const poll = await createPoll(
      c.baseUrl,
      owner.token,
      twoSectionPoll({ voters: 'invited', anonymous: true }, 'Secret ballot'),
    );
    const email = `anon-voter-${Date.now()}@example.test`;
    await request(c.baseUrl)
      .post(`/api/polls/${poll.id}/invitees`)
      .auth(owner.token, { type: 'bearer' })
      .send({ emails: [email] })
      .expect((res) => expect(res.status).to.be.oneOf([200, 201]));
    await c.sink.waitFor(() => c.sink.messages().some((m) => m.envelope.to.includes(email)), 30_000);
    const mail = c.sink.messages().find((m) => m.envelope.to.includes(email))!;
    const token = /#invite=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    await request(c.baseUrl)
      .post(`/api/polls/${poll.id}/ballots`)
      .send({ token, votes: Object.fromEntries(poll.sections.map((s) => [s.id, s.options[1]!.id])) })
      .expect(201);

    const page = await c.newPage();
    await signInThroughPage(page, owner, `/p/${poll.id}/results?tab=participants`);
    await page.getByTestId('participants-anonymous').waitFor();
    const rows = page.getByTestId('participant');
    await rows.first().waitFor();
    expect(await rows.count()).to.equal(1);
    expect(await rows.first().innerText())
      .to.contain('Anonymous ballot')
      .and.not.contain('Noodle bar');
    expect(await page.getByRole('columnheader', { name: 'Choices' }).count()).to.equal(0);
    expect(await page.getByRole('link', { name: 'Download the votes as CSV' }).count()).to.equal(0);
    await page.getByRole('link', { name: 'Download the results as CSV' }).waitFor();
    await expectAccessible(page, 'results page: who voted, anonymous poll');
  });

  it('a returning voter sees "You have voted" and their ballot on arriving, not the ballot form', async () => {
    const poll = await createPoll(c.baseUrl, owner.token, twoSectionPoll({ max_votes_per_voter: 2 }));
    const page = await c.newPage({ phone: true });
    await page.goto(`/p/${poll.id}`);
    await page.getByRole('radio', { name: 'Noodle bar' }).check();
    await page.getByRole('radio', { name: '1 pm' }).check();
    await page.getByRole('textbox', { name: /Your name/ }).fill('Kim');
    await page.getByRole('button', { name: 'Vote', exact: true }).click();
    await page.getByTestId('vote-counted').waitFor();

    await page.reload();
    const voted = page.getByTestId('already-voted');
    await voted.waitFor();
    await voted.getByText('You have voted').waitFor();
    await voted.getByText('You can vote 1 more time.').waitFor();
    const text = await voted.innerText();
    expect(text).to.contain('Where: Noodle bar').and.contain('When: 1 pm').and.contain('as Kim');
    expect(await page.getByRole('button', { name: 'Vote', exact: true }).count()).to.equal(0);
    await expectAccessible(page, 'voting page: already voted');
    await screenshotBoth(page, 'vote-already-voted');

    await voted.getByRole('button', { name: 'Vote again' }).click();
    await page.getByRole('radio', { name: 'Pizzeria' }).check();
    await page.getByRole('radio', { name: 'Noon' }).check();
    await page.getByRole('button', { name: 'Vote', exact: true }).click();
    await page.getByText('You have used all your votes.').waitFor();
    await page.reload();
    await page.getByTestId('already-voted').getByText('You have used all your votes on this poll.').waitFor();
    expect(await page.getByRole('heading', { name: /Your ballot \d/ }).count()).to.equal(2);
    expect(await page.getByRole('button', { name: 'Vote again' }).count()).to.equal(0);

    const fr = await c.newPage({ locale: 'fr-FR' });
    await fr.goto(`/p/${poll.id}`);
    await fr.getByRole('radio', { name: 'Pizzeria' }).check();
    await fr.getByRole('radio', { name: 'Noon' }).check();
    await fr.getByRole('button', { name: 'Voter', exact: true }).click();
    await fr.getByTestId('vote-counted').waitFor();
    await fr.reload();
    await fr.getByTestId('already-voted').getByText('Vous avez voté').waitFor();
    await fr.getByRole('heading', { name: 'Votre bulletin' }).waitFor();
  });

  it('comments arrive live on open results pages; the owner hides one (gone for others) and deletes one', async () => {
    const poll = await createPoll(c.baseUrl, owner.token);
    const visitor = await c.newPage();
    await visitor.goto(`/p/${poll.id}/results`);
    await untilLive(visitor);
    const ownerPage = await c.newPage();
    await signInThroughPage(ownerPage, owner, `/p/${poll.id}/results`);
    await untilLive(ownerPage);
    await visitor.evaluate('window.sameDocument = true');

    await commentByApi(c, poll, 'fp-comment-1', 'Noodles please', 'Lee');
    await commentByApi(c, poll, 'fp-comment-2', 'Buy my crypto', 'Spam');
    for (const page of [visitor, ownerPage]) {
      await page.getByTestId('comment-content').getByText('Buy my crypto').waitFor({ timeout: 30_000 });
      await page.getByRole('heading', { name: 'Comments (2)' }).waitFor();
    }
    expect(await visitor.evaluate('window.sameDocument')).to.equal(true);
    expect(
      await visitor.getByRole('button', { name: /Hide the comment/ }).count(),
      'no moderation for others',
    ).to.equal(0);

    const spam = ownerPage.getByTestId('comment').filter({ hasText: 'Buy my crypto' });
    await spam.getByRole('button', { name: 'Hide the comment by Spam from others' }).click();
    await spam.getByTestId('comment-hidden').waitFor();
    await spam.getByRole('button', { name: 'Show again the comment by Spam to others' }).waitFor();
    await visitor.getByRole('heading', { name: 'Comments (1)' }).waitFor({ timeout: 30_000 });
    await visitor.getByTestId('comment-content').getByText('Buy my crypto').waitFor({ state: 'detached' });
    await expectAccessible(ownerPage, 'results page: a hidden comment (owner)');
    await ownerPage.locator('#comments').scrollIntoViewIfNeeded();
    await screenshotBoth(ownerPage, 'results-comment-moderation');

    const lee = ownerPage.getByTestId('comment').filter({ hasText: 'Noodles please' });
    await lee.getByRole('button', { name: 'Delete the comment by Lee' }).click();
    await lee.getByRole('button', { name: 'Delete for good' }).click();
    await lee.waitFor({ state: 'detached' });
    await visitor.getByRole('heading', { name: 'Comments (0)' }).waitFor({ timeout: 30_000 });
    await visitor.getByText('No comments yet. Be the first!').waitFor();
  });

  it('a 1–1 tie is shown as a tie in the leading options, never as one winner', async () => {
    const poll = await createPoll(c.baseUrl, owner.token);
    await voteByApi(c, poll, 'fp-tie-1', [0, 0]);
    await voteByApi(c, poll, 'fp-tie-2', [1, 0]);
    const page = await c.newPage();
    await page.goto(`/p/${poll.id}/results`);
    const top = page.getByTestId('top-option');
    await top.first().waitFor();
    expect(await top.allInnerTexts()).to.deep.equal([
      'Where: tie between Pizzeria and Noodle bar (1 vote each)',
      'When: Noon (2 votes)',
    ]);
    const fr = await c.newPage({ locale: 'fr-FR' });
    await fr.goto(`/p/${poll.id}/results`);
    await fr.getByText('Where : égalité entre Pizzeria et Noodle bar (1 vote chacune)').waitFor();
  });
});
