import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Frame, Page } from 'playwright-core';
import request from 'supertest';
import { registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { expectNoOverflow } from './support/overflow.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';
import { createPoll, twoSectionPoll, type TestPoll } from './support/vote-polls.ts';

type User = Awaited<ReturnType<typeof registerUser>>;

/**
 * Another site: a server on its own port that answers every path with a news page framing
 * `src`. Reached as `http://localhost:<port>`, a different origin (and site) from the console's
 * `http://127.0.0.1:<port>`.
 */
async function hostSite(): Promise<{
  origin: string;
  frame: (src: string) => string;
  close: () => Promise<void>;
}> {
  let src = '';
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
        '<title>Local news</title><style>body{font-family:sans-serif;margin:0;padding:12px}iframe{display:block}</style></head>' +
        '<body><main><h1>Local news</h1><p>Readers choose where the team lunch goes.</p>' +
        `<iframe id="poll" src="${src}" title="Poll: Team lunch" width="100%" height="620" style="border:1px solid #ccc;max-width:100%" loading="lazy"></iframe>` +
        '</main></body></html>',
    );
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    frame: (s) => {
      src = s;
      return `${origin}/news`;
    },
    close: () => new Promise((r) => server.close(() => r(undefined))),
  };
}

/** The embed page's frame inside the host page, once it shows its poll. */
async function embedFrame(page: Page, pollId: string): Promise<Frame> {
  const handle = await page.locator('iframe#poll').elementHandle();
  const frame = await handle!.contentFrame();
  expect(frame, 'the iframe has a document').to.not.equal(null);
  await frame!.waitForURL((u) => u.pathname === `/p/${pollId}/embed`);
  return frame!;
}

