import { expect } from 'chai';
import request from 'supertest';
import { registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';
import { createPoll, twoSectionPoll } from './support/vote-polls.ts';

type User = Awaited<ReturnType<typeof registerUser>>;

/** Result visibility (issue 37, part 1; docs/polls.md, "Result visibility") in the console. */
describe('console: result visibility (browser)', function () {
  this.timeout(240_000);
  let c: ConsoleStack;
  let owner: User;
  before(async () => {
    c = await startConsoleStack();
    owner = await registerUser(c.baseUrl, 'Owner');
  });
  after(async () => c?.stop());

  it('the owner picks a mode in the poll settings, each explained in one line', async () => {
    const poll = await createPoll(c.baseUrl, owner.token);
    const page = await c.newPage();
    await signInThroughPage(page, owner, `/polls/${poll.id}/edit`);
    const group = page.getByRole('radiogroup', { name: 'Who sees the results' });
    await group.waitFor();
    expect(await group.getByRole('radio', { name: 'Everyone, at any time' }).isChecked()).to.equal(true);
    await page
      .getByText('Voters see the counts once their vote is counted; everyone once the poll closes.')
      .waitFor();
    await group.getByRole('radio', { name: 'After voting' }).check();
    await expectAccessible(page, 'poll editor: result visibility');
    await page.getByTestId('visibility-after_vote').scrollIntoViewIfNeeded();
    await screenshotBoth(page, 'poll-settings-visibility');
    await page.getByRole('button', { name: 'Save the changes' }).click();
    await page.waitForURL((u) => u.pathname === '/polls');
    const saved = await request(c.baseUrl)
      .get(`/api/polls/${poll.id}`)
      .auth(owner.token, { type: 'bearer' })
      .expect(200);
    expect(saved.body.data.settings).to.include({
      results_visibility: 'after_vote',
      show_stats_public: false,
    });
  });

  it('after_vote: a visitor is told results appear after voting, votes, then sees them', async () => {
    const poll = await createPoll(
      c.baseUrl,
      owner.token,
      twoSectionPoll({ results_visibility: 'after_vote' }),
    );
    await request(c.baseUrl)
      .post(`/api/polls/${poll.id}/vote`)
      .send({
        votes: Object.fromEntries(poll.sections.map((s) => [s.id, s.options[1]!.id])),
        voter_fingerprint: 'fp-visibility-other',
      })
      .expect(201);
    const page = await c.newPage({ phone: true });
    await page.goto(`/p/${poll.id}/results`);
    const hidden = page.getByTestId('results-hidden');
    await hidden.getByText('Results appear after you vote').waitFor();
    expect(await page.getByRole('progressbar').count()).to.equal(0);
    await expectAccessible(page, 'results page: hidden until you vote');
    await screenshotBoth(page, 'results-hidden-after-vote');

    await page.goto(`/p/${poll.id}`);
    await page.getByTestId('results-visibility').getByText('Results appear after you vote.').waitFor();
    await expectAccessible(page, 'voting page: results after you vote');
    await screenshotBoth(page, 'vote-results-after-vote');
    await page.getByRole('radio', { name: 'Pizzeria' }).check();
    await page.getByRole('radio', { name: 'Noon' }).check();
    await page.getByRole('button', { name: 'Vote', exact: true }).click();
    await page.getByRole('link', { name: 'See the results' }).click();
    await page.getByRole('progressbar', { name: 'Pizzeria: 1 vote, 50%' }).waitFor();
    expect(await page.getByTestId('results-hidden').count()).to.equal(0);
    await expectAccessible(page, 'results page: shown after voting');
  });

  it('owner_only: a visitor is told only the organiser sees results (in French too); the owner sees them', async () => {
    const poll = await createPoll(
      c.baseUrl,
      owner.token,
      twoSectionPoll({ results_visibility: 'owner_only' }),
    );
    const visitor = await c.newPage();
    await visitor.goto(`/p/${poll.id}/results`);
    await visitor.getByTestId('results-hidden').getByText('Only the organiser sees results').waitFor();
    await expectAccessible(visitor, 'results page: owner only');

    const french = await c.newPage({ locale: 'fr' });
    await french.goto(`/p/${poll.id}/results`);
    await french.getByTestId('results-hidden').getByText('Seul l’organisateur voit les résultats').waitFor();
    await expectAccessible(french, 'results page: owner only, French');
    await screenshotBoth(french, 'results-hidden-owner-only-fr');
    await french.goto(`/p/${poll.id}`);
    await french.getByText('Seul l’organisateur voit les résultats.').waitFor();

    const ownerPage = await c.newPage();
    await signInThroughPage(ownerPage, owner, `/p/${poll.id}/results`);
    await ownerPage.getByRole('heading', { name: 'Results', exact: true }).waitFor();
    expect(await ownerPage.getByTestId('results-hidden').count()).to.equal(0);
  });
});
