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
  frame: (src: string, height?: number) => string;
  close: () => Promise<void>;
}> {
  let src = '';
  let height = 620;
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
        '<title>Local news</title><style>body{font-family:sans-serif;margin:0;padding:12px}iframe{display:block}</style></head>' +
        '<body><main><h1>Local news</h1><p>Readers choose where the team lunch goes.</p>' +
        `<iframe id="poll" src="${src}" title="Poll: Team lunch" width="100%" height="${height}" style="border:1px solid #ccc;max-width:100%" loading="lazy"></iframe>` +
        '</main></body></html>',
    );
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    frame: (s, h = 620) => {
      src = s;
      height = h;
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

/** A multiple and a ranked section (docs/polls.md, "Section kinds"), framed by `origin`. */
const kindsPoll = (origin: string) => ({
  title: 'Club weekend',
  sections: [
    {
      title: 'Activities',
      kind: 'multiple',
      min_choices: 1,
      max_choices: 2,
      options: [{ label: 'Hike' }, { label: 'Boat trip' }, { label: 'Museum' }],
    },
    { title: 'Dinner', kind: 'ranked', options: [{ label: 'Thai' }, { label: 'Pizza' }, { label: 'Tapas' }] },
  ],
  settings: { embed_origins: [origin] },
});

/** A meeting section of three slots, framed by `origin`. */
const meetingPoll = (origin: string) => ({
  title: 'Planning call',
  sections: [
    {
      title: 'When can you join?',
      kind: 'meeting',
      options: [
        { label: 'Monday morning', starts_at: '2030-01-07T09:00:00Z', ends_at: '2030-01-07T10:00:00Z' },
        { label: 'Tuesday afternoon', starts_at: '2030-01-08T13:00:00Z', ends_at: '2030-01-08T14:00:00Z' },
        { label: 'Friday lunch', starts_at: '2030-01-11T12:00:00Z', ends_at: '2030-01-11T13:00:00Z' },
      ],
    },
  ],
  settings: { embed_origins: [origin] },
});

/** The name of the element focused in the frame (a string script: no DOM types here). */
const focusedName = (frame: Frame) =>
  frame.evaluate<string>(
    `document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? ''`,
  );

/** The poll's results as the service reports them. */
const resultsOf = async (baseUrl: string, pollId: string) =>
  (await request(baseUrl).get(`/api/polls/${pollId}/results`).expect(200)).body.data as {
    total_votes: number;
    section_results: Array<{
      section_id: string;
      counts?: Record<string, number>;
      first_preferences?: Record<string, number>;
      instant_runoff?: { winner: string | null };
      slots?: Array<{ option_id: string; yes: number; if_need_be: number; no: number }>;
      final_option_id?: string | null;
    }>;
  };

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

    // The reader comes back to the host page: the frame may not keep anything (third-party
    // storage is blocked here), yet it knows this browser has voted and offers no ballot.
    await page.reload();
    const again = await embedFrame(page, poll.id);
    await again.getByTestId('embed-already-voted').getByText('You have voted on this poll.').waitFor();
    expect(await again.getByTestId('embed-vote').count()).to.equal(0);
    expect(await again.getByRole('link', { name: 'Vote on Fieldhouse' }).count()).to.equal(0);
    await expectAccessible(page, 'the poll embed, back after voting');
  });

  it('votes in place for multiple and ranked sections by keyboard: what is missing said next to Vote, then the counts', async () => {
    const kinds = await createPoll(c.baseUrl, owner.token, kindsPoll(site.origin));
    const [multiple, ranked] = kinds.sections as [TestPoll['sections'][0], TestPoll['sections'][0]];
    const id = (section: TestPoll['sections'][0], label: string) =>
      section.options.find((o) => o.label === label)!.id;
    // Two voted elsewhere: Hike and Boat trip, Pizza then Thai; Museum, Thai then Pizza.
    const elsewhere = (fingerprint: string, chosen: string[], ranking: string[]) =>
      request(c.baseUrl)
        .post(`/api/polls/${kinds.id}/vote`)
        .send({
          votes: {},
          answers: {
            [multiple.id]: chosen.map((l) => id(multiple, l)),
            [ranked.id]: ranking.map((l) => id(ranked, l)),
          },
          voter_fingerprint: fingerprint,
        })
        .expect(201);
    await elsewhere('embed-kinds-1', ['Hike', 'Boat trip'], ['Pizza', 'Thai']);
    await elsewhere('embed-kinds-2', ['Museum'], ['Thai', 'Pizza']);

    const page = await c.newPage({ phone: true });
    const scripts: string[] = [];
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await page.goto(site.frame(`${c.baseUrl}/p/${kinds.id}/embed`, 1250));
    const frame = await embedFrame(page, kinds.id);
    await frame.getByRole('group', { name: 'Dinner' }).waitFor();
    await frame.getByTestId('embed-total').getByText('2 votes').waitFor();
    expect(await frame.getByText('Vote on Fieldhouse').count(), 'no link out: the vote is here').to.equal(0);
    // Pizza and Thai one first preference each, Tapas none: a tie after Tapas goes.
    await frame.getByRole('region', { name: 'Dinner' }).getByText('Tie: Thai, Pizza').waitFor();
    // The kinds' widgets come in their own chunk, fetched for this poll.
    expect(scripts.filter((p) => /\/assets\/KindSection-[\w-]+\.js$/.test(p))).to.have.length(1);

    // Vote with nothing chosen: each section says what it needs, and so does the line by Vote.
    await frame.getByTestId('embed-vote').focus();
    await page.keyboard.press('Enter');
    await frame.getByTestId('embed-vote-problem').getByText('Check the answers marked above.').waitFor();
    await frame.getByText('Choose between 1 and 2 options').first().waitFor();
    await frame.getByText('Rank at least one option').waitFor();
    expect((await resultsOf(c.baseUrl, kinds.id)).total_votes, 'nothing sent').to.equal(2);
    await expectAccessible(page, 'the poll embed with kinds: what is missing, phone');

    // Checkboxes with Space, then Tab on to the next; the ranking with Enter on its buttons.
    await frame.getByRole('checkbox', { name: 'Hike' }).focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    expect(await frame.getByRole('checkbox', { name: 'Museum' }).isChecked()).to.equal(true);
    await page.keyboard.press('Tab'); // on to the ranking's first "Add"
    expect(await focusedName(frame)).to.equal('Add Thai to your order, at rank 1');
    await frame.getByRole('button', { name: 'Add Tapas to your order, at rank 1' }).focus();
    await page.keyboard.press('Enter');
    await frame.getByRole('button', { name: 'Add Thai to your order, at rank 2' }).focus();
    await page.keyboard.press('Enter');
    expect(await focusedName(frame)).to.equal('Move Thai up (now rank 2)');
    await page.keyboard.press('Enter');
    await frame.getByText('Thai is now rank 1').waitFor();
    expect(await frame.getByTestId('embed-vote-problem').count(), 'the line goes once answered').to.equal(0);
    await expectAccessible(page, 'the poll embed with kinds, filled in, phone');
    await screenshotBoth(page, 'poll-embed-kinds-vote');

    await frame.getByTestId('embed-vote').focus();
    await page.keyboard.press('Enter');
    await frame.getByText('Thank you, your vote is counted.').waitFor();
    await frame.getByTestId('embed-total').getByText('3 votes').waitFor();

    // The service counted the ballot as given...
    const results = await resultsOf(c.baseUrl, kinds.id);
    const of = (sectionId: string) => results.section_results.find((r) => r.section_id === sectionId)!;
    expect(of(multiple.id).counts).to.deep.equal({
      [id(multiple, 'Hike')]: 2,
      [id(multiple, 'Boat trip')]: 1,
      [id(multiple, 'Museum')]: 2,
    });
    expect(of(ranked.id).first_preferences).to.deep.equal({
      [id(ranked, 'Thai')]: 2,
      [id(ranked, 'Pizza')]: 1,
      [id(ranked, 'Tapas')]: 0,
    });
    // Thai first on 2 ballots of 3: a majority, the instant-runoff winner.
    expect(of(ranked.id).instant_runoff!.winner).to.equal(id(ranked, 'Thai'));
    // ...and the frame shows it: the multiple section as shares of the 3 ballots (more than 100 %
    // in all: each voter may choose several), the ranked one's first preferences and its winner.
    const activities = frame.getByRole('region', { name: 'Activities' });
    expect(await activities.getByTestId('embed-count').allInnerTexts()).to.deep.equal([
      '2 (67 %)',
      '1 (33 %)',
      '2 (67 %)',
    ]);
    await activities.getByText('Share of the ballots: each voter may choose several').waitFor();
    const dinner = frame.getByRole('region', { name: 'Dinner' });
    await dinner.getByText('First preferences').waitFor();
    expect(await dinner.getByTestId('embed-count').allInnerTexts()).to.deep.equal([
      '2 (67 %)',
      '1 (33 %)',
      '0 (0 %)',
    ]);
    expect(await dinner.getByTestId('embed-winner').innerText()).to.equal('Instant-runoff winner: Thai');
    expect(await frame.getByTestId('embed-vote').count()).to.equal(0);
    await expectAccessible(page, 'the poll embed with kinds after voting, phone');
    await expectNoOverflow(page, 'the news page framing the poll embed with kinds, phone');
    await screenshotBoth(page, 'poll-embed-kinds');
  });

  it('votes in place on a meeting poll, shows each slot’s answers live and the final slot once picked', async () => {
    const meeting = await createPoll(c.baseUrl, owner.token, meetingPoll(site.origin));
    const section = meeting.sections[0]!;
    const id = (label: string) => section.options.find((o) => o.label === label)!.id;
    await request(c.baseUrl)
      .post(`/api/polls/${meeting.id}/vote`)
      .send({
        votes: {},
        answers: { [section.id]: { [id('Monday morning')]: 'yes', [id('Tuesday afternoon')]: 'if_need_be' } },
        voter_fingerprint: 'embed-meeting-1',
      })
      .expect(201);

    const page = await c.newPage();
    await page.goto(site.frame(`${c.baseUrl}/p/${meeting.id}/embed`, 1100));
    const frame = await embedFrame(page, meeting.id);
    const monday = frame.getByRole('group', { name: /^Monday morning/ });
    await monday.waitFor();
    await frame.getByTestId('embed-total').getByText('1 vote').waitFor();
    // Each slot by keyboard: Space on Yes; arrows within a slot's group.
    await monday.getByRole('radio', { name: 'Yes' }).focus();
    await page.keyboard.press('Space');
    await frame
      .getByRole('group', { name: /^Friday lunch/ })
      .getByRole('radio', { name: 'Yes' })
      .focus();
    await page.keyboard.press('ArrowRight'); // Yes -> If need be
    expect(
      await frame
        .getByRole('group', { name: /^Friday lunch/ })
        .getByRole('radio', { name: 'If need be' })
        .isChecked(),
    ).to.equal(true);
    await expectAccessible(page, 'the meeting poll embed with its grid');
    await screenshotBoth(page, 'poll-embed-meeting-vote');
    await frame.getByTestId('embed-vote').focus();
    await page.keyboard.press('Enter');
    await frame.getByText('Thank you, your vote is counted.').waitFor();
    await frame.getByTestId('embed-total').getByText('2 votes').waitFor();

    const slots = (await resultsOf(c.baseUrl, meeting.id)).section_results[0]!.slots!;
    const slot = (label: string) => slots.find((s) => s.option_id === id(label))!;
    expect(slot('Monday morning')).to.include({ yes: 2, if_need_be: 0, no: 0 });
    expect(slot('Tuesday afternoon')).to.include({ yes: 0, if_need_be: 1, no: 1 }); // left as it was: no
    expect(slot('Friday lunch')).to.include({ yes: 0, if_need_be: 1, no: 1 });
    // Best first, each slot's yes and if need be.
    expect(await frame.getByTestId('embed-slot').first().innerText()).to.match(/^Monday morning\s/);
    expect(await frame.getByTestId('embed-slot-counts').allInnerTexts()).to.deep.equal([
      '2 yes · 0 if need be',
      '0 yes · 1 if need be',
      '0 yes · 1 if need be',
    ]);
    await frame.getByTestId('embed-best').getByText('Best slot so far: Monday morning').waitFor();

    // The owner picks the final slot: the frame says it without a reload.
    await request(c.baseUrl)
      .post(`/api/polls/${meeting.id}/sections/${section.id}/final-slot`)
      .auth(owner.token, { type: 'bearer' })
      .send({ option_id: id('Monday morning') })
      .expect(200);
    await frame.getByTestId('embed-final').getByText('Chosen slot: Monday morning').waitFor();
    await frame.getByTestId('embed-slot').first().getByText('Chosen').waitFor();
    await expectAccessible(page, 'the meeting poll embed with its final slot');
    await screenshotBoth(page, 'poll-embed-meeting');
  });

  it('says a refused vote next to the button in the reader’s language (French): the poll closed meanwhile', async () => {
    const meeting = await createPoll(c.baseUrl, owner.token, meetingPoll(site.origin));
    const page = await c.newPage({ locale: 'fr-FR', phone: true });
    await page.goto(site.frame(`${c.baseUrl}/p/${meeting.id}/embed`, 900));
    const frame = await embedFrame(page, meeting.id);
    await frame
      .getByRole('group', { name: /^Monday morning/ })
      .getByRole('radio', { name: 'Oui' })
      .check();
    // The owner closes the poll while the reader answers: the service refuses the vote.
    await request(c.baseUrl)
      .post(`/api/polls/${meeting.id}/close`)
      .auth(owner.token, { type: 'bearer' })
      .expect(200);
    await frame.getByRole('button', { name: 'Voter' }).click();
    await frame.getByTestId('embed-vote-problem').getByText("Ce sondage n'est pas ouvert au vote.").waitFor();
    expect((await resultsOf(c.baseUrl, meeting.id)).total_votes).to.equal(0);
    await expectAccessible(page, 'the poll embed in French with a refused vote, phone');
    await expectNoOverflow(page, 'the poll embed in French, phone');
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
    // Nor the kinds' widgets: this poll's sections are all single.
    expect(
      scripts.filter((s) => /\/assets\/(VotePage|ResultsPage|ConsoleLayout|KindSection)-/.test(s)),
    ).to.deep.equal([]);
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
