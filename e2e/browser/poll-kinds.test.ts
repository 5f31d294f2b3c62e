import { expect } from 'chai';
import request from 'supertest';
import type { Page } from 'playwright-core';
import { registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';
import { createPoll, type TestPoll } from './support/vote-polls.ts';

type User = Awaited<ReturnType<typeof registerUser>>;

/** One section of each kind that is not single (docs/polls.md, "Section kinds"). */
const kindsPoll = () => ({
  title: 'Team offsite',
  description: 'Pick what suits you.',
  sections: [
    {
      title: 'Activities',
      kind: 'multiple',
      min_choices: 1,
      max_choices: 2,
      options: [{ label: 'Hike' }, { label: 'Boat trip' }, { label: 'Museum' }],
    },
    { title: 'Dinner', kind: 'ranked', options: [{ label: 'Thai' }, { label: 'Pizza' }, { label: 'Tapas' }] },
    {
      title: 'Kick-off call',
      kind: 'meeting',
      options: [
        { label: 'Monday morning', starts_at: '2030-01-07T09:00:00Z', ends_at: '2030-01-07T10:00:00Z' },
        { label: 'Tuesday afternoon', starts_at: '2030-01-08T13:00:00Z', ends_at: '2030-01-08T14:00:00Z' },
      ],
    },
  ],
});

/** The name of the focused element (a string script: no DOM types here). */
const focusedName = (page: Page) =>
  page.evaluate<string>(
    `document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? ''`,
  );

describe('console: section kinds, multiple, ranked and meeting (browser)', function () {
  this.timeout(360_000);
  let c: ConsoleStack;
  let owner: User;
  let poll: TestPoll;
  before(async () => {
    c = await startConsoleStack();
    owner = await registerUser(c.baseUrl, 'Owner');
    poll = await createPoll(c.baseUrl, owner.token, kindsPoll());
  });
  after(async () => c?.stop());

  it('votes with checkboxes, a ranking made with the keyboard only, and the meeting grid', async () => {
    const page = await c.newPage();
    await page.goto(`/p/${poll.id}`);
    await page.getByRole('group', { name: 'Dinner' }).waitFor();
    await expectAccessible(page, 'voting page: section kinds');

    // Nothing chosen: each section says what it needs, nothing is sent.
    await page.getByRole('button', { name: 'Vote', exact: true }).click();
    await page.getByText('Choose between 1 and 2 options').first().waitFor();
    await page.getByText('Rank at least one option').waitFor();

    await page.getByRole('checkbox', { name: 'Hike' }).check();
    await page.getByRole('checkbox', { name: 'Museum' }).check();

    // The ranking, by keyboard: Enter on "Add", focus follows the moved option.
    await page.getByRole('button', { name: 'Add Pizza to your order, at rank 1' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Add Thai to your order, at rank 2' }).focus();
    await page.keyboard.press('Enter');
    expect(await focusedName(page)).to.equal('Move Thai up (now rank 2)');
    await page.keyboard.press('Enter'); // Thai up to rank 1, the focus stays on its button
    await page.getByText('Thai is now rank 1').waitFor();
    const ranking = page.getByRole('list', { name: 'Your order' });
    expect(await ranking.getByRole('listitem').allInnerTexts()).to.have.length(2);
    expect((await ranking.getByRole('listitem').first().innerText()).replace(/\s+/g, ' ')).to.match(
      /^1\. Thai/,
    );

    await page
      .getByRole('group', { name: /Monday morning/ })
      .getByRole('radio', { name: 'Yes' })
      .check();
    await page
      .getByRole('group', { name: /Tuesday afternoon/ })
      .getByRole('radio', { name: 'If need be' })
      .check();
    await expectAccessible(page, 'voting page: section kinds answered');
    await screenshotBoth(page, 'vote-kinds');

    const answer = page.waitForResponse(
      (r) => r.request().method() === 'POST' && /\/api\/polls\/[^/]+\/vote$/.test(r.url()),
    );
    await page.getByRole('button', { name: 'Vote', exact: true }).click();
    const sent = await answer;
    expect(sent.status()).to.equal(201);
    const body = sent.request().postDataJSON() as { answers: Record<string, unknown> };
    const [multiple, ranked, meeting] = poll.sections;
    const ids = (s: typeof multiple, labels: string[]) =>
      labels.map((l) => s!.options.find((o) => o.label === l)!.id);
    expect(body.answers[ranked!.id]).to.deep.equal(ids(ranked, ['Thai', 'Pizza']));
    expect(body.answers[multiple!.id]).to.have.members(ids(multiple, ['Hike', 'Museum']));
    expect(body.answers[meeting!.id]).to.deep.equal({
      [meeting!.options[0]!.id]: 'yes',
      [meeting!.options[1]!.id]: 'if_need_be',
    });
    await page.getByTestId('vote-counted').waitFor();
  });

  it('shows the instant-runoff rounds, the Borda count and the meeting ranking; the owner picks the slot and gets the .ics', async () => {
    const [multiple, ranked, meeting] = poll.sections;
    const id = (s: typeof ranked, label: string) => s!.options.find((o) => o.label === label)!.id;
    // With the first vote (Thai, Pizza): Thai 2, Pizza 1, Tapas 2 first; Pizza goes, its ballot to Thai.
    const more: Array<[string[], Record<string, string>]> = [
      [['Tapas'], { 'Monday morning': 'yes' }],
      [['Pizza', 'Thai'], { 'Tuesday afternoon': 'yes' }],
      [['Tapas', 'Pizza'], { 'Monday morning': 'if_need_be', 'Tuesday afternoon': 'yes' }],
    ];
    for (const [i, [order, slots]] of more.entries())
      await request(c.baseUrl)
        .post(`/api/polls/${poll.id}/vote`)
        .send({
          voter_fingerprint: `browser-kinds-${i}-${poll.id}`,
          answers: {
            [multiple!.id]: [id(multiple, 'Boat trip')],
            [ranked!.id]: order.map((l) => id(ranked, l)),
            [meeting!.id]: Object.fromEntries(Object.entries(slots).map(([l, a]) => [id(meeting, l), a])),
          },
        })
        .expect(201);
    const page = await c.newPage();
    await signInThroughPage(page, owner, `/p/${poll.id}/results`);
    await page.getByTestId('irv-winner').waitFor();
    // Thai 1 + Pizza 1 + Tapas 2: the lowest two (2) are not fewer than Tapas's 2, so one goes:
    // Thai and Pizza tie, broken by the earlier rounds (none), then Borda.
    const table = page.getByRole('table', { name: /Instant runoff, round by round/ });
    await table.waitFor();
    expect(await table.getByRole('columnheader').allInnerTexts()).to.include('Round 2');
    await page.getByTestId('irv-tie').first().waitFor();
    await page.getByRole('heading', { name: 'Borda count' }).waitFor();
    // Meeting: Tuesday 2 yes + 1 if need be beats Monday 2 yes + 1 if need be? Equal: a tie.
    await page.getByTestId('meeting-best').waitFor();
    expect(await page.getByTestId('meeting-best').innerText()).to.match(
      /Tie for the best slot: (Monday morning|Tuesday afternoon), (Monday morning|Tuesday afternoon)/,
    );
    await expectAccessible(page, 'results: section kinds');

    await page.getByRole('button', { name: 'Pick Tuesday afternoon as the final slot' }).click();
    await page.getByText('Final slot: Tuesday afternoon').waitFor();
    const href = await page.getByTestId('ics-link').getAttribute('href');
    const ics = await page.evaluate<string>(`fetch(${JSON.stringify(href)}).then((r) => r.text())`);
    expect(ics).to.include('BEGIN:VEVENT');
    expect(ics).to.include('DTSTART:20300108T130000Z');
    await expectAccessible(page, 'results: final slot picked');
    await screenshotBoth(page, 'results-kinds');
  });

  it('the editor chooses each section’s kind, min and max, and the slots’ times', async () => {
    const page = await c.newPage();
    await signInThroughPage(page, owner, '/polls/new');
    await page.getByRole('textbox', { name: 'Question or title' }).fill('Board meeting');
    await page.getByRole('textbox', { name: 'Title of section 1' }).fill('When');
    await page.getByRole('combobox', { name: 'Kind of section 1' }).selectOption('meeting');
    await page.getByRole('textbox', { name: 'Option 1 of section 1' }).fill('Monday');
    await page.getByRole('textbox', { name: 'Option 2 of section 1' }).fill('Friday');
    await page.getByLabel('Start of slot 1 of section 1').fill('2030-03-04T10:00');
    await page.getByRole('button', { name: 'Create the poll' }).click();
    await page.getByText('A meeting slot needs a start').waitFor();
    await page.getByLabel('Start of slot 2 of section 1').fill('2030-03-08T15:00');
    await page.getByRole('button', { name: 'Add a section' }).click();
    await page.getByRole('textbox', { name: 'Title of section 2' }).fill('Topics');
    await page.getByRole('combobox', { name: 'Kind of section 2' }).selectOption('multiple');
    await page.getByRole('textbox', { name: 'Option 1 of section 2' }).fill('Budget');
    await page.getByRole('textbox', { name: 'Option 2 of section 2' }).fill('Hiring');
    await page.getByRole('textbox', { name: 'Most choices in section 2' }).fill('2');
    await expectAccessible(page, 'poll editor: section kinds');
    await screenshotBoth(page, 'poll-editor-kinds');
    await page.getByRole('button', { name: 'Create the poll' }).click();
    await page.waitForURL((u) => u.pathname === '/polls');
    const list = await request(c.baseUrl).get('/api/polls').auth(owner.token, { type: 'bearer' }).expect(200);
    const created = (
      list.body.data as Array<{ title: string; sections: Array<Record<string, unknown>> }>
    ).find((p) => p.title === 'Board meeting')!;
    expect(created.sections[0]).to.include({ kind: 'meeting' });
    expect(created.sections[1]).to.include({ kind: 'multiple', min_choices: 1, max_choices: 2 });
  });
});