/** Issue 37, part 6 (docs/polls.md, "Embedding"): a poll's live results framed by another site. */
describe('console: poll embed on another site (browser)', function () {
  this.timeout(240_000);
  let c: ConsoleStack;
  let owner: User;
  let site: Awaited<ReturnType<typeof hostSite>>;
  let poll: TestPoll;
  before(async () => {
    c = await startConsoleStack();
    owner = await registerUser(c.baseUrl, 'Owner');
    site = await hostSite();
    poll = await createPoll(c.baseUrl, owner.token, twoSectionPoll({ embed_origins: [site.origin] }));
  });
  after(async () => {
    await site?.close();
    await c?.stop();
  });

  const voteAs = (fingerprint: string, option: number) =>
    request(c.baseUrl)
      .post(`/api/polls/${poll.id}/vote`)
      .send({
        votes: Object.fromEntries(poll.sections.map((s) => [s.id, s.options[option]!.id])),
        voter_fingerprint: fingerprint,
      })
      .expect(201);

  it('shows the live results in a frame on an allowed site: a vote cast elsewhere appears without a reload', async () => {
    await voteAs('embed-fp-1', 0);
    const page = await c.newPage();
    await page.goto(site.frame(`${c.baseUrl}/p/${poll.id}/embed`));
    const frame = await embedFrame(page, poll.id);
    await frame.getByRole('heading', { level: 1, name: 'Team lunch' }).waitFor();
    await frame.getByTestId('embed-total').getByText('1 vote').waitFor();
    await frame.getByTestId('embed-live').and(frame.locator('[data-state="live"]')).waitFor();
    // No console frame in the embed: no header, navigation or language switch.
    expect(await frame.locator('header, nav').count()).to.equal(0);
    await voteAs('embed-fp-2', 1);
    await frame.getByTestId('embed-total').getByText('2 votes').waitFor();
    const counts = await frame.getByTestId('embed-count').allInnerTexts();
    expect(counts.slice(0, 3)).to.deep.equal(['1 (50 %)', '1 (50 %)', '0 (0 %)']);
    await expectAccessible(page, 'a news page framing the poll embed');
  });

  it('votes in the frame by keyboard where the poll allows it, then shows the results with the vote', async () => {
    const page = await c.newPage({ phone: true });
    await page.goto(site.frame(`${c.baseUrl}/p/${poll.id}/embed`));
    const frame = await embedFrame(page, poll.id);
    const before = Number((await frame.getByTestId('embed-total').innerText()).split(' ')[0]);
    await expectAccessible(page, 'the poll embed with its ballot, phone');
    await screenshotBoth(page, 'poll-embed-vote');
    await frame.getByRole('radio', { name: 'Noodle bar' }).focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab'); // to the next question's group
    await page.keyboard.press('Space');
    expect(await frame.getByRole('radio', { name: 'Noon' }).isChecked()).to.equal(true);
    await frame.getByTestId('embed-vote').focus();
    await page.keyboard.press('Enter');
    await frame.getByText('Thank you, your vote is counted.').waitFor();
    await frame
      .getByTestId('embed-total')
      .getByText(`${before + 1} votes`)
      .waitFor();
    expect(await frame.getByTestId('embed-vote').count()).to.equal(0);
    await expectAccessible(page, 'the poll embed after voting, phone');
    await screenshotBoth(page, 'poll-embed');
  });

  it('is small and fits a narrow frame: axe clean and no sideways scroll at 375 px', async () => {
    const page = await c.newPage({ phone: true });
    const scripts: string[] = [];
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await page.goto(`/p/${poll.id}/embed`);
    await page.getByRole('heading', { level: 1, name: 'Team lunch' }).waitFor();
    await page.getByTestId('embed-total').waitFor();
    await expectAccessible(page, 'poll embed page');
    await expectNoOverflow(page, 'poll embed page');
    // Its own lazy chunk; none of the voting or results pages' code.
    expect(scripts.some((s) => /\/assets\/EmbedPage-[\w-]+\.js$/.test(s))).to.equal(true);
    expect(scripts.filter((s) => /\/assets\/(VotePage|ResultsPage|ConsoleLayout)-/.test(s))).to.deep.equal(
      [],
    );
  });

  it('is refused by the browser in a frame on a site the poll does not name, as every other page is', async () => {
    const other = await createPoll(c.baseUrl, owner.token, twoSectionPoll({}, 'Not for embedding'));
    const page = await c.newPage();
    const refusals: string[] = [];
    page.on('console', (m) => {
      if (/frame-ancestors|X-Frame-Options/i.test(m.text())) refusals.push(m.text());
    });
    for (const path of [`/p/${other.id}/embed`, `/p/${poll.id}`, `/p/${poll.id}/results`]) {
      refusals.length = 0;
      await page.goto(site.frame(`${c.baseUrl}${path}`));
      const deadline = Date.now() + 15_000;
      while (!refusals.length && Date.now() < deadline) await page.waitForTimeout(100);
      expect(refusals, path).to.have.length.greaterThan(0);
      const frame = await (await page.locator('iframe#poll').elementHandle())!.contentFrame();
      expect(await frame!.locator('#root').count(), path).to.equal(0);
    }
  });

  it("lets the owner name the sites in the poll's settings and copy the iframe code from the share dialog", async () => {
    const mine = await createPoll(c.baseUrl, owner.token, twoSectionPoll({}, 'Share and embed'));
    const page = await c.newPage();
    await signInThroughPage(page, owner, `/polls/${mine.id}/edit`);
    const field = page.getByRole('textbox', { name: 'Sites that may embed this poll' });
    await field.fill('https://news.example.org\nnews.example.org/polls');
    await page.getByRole('button', { name: 'Save the changes' }).click();
    await page.getByText('“news.example.org/polls” is not a site address').waitFor();
    await expectAccessible(page, 'poll editor: a wrong embed site');
    await field.fill(`https://news.example.org\n${site.origin}/`);
    await page.getByRole('button', { name: 'Save the changes' }).click();
    await page.waitForURL((u) => u.pathname === '/polls');
    // The "saved" notice goes by itself (its close button has no name: a console-wide axe finding).
    await page.locator('.mantine-Notification-root').first().waitFor({ state: 'detached', timeout: 15_000 });
    const saved = await request(c.baseUrl).get(`/api/polls/${mine.id}`).expect(200);
    expect(saved.body.data.settings.embed_origins).to.deep.equal(['https://news.example.org', site.origin]);

    const card = page.getByRole('article', { name: 'Share and embed' });
    await card.getByRole('button', { name: 'Share Share and embed: link and QR code' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share "Share and embed"' });
    await dialog.getByRole('heading', { name: 'Embed on a website' }).waitFor();
    const snippet = await dialog.getByTestId('embed-snippet').innerText();
    expect(snippet).to.equal(
      `<iframe src="${c.baseUrl}/p/${mine.id}/embed" title="Share and embed" width="100%" height="480" style="border:0;max-width:100%" loading="lazy"></iframe>`,
    );
    await dialog
      .getByTestId('embed-allowed')
      .getByText(`Allowed sites: https://news.example.org, ${site.origin}`)
      .waitFor();
    await dialog.getByRole('button', { name: 'Copy the code' }).click();
    await dialog.getByRole('button', { name: 'Copied' }).first().waitFor();
    await expectAccessible(page, 'share dialog with the embed code');
    await screenshotBoth(page, 'poll-share-embed');
  });
});
