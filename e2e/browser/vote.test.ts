import { expect } from 'chai';
import request from 'supertest';
import type { Page } from 'playwright-core';
import { registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { createPoll, otpPasswordFor, twoSectionPoll, type TestPoll } from './support/vote-polls.ts';

type User = Awaited<ReturnType<typeof registerUser>>;

/** Picks one option per section by clicking its label, then presses Vote. */
async function ballot(page: Page, labels: string[]) {
  for (const label of labels) await page.getByRole('radio', { name: label }).check();
  await page.getByRole('button', { name: 'Vote', exact: true }).click();
}

/** The vote answer's JSON of the next `POST .../vote`. */
const nextVoteAnswer = (page: Page) =>
  page.waitForResponse((r) => r.request().method() === 'POST' && /\/api\/polls\/[^/]+\/vote$/.test(r.url()));

/**
 * Signs `user` in within the page's browser session as the console does (csrf-cookie, then login
 * with the `X-XSRF-TOKEN` header), so the session cookie is the page's. (A string: no DOM types here.)
 */
async function signInSession(page: Page, user: { email: string; password: string }) {
  const status = await page.evaluate<number>(`(async () => {
    await fetch('/api/v1/csrf-cookie');
    const cookie = document.cookie.split('; ').find((c) => c.startsWith('XSRF-TOKEN='));
    const res = await fetch('/api/v1/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json',
        'X-XSRF-TOKEN': decodeURIComponent(cookie.split('=')[1]) },
      body: JSON.stringify(${JSON.stringify({ email: user.email, password: user.password })}),
    });
    return res.status;
  })()`);
  expect(status).to.equal(200);
}

describe('console: voting page (browser)', function () {
  this.timeout(120_000);
  let c: ConsoleStack;
  let owner: User;
  before(async () => {
    c = await startConsoleStack();
    owner = await registerUser(c.baseUrl, 'Owner');
  });
  after(async () => c?.stop());

  it('counts a vote on a public poll, shows the votes left, votes again, then shows the limit (422)', async () => {
    const poll = await createPoll(c.baseUrl, owner.token, twoSectionPoll({ max_votes_per_voter: 2 }));
    const page = await c.newPage();
    await page.goto(`/p/${poll.id}`);
    await page.getByRole('heading', { level: 1, name: 'Team lunch' }).waitFor();
    await page.getByRole('group', { name: 'Where' }).waitFor();
    await expectAccessible(page, 'voting page: the ballot');
    await screenshotBoth(page, 'vote');

    await page.getByRole('button', { name: 'Vote', exact: true }).click();
    expect(await page.getByText('Choose one option').count(), 'one error per unanswered section').to.equal(2);

    const answer = nextVoteAnswer(page);
    await ballot(page, ['Noodle bar', 'Noon']);
    const first = await answer;
    expect(first.status()).to.equal(201);
    expect(first.request().headers()['idempotency-key']).to.match(/^[0-9a-f-]{36}$/);
    const body = (await first.json()) as { data: { time_spent: number; vote: { time_spent: number } } };
    expect(body.data.vote.time_spent).to.be.a('number').and.at.least(0);
    await page.getByTestId('vote-counted').getByText('You can vote 1 more time.').waitFor();
    await expectAccessible(page, 'voting page: vote counted');
    await screenshotBoth(page, 'vote-counted');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.locator('html[data-mantine-color-scheme="dark"]').waitFor({ state: 'attached' });
    await expectAccessible(page, 'voting page: vote counted, dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await page.getByRole('button', { name: 'Vote again' }).click();
    const again = nextVoteAnswer(page);
    await page.getByRole('button', { name: 'Vote', exact: true }).click(); // the choices are kept
    expect((await again).request().headers()['idempotency-key']).to.not.equal(
      first.request().headers()['idempotency-key'],
    );
    await page.getByText('You have used all your votes.').waitFor();
    expect(await page.getByRole('button', { name: 'Vote again' }).count()).to.equal(0);

    // Arriving again: "you have voted" (GET .../my-ballot), not the ballot (who-voted.test.ts).
    await page.reload();
    await page.getByTestId('already-voted').waitFor();
    expect(await page.getByRole('button', { name: 'Vote', exact: true }).count()).to.equal(0);
    const results = await request(c.baseUrl).get(`/api/polls/${poll.id}/results`).expect(200);
    expect(results.body.data.total_votes).to.equal(2);

    // The limit met after the page showed its ballot (the same browser voted in another tab).
    const single = await createPoll(c.baseUrl, owner.token);
    const browser = await c.newContext();
    const [tabA, tabB] = [await browser.newPage(), await browser.newPage()];
    for (const tab of [tabA, tabB]) {
      await tab.goto(`/p/${single.id}`);
      await tab.getByRole('group', { name: 'Where' }).waitFor();
    }
    await ballot(tabB, ['Noodle bar', 'Noon']);
    await tabB.getByTestId('vote-counted').waitFor();
    await ballot(tabA, ['Pizzeria', '1 pm']);
    const alert = tabA.getByTestId('problem');
    await alert.waitFor();
    // The message of the problem's code (vote_limit_reached), never the status in the main text.
    await alert.getByText('You have used all your votes for this poll.').waitFor();
    expect(await alert.getByTestId('problem-message').innerText()).to.not.match(/422/);
    await tabA.getByRole('link', { name: 'See the results' }).waitFor();
  });

  it('votes with the keyboard only: Tab into each group, arrows choose, Space checks, Enter sends', async () => {
    const poll = await createPoll(c.baseUrl, owner.token);
    const page = await c.newPage();
    await page.goto(`/p/${poll.id}`);
    await page.getByRole('group', { name: 'Where' }).waitFor();
    const focused = () =>
      page.evaluate<{ name: string; type: string; tag: string }>(
        `({ name: document.activeElement?.name ?? '', type: document.activeElement?.type ?? '', tag: document.activeElement?.tagName ?? '' })`,
      );
    const tabTo = async (test: (f: { name: string; type: string; tag: string }) => boolean) => {
      for (let i = 0; i < 20; i++) {
        await page.keyboard.press('Tab');
        if (test(await focused())) return;
      }
      throw new Error('never reached by Tab');
    };
    await tabTo((f) => f.name === `section-${poll.sections[0]!.id}`);
    await page.keyboard.press('ArrowDown'); // Pizzeria → Noodle bar (arrows move and check)
    await page.keyboard.press('ArrowDown'); // → Salad place
    await tabTo((f) => f.name === `section-${poll.sections[1]!.id}`);
    await page.keyboard.press('Space'); // checks the focused first option (Noon)
    await tabTo((f) => f.tag === 'INPUT' && f.type === 'text');
    await page.keyboard.type('Kim');
    const answer = nextVoteAnswer(page);
    await page.keyboard.press('Enter');
    const sent = await answer;
    expect(sent.status()).to.equal(201);
    const voted = sent.request().postDataJSON() as { votes: Record<string, string>; voter_name: string };
    expect(voted.votes).to.deep.equal({
      [poll.sections[0]!.id]: poll.sections[0]!.options[2]!.id,
      [poll.sections[1]!.id]: poll.sections[1]!.options[0]!.id,
    });
    expect(voted.voter_name).to.equal('Kim');
    await page.getByTestId('vote-counted').waitFor();
  });

  it('confirms a vote with the e-mailed one-time password: wrong code → attempts left, new code after expiry, right code → counted', async () => {
    const poll = await createPoll(c.baseUrl, owner.token, twoSectionPoll({ require_verification: true }));
    const page = await c.newPage({ phone: true });
    await page.goto(`/p/${poll.id}`);
    const email = page.getByRole('textbox', { name: /Your e-mail/ });
    await email.fill('not-an-address');
    await ballot(page, ['Pizzeria', 'Noon']);
    await page.getByText('Enter a valid e-mail address').waitFor();

    await email.fill('voter.otp@example.test');
    const answer = nextVoteAnswer(page);
    await page.getByRole('button', { name: 'Vote', exact: true }).click();
    const held = await answer;
    expect(held.status()).to.equal(202);
    const code = ((await held.json()) as { data: { verification_code: string } }).data.verification_code;
    await page.getByRole('heading', { name: 'Confirm your vote' }).waitFor();
    await page.getByText('We sent a 6-digit code to voter.otp@example.test.').waitFor();
    expect(await page.getByRole('button', { name: 'Send a new code' }).isDisabled()).to.equal(true);
    await expectAccessible(page, 'voting page: one-time password step');
    await screenshotBoth(page, 'vote-otp');

    const password = await otpPasswordFor(c.sink, code);
    const wrong = password === '000000' ? '111111' : '000000';
    const field = page.getByRole('textbox', { name: /Code from the e-mail/ });
    expect(await field.getAttribute('autocomplete')).to.equal('one-time-code');
    expect(await field.getAttribute('inputmode')).to.equal('numeric');
    await field.fill(wrong);
    await page.getByRole('button', { name: 'Confirm my vote' }).click();
    await page.getByText('Wrong code: 4 attempts left').waitFor();

    // The password expires (10 minutes, made past here): a new code is sent by voting again.
    await c.stack.polls.db
      .collection('pending_votes')
      .updateOne({ code }, { $set: { expires_at: new Date(Date.now() - 1000).toISOString() } });
    await field.fill(password);
    await page.getByRole('button', { name: 'Confirm my vote' }).click();
    await page
      .getByText(/expired/i)
      .first()
      .waitFor();
    const resent = nextVoteAnswer(page);
    await page.getByRole('button', { name: 'Send a new code' }).click();
    const held2 = await resent;
    expect(held2.status()).to.equal(202);
    const code2 = ((await held2.json()) as { data: { verification_code: string } }).data.verification_code;
    expect(code2).to.not.equal(code);
    const password2 = await otpPasswordFor(c.sink, code2);
    await field.fill(password2);
    await page.getByRole('button', { name: 'Confirm my vote' }).click();
    await page.getByTestId('vote-counted').waitFor();
    const results = await request(c.baseUrl).get(`/api/polls/${poll.id}/results`).expect(200);
    expect(results.body.data.total_votes).to.equal(1);
  });

  it('lets a signed-in voter vote on a poll for signed-in users, and sends their code to their account', async () => {
    const voter = await registerUser(c.baseUrl, 'Signed Voter');
    const members = await createPoll(
      c.baseUrl,
      owner.token,
      twoSectionPoll({ access: 'authenticated', require_verification: true }),
    );
    const page = await c.newPage();
    await page.goto(`/p/${members.id}`);
    await page.getByRole('link', { name: 'Sign in to vote' }).waitFor();
    await signInSession(page, voter);
    await page.reload();
    await page.getByRole('group', { name: 'Where' }).waitFor();
    expect(await page.getByRole('textbox', { name: /Your e-mail/ }).count(), 'no e-mail asked').to.equal(0);
    const answer = nextVoteAnswer(page);
    await ballot(page, ['Salad place', '1 pm']);
    const held = await answer;
    expect(held.status()).to.equal(202);
    const code = ((await held.json()) as { data: { verification_code: string } }).data.verification_code;
    await page.getByText(`We sent a 6-digit code to ${voter.email}.`).waitFor();
    await page
      .getByRole('textbox', { name: /Code from the e-mail/ })
      .fill(await otpPasswordFor(c.sink, code));
    await page.getByRole('button', { name: 'Confirm my vote' }).click();
    await page.getByTestId('vote-counted').waitFor();
  });

  it('explains a poll that takes no votes (closed, not yet open), an unknown poll, and one for signed-in users', async () => {
    const closed = await createPoll(c.baseUrl, owner.token);
    await request(c.baseUrl)
      .post(`/api/polls/${closed.id}/close`)
      .auth(owner.token, { type: 'bearer' })
      .expect(200);
    const page = await c.newPage();
    await page.goto(`/p/${closed.id}`);
    await page.getByText('This poll is closed').waitFor();
    await page.getByRole('link', { name: 'See the results' }).waitFor();
    expect(await page.getByRole('button', { name: 'Vote', exact: true }).count()).to.equal(0);
    const fr = await c.newPage({ locale: 'fr-FR' });
    await fr.goto(`/p/${closed.id}`);
    await fr.getByText('Ce sondage est clos').waitFor();

    const starts = new Date(Date.UTC(2031, 0, 15, 9, 30)).toISOString();
    const later = await createPoll(c.baseUrl, owner.token, twoSectionPoll({ starts_at: starts }));
    await page.goto(`/p/${later.id}`);
    await page.getByText('This poll is not open yet').waitFor();
    expect(await page.getByText(/Voting opens on .*2031/).count()).to.equal(1);

    await page.goto('/p/00000000-0000-4000-8000-000000000000');
    await page.getByText('Poll not found').waitFor();

    const members = await createPoll(c.baseUrl, owner.token, twoSectionPoll({ access: 'authenticated' }));
    await page.goto(`/p/${members.id}`);
    const signIn = page.getByRole('link', { name: 'Sign in to vote' });
    await signIn.waitFor();
    expect(await signIn.getAttribute('href')).to.equal(
      `/sign-in?next=${encodeURIComponent(`/p/${members.id}`)}`,
    );
  });
});

describe('console: voting page under the gateway rate limit (browser)', function () {
  this.timeout(120_000);
  let c: ConsoleStack;
  let poll: TestPoll;
  before(async () => {
    // A long window, so the count the test builds up cannot be reset by the clock meanwhile.
    c = await startConsoleStack({ RATE_LIMIT_IP: '40', RATE_LIMIT_WINDOW_SECONDS: '3600' });
    const owner = await registerUser(c.baseUrl, 'Owner');
    poll = await createPoll(c.baseUrl, owner.token);
  });
  after(async () => c?.stop());

  it('shows a 429 with its wait next to the Vote button', async () => {
    const page = await c.newPage();
    await page.goto(`/p/${poll.id}`);
    await page.getByRole('group', { name: 'Where' }).waitFor();
    // Use up this address's requests (the browser and this test share 127.0.0.1).
    let status = 0;
    for (let i = 0; i < 60 && status !== 429; i++)
      status = (await request(c.baseUrl).get(`/api/polls/${poll.id}`)).status;
    expect(status).to.equal(429);
    await ballot(page, ['Pizzeria', 'Noon']);
    const alert = page.getByTestId('problem');
    await alert.waitFor();
    const text = await alert.textContent();
    expect(text).to.match(/Too many requests/);
    expect(text).to.match(/Try again in \d+ seconds?\./);
  });
});
