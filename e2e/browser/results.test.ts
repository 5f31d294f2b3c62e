import { expect } from 'chai';
import request from 'supertest';
import type { Page } from 'playwright-core';
import { registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { createPoll, twoSectionPoll, type TestPoll } from './support/vote-polls.ts';

type User = Awaited<ReturnType<typeof registerUser>>;

/** The figures shown beside an option's bar ("1 vote · 100%"). */
const figuresOf = (page: Page, optionId: string) =>
  page.getByTestId(`option-${optionId}`).getByTestId('option-figures');

/** Waits until the option's figures read exactly `text` (polling the page, no reload). */
const untilFigures = (page: Page, optionId: string, text: string, timeout: number) =>
  figuresOf(page, optionId)
    .filter({ hasText: new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) })
    .waitFor({ timeout });

/** Waits until the live stream is connected. */
const untilLive = (page: Page) => page.locator('[data-testid="live-status"][data-state="live"]').waitFor();

/** Votes through the API as an anonymous voter `fingerprint` (the first option of each section). */
const voteByApi = (c: ConsoleStack, poll: TestPoll, fingerprint: string, pick = 0) =>
  request(c.baseUrl)
    .post(`/api/polls/${poll.id}/vote`)
    .send({
      votes: Object.fromEntries(poll.sections.map((s) => [s.id, s.options[pick]!.id])),
      voter_fingerprint: fingerprint,
      time_spent: 30 + pick * 15,
    })
    .expect(201);

describe('console: live results page (browser)', function () {
  this.timeout(120_000);
  let c: ConsoleStack;
  let owner: User;
  before(async () => {
    c = await startConsoleStack();
    owner = await registerUser(c.baseUrl, 'Owner');
  });
  after(async () => c?.stop());

  it("shows another browser's vote without a reload, through the live stream", async () => {
    const poll = await createPoll(c.baseUrl, owner.token);
    const watcher = await c.newPage({ phone: true });
    await watcher.goto(`/p/${poll.id}/results`);
    await untilLive(watcher);
    await watcher.getByText('No votes yet', { exact: false }).waitFor();
    await watcher.evaluate('window.sameDocument = true'); // gone if the page reloads

    const voter = await c.newPage();
    await voter.goto(`/p/${poll.id}`);
    await voter.getByRole('radio', { name: 'Noodle bar' }).check();
    await voter.getByRole('radio', { name: '1 pm' }).check();
    const answered = voter.waitForResponse(
      (r) => r.request().method() === 'POST' && r.url().endsWith('/vote'),
    );
    await voter.getByRole('button', { name: 'Vote', exact: true }).click();
    expect((await answered).status()).to.equal(201);
    // The page reads results only from its stream (no polling): the figures can only come from
    // it. How fast they come is a speed target, not this test's (bench/, docs/testing.md).
    const noodles = poll.sections[0]!.options[1]!.id;
    await untilFigures(watcher, noodles, '1 vote · 100%', 30_000);
    expect(await watcher.evaluate('window.sameDocument')).to.equal(true);
    expect(await watcher.getByTestId('total-totalVotes').textContent()).to.contain('1');
    expect(await watcher.getByRole('progressbar', { name: 'Noodle bar: 1 vote, 100%' }).count()).to.equal(1);
  });

  it('adds a comment and a reply, and a reaction that a second one replaces (counts move)', async () => {
    const poll = await createPoll(c.baseUrl, owner.token);
    for (const [i, fp] of ['fp-results-1', 'fp-results-2', 'fp-results-3'].entries())
      await voteByApi(c, poll, fp, i === 2 ? 1 : 0);
    const page = await c.newPage();
    await page.goto(`/p/${poll.id}/results`);
    await untilLive(page);
    expect(await figuresOf(page, poll.sections[0]!.options[0]!.id).textContent()).to.equal('2 votes · 67%');
    await page.getByRole('heading', { name: 'Analytics' }).waitFor();
    await page.getByText('First vote', { exact: true }).waitFor();

    const form = page.getByRole('form', { name: 'Add a comment' });
    await form.getByRole('button', { name: 'Comment' }).click();
    await form.getByText('Write something first').waitFor();
    await form.getByRole('textbox', { name: 'Add a comment' }).fill('Pizza again? <b>Really</b>');
    await form.getByRole('textbox', { name: 'Your name (optional)' }).fill('Ana');
    await form.getByRole('button', { name: 'Comment' }).click();
    const comment = page.getByTestId('comment').filter({ hasText: 'Pizza again?' });
    await comment.getByTestId('comment-content').getByText('Pizza again? <b>Really</b>').waitFor();
    expect(await page.locator('#comments b').count(), 'comments are text, never HTML').to.equal(0);

    await comment.getByRole('button', { name: 'Reply to Ana' }).click();
    const reply = page.getByRole('form', { name: 'Your reply' });
    await reply.getByRole('textbox', { name: 'Your reply' }).fill('Noodles, then.');
    await reply.getByRole('button', { name: 'Reply' }).click();
    await comment.getByTestId('comment').getByText('Noodles, then.').waitFor();
    await page.getByRole('heading', { name: 'Comments (2)' }).waitFor();

    const like = page.getByTestId('reaction-like');
    const love = page.getByTestId('reaction-love');
    await like.click();
    await page.getByRole('button', { name: /^Like\s*1$/, pressed: true }).waitFor();
    expect(await love.getAttribute('aria-pressed')).to.equal('false');
    await love.click();
    await page.getByRole('button', { name: /^Love\s*1$/, pressed: true }).waitFor();
    await page.getByRole('button', { name: /^Like\s*0$/, pressed: false }).waitFor();
    const api = await request(c.baseUrl).get(`/api/polls/${poll.id}/results`).expect(200);
    expect(api.body.data.reactions_summary).to.include({ like: 0, love: 1 });
    expect(api.body.data.comments_total).to.equal(2);

    await page.reload();
    await page.getByRole('button', { name: /^Love\s*1$/, pressed: true }).waitFor(); // remembered
    await untilLive(page);
    await expectAccessible(page, 'results page');
    await screenshotBoth(page, 'results');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.locator('html[data-mantine-color-scheme="dark"]').waitFor({ state: 'attached' });
    await expectAccessible(page, 'results page, dark');
  });

  it('shows only the reader their own vote when the owner hides the statistics; says when comments and reactions are off', async () => {
    const poll = await createPoll(
      c.baseUrl,
      owner.token,
      twoSectionPoll({ show_stats_public: false, allow_comments: false, allow_reactions: false }),
    );
    await voteByApi(c, poll, 'fp-someone-else', 1);
    const page = await c.newPage();
    await page.goto(`/p/${poll.id}`);
    await page.getByRole('radio', { name: 'Salad place' }).check();
    await page.getByRole('radio', { name: 'Noon' }).check();
    await page.getByRole('button', { name: 'Vote', exact: true }).click();
    await page.getByRole('link', { name: 'See the results' }).click();
    await page.getByText('Only the organiser sees results').waitFor();
    await page.getByText('Where: Salad place').waitFor();
    expect(await page.getByRole('progressbar').count()).to.equal(0);
    expect(await page.getByTestId('total-totalVotes').textContent()).to.contain('2');
    await page.getByText('The owner turned comments off.').waitFor();
    await page.getByText('The owner turned reactions off.').waitFor();
    expect(await page.getByRole('form', { name: 'Add a comment' }).count()).to.equal(0);
    expect(await page.getByTestId('reaction-like').isDisabled()).to.equal(true);
    await expectAccessible(page, 'results page: statistics hidden');
  });

  it('says "reconnecting" when the stream fails, and is live again once it comes back', async () => {
    const poll = await createPoll(c.baseUrl, owner.token);
    const page = await c.newPage();
    let refused = 0;
    await page.route('**/results/stream*', async (route) => {
      if (refused++ < 1)
        return route.fulfill({
          status: 503,
          contentType: 'application/problem+json',
          body: '{"status":503}',
        });
      return route.fallback();
    });
    await page.goto(`/p/${poll.id}/results`);
    await page.locator('[data-testid="live-status"][data-state="reconnecting"]').waitFor();
    await page.getByText('Reconnecting…').waitFor();
    await untilLive(page);
    expect(refused).to.be.at.least(2);
    await voteByApi(c, poll, 'fp-after-reconnect');
    await untilFigures(page, poll.sections[0]!.options[0]!.id, '1 vote · 100%', 30_000);
  });

  it('explains an unknown poll and a deleted one', async () => {
    const page = await c.newPage();
    await page.goto('/p/00000000-0000-4000-8000-000000000000/results');
    await page.getByText('Poll not found').waitFor();

    const poll = await createPoll(c.baseUrl, owner.token);
    await page.goto(`/p/${poll.id}/results`);
    await untilLive(page);
    await request(c.baseUrl)
      .delete(`/api/polls/${poll.id}`)
      .auth(owner.token, { type: 'bearer' })
      .expect(204);
    await page.getByText('This poll was deleted').waitFor();
  });
});

describe('console: results page under the gateway rate limit (browser)', function () {
  this.timeout(120_000);
  let c: ConsoleStack;
  let poll: TestPoll;
  before(async () => {
    c = await startConsoleStack({ RATE_LIMIT_IP: '40', RATE_LIMIT_WINDOW_SECONDS: '3600' });
    const owner = await registerUser(c.baseUrl, 'Owner');
    poll = await createPoll(c.baseUrl, owner.token);
  });
  after(async () => c?.stop());

  it('shows a 429 with its wait next to the comment form and keeps the text', async () => {
    const page = await c.newPage();
    await page.goto(`/p/${poll.id}/results`);
    await untilLive(page);
    let status = 0;
    for (let i = 0; i < 60 && status !== 429; i++)
      status = (await request(c.baseUrl).get(`/api/polls/${poll.id}`)).status;
    expect(status).to.equal(429);
    const form = page.getByRole('form', { name: 'Add a comment' });
    await form.getByRole('textbox', { name: 'Add a comment' }).fill('Too fast?');
    await form.getByRole('button', { name: 'Comment' }).click();
    const alert = form.getByTestId('problem');
    await alert.waitFor();
    expect(await alert.textContent()).to.match(/Too many requests.*Try again in \d+ seconds?\./s);
    expect(await form.getByRole('textbox', { name: 'Add a comment' }).inputValue()).to.equal('Too fast?');
  });
});
