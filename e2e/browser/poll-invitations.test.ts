import { expect } from 'chai';
import { registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { expectNoOverflow } from './support/overflow.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';
import { createPoll, twoSectionPoll } from './support/vote-polls.ts';

type User = Awaited<ReturnType<typeof registerUser>>;

/**
 * Invited voters and anonymous but verified ballots in the console (issue 37, parts 4 and 5;
 * docs/polls.md, "Invited voters", "Anonymous but verified"): the owner pastes addresses and
 * sees who voted, an invitee votes with the link of their e-mail and checks their receipt in the
 * published list, a used link says "You have voted" on arriving (before any Vote press), a
 * withdrawn or unknown link says so before any ballot, the owner sends a reminder. Real
 * Chromium, axe, the phone width.
 */
describe('console: invited voters, anonymous ballots and receipts (browser)', function () {
  this.timeout(180_000);
  let c: ConsoleStack;
  let owner: User;
  before(async () => {
    c = await startConsoleStack();
    owner = await registerUser(c.baseUrl, 'Owner');
  });
  after(async () => c?.stop());

  /** The token of the newest invitation or reminder e-mailed to `to`, once the worker sent it. */
  const tokenFor = async (to: string, count = 1) => {
    await c.sink.waitFor(
      () => c.sink.messages().filter((m) => m.envelope.to.includes(to)).length >= count,
      15_000,
    );
    const mail = c.sink.messages().filter((m) => m.envelope.to.includes(to))[count - 1]!;
    const m = /#invite=([A-Za-z0-9_-]+)/.exec(mail.text);
    expect(m, mail.text).to.not.equal(null);
    return { token: m![1]!, subject: mail.subject };
  };

  it('the owner invites by pasting addresses, an invitee votes with their link and checks the receipt; reminders', async () => {
    const poll = await createPoll(
      c.baseUrl,
      owner.token,
      twoSectionPoll({ voters: 'invited', anonymous: true }, 'Board election'),
    );
    const ownerPage = await c.newPage();
    await signInThroughPage(ownerPage, owner, `/polls/${poll.id}/edit`);
    const panel = ownerPage.getByTestId('invitees-panel');
    await panel.waitFor();
    await panel
      .getByRole('textbox', { name: 'Invite by e-mail' })
      .fill('ann@example.test, Ben Rossi <ben@example.test>\nnot-an@address');
    await panel.getByRole('button', { name: 'Send invitations' }).click();
    await panel.getByText('These are not e-mail addresses: not-an@address').waitFor();
    await panel
      .getByRole('textbox', { name: 'Invite by e-mail' })
      .fill('ann@example.test, Ben Rossi <ben@example.test>');
    await panel.getByRole('button', { name: 'Send invitations' }).click();
    await panel.getByText('2 invitations sent; 0 already invited.').waitFor();
    await panel.getByTestId('invitee').nth(1).waitFor();
    expect(await panel.getByTestId('invitee').count()).to.equal(2);
    await panel.getByText('0 voted, 2 not voted yet, 0 withdrawn').waitFor();
    await expectAccessible(ownerPage, 'poll editor: invited voters');

    // Ann opens her personal link on a phone.
    const { token, subject } = await tokenFor('ann@example.test');
    expect(subject).to.equal('You are invited to vote: "Board election"');
    const voter = await c.newPage({ phone: true });
    await voter.goto(`/p/${poll.id}#invite=${token}`);
    await voter.getByText('Your ballot is anonymous: it is kept apart', { exact: false }).waitFor();
    await voter.getByRole('radio', { name: 'Noodle bar' }).check();
    await voter.getByRole('radio', { name: '1 pm' }).check();
    await voter.getByRole('button', { name: 'Vote', exact: true }).click();
    await voter.getByTestId('ballot-counted').waitFor();
    const receipt = (await voter.getByTestId('receipt').innerText()).trim();
    expect(receipt).to.match(/^[0-9a-f-]{36}$/);
    await voter.getByRole('button', { name: 'Check my receipt in the published list' }).click();
    await voter.getByTestId('receipt-checked').waitFor();
    await expectAccessible(voter, 'voting page: receipt');
    await expectNoOverflow(voter, 'voting page: receipt');
    await screenshotBoth(voter, 'vote-invitation-receipt');
    // The receipt is in the published list.
    const list = await voter.evaluate<{ data: { ballot_ids: string[] } }>(
      `fetch('/api/polls/${poll.id}/ballot-ids').then((r) => r.json())`,
    );
    expect(list.data.ballot_ids).to.deep.equal([receipt]);

    // The same link again: "You have voted" on arriving, before any Vote press (POST
    // .../invitation), the hour only (the ballot is anonymous), and the receipt check by pasting.
    const again = await c.newPage({ phone: true });
    await again.goto(`/p/${poll.id}#invite=${token}`);
    const voted = again.getByTestId('already-voted');
    await voted.getByText('You have voted', { exact: true }).waitFor();
    await voted
      .getByText('Your ballot is anonymous: the poll keeps only that you voted, in the hour from', {
        exact: false,
      })
      .waitFor();
    expect(await again.getByRole('radio', { name: 'Pizzeria' }).count()).to.equal(0);
    expect(await again.getByRole('button', { name: 'Vote', exact: true }).count()).to.equal(0);
    const pasted = again.getByRole('textbox', { name: 'Your receipt (ballot id)' });
    await pasted.fill('00000000-0000-4000-8000-000000000000');
    await again.getByRole('button', { name: 'Check my receipt in the published list' }).click();
    await again.getByTestId('receipt-missing').waitFor();
    await pasted.fill(receipt);
    await again.getByRole('button', { name: 'Check my receipt in the published list' }).click();
    await again.getByTestId('receipt-checked').waitFor();
    await expectAccessible(again, 'voting page: a used invitation link');
    await expectNoOverflow(again, 'voting page: a used invitation link');
    await screenshotBoth(again, 'vote-invitation-used');
    // Without a link: what to do.
    await again.goto(`/p/${poll.id}`);
    await again.getByText('Open the personal link from your invitation e-mail to vote.').waitFor();
    await expectAccessible(again, 'voting page: no invitation link');

    // The owner sees that Ann voted (not how) and reminds Ben.
    await ownerPage.reload();
    await panel.getByText('1 voted, 1 not voted yet, 0 withdrawn').waitFor();
    const annRow = panel.getByTestId('invitee').filter({ hasText: 'ann@example.test' });
    await annRow.getByText('Voted', { exact: true }).waitFor();
    expect(await panel.innerText()).to.not.contain(receipt);
    await panel.getByRole('button', { name: 'Send a reminder to those who have not voted' }).click();
    await panel.getByText('1 reminder sent.').waitFor();
    const reminder = await tokenFor('ben@example.test', 2);
    expect(reminder.subject).to.equal('Reminder: your vote on "Board election"');
    expect(c.sink.messages().filter((m) => m.envelope.to.includes('ann@example.test'))).to.have.length(1);
    await expectAccessible(ownerPage, 'poll editor: invited voters after a vote');
    await panel.scrollIntoViewIfNeeded();
    await screenshotBoth(ownerPage, 'poll-invitees');
  });

  it('signed-in users: an anonymous ballot with its receipt; back on the page, "you have voted" before any Vote press', async () => {
    const poll = await createPoll(
      c.baseUrl,
      owner.token,
      twoSectionPoll({ access: 'authenticated', anonymous: true }, 'Staff survey'),
    );
    const voter = await registerUser(c.baseUrl, 'Dana');
    const page = await c.newPage();
    await signInThroughPage(page, voter, `/p/${poll.id}`);
    await page.getByText('your account goes in the list of who voted', { exact: false }).waitFor();
    await page.getByRole('radio', { name: 'Salad place' }).check();
    await page.getByRole('radio', { name: 'Noon' }).check();
    await page.getByRole('button', { name: 'Vote', exact: true }).click();
    await page.getByTestId('ballot-counted').waitFor();
    await page.getByRole('button', { name: 'Check my receipt in the published list' }).click();
    await page.getByTestId('receipt-checked').waitFor();
    await expectAccessible(page, 'voting page: signed-in anonymous receipt');
    const receipt = (await page.getByTestId('receipt').innerText()).trim();
    // Back on the page: "You have voted" on arriving (GET .../my-ballot reads the register), no
    // ballot to press Vote on, and the receipt check by pasting.
    await page.reload();
    const voted = page.getByTestId('already-voted');
    await voted.getByText('You have voted', { exact: true }).waitFor();
    await voted.getByText('Your ballot is anonymous', { exact: false }).waitFor();
    expect(await page.getByRole('radio', { name: 'Pizzeria' }).count()).to.equal(0);
    expect(await page.getByRole('button', { name: 'Vote', exact: true }).count()).to.equal(0);
    await page.getByRole('textbox', { name: 'Your receipt (ballot id)' }).fill(receipt);
    await page.getByRole('button', { name: 'Check my receipt in the published list' }).click();
    await page.getByTestId('receipt-checked').waitFor();
    await expectAccessible(page, 'voting page: signed-in anonymous, voted');
  });

  it('a poll for invitees that is not anonymous: a used link shows the ballot; withdrawn and unknown links say so before any ballot; closed, still "you have voted"', async () => {
    const poll = await createPoll(
      c.baseUrl,
      owner.token,
      twoSectionPoll({ voters: 'invited' }, 'Office move'),
    );
    const api = (path: string, init: { method?: string; body?: unknown } = {}) =>
      fetch(`${c.baseUrl}/api/polls/${poll.id}${path}`, {
        method: init.method ?? 'GET',
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
        ...(init.body ? { body: JSON.stringify(init.body) } : {}),
      });
    expect(
      (
        await api('/invitees', {
          method: 'POST',
          body: { emails: ['gil@example.test', 'hana@example.test'] },
        })
      ).status,
    ).to.equal(201);
    const gil = await tokenFor('gil@example.test');
    const hana = await tokenFor('hana@example.test');
    const page = await c.newPage();
    await page.goto(`/p/${poll.id}#invite=${gil.token}`);
    await page
      .getByText("the poll's owner sees your e-mail address with your choices", { exact: false })
      .waitFor();
    await page.getByRole('radio', { name: 'Noodle bar' }).check();
    await page.getByRole('radio', { name: '1 pm' }).check();
    await page.getByRole('button', { name: 'Vote', exact: true }).click();
    await page.getByTestId('ballot-counted').waitFor();
    const receipt = (await page.getByTestId('receipt').innerText()).trim();
    // Reopened: "You have voted" with the ballot itself (the design links it to the invitation).
    await page.reload();
    const voted = page.getByTestId('already-voted');
    await voted.getByText('You have voted', { exact: true }).waitFor();
    await voted.getByText('Your invitation was used: it takes one ballot.').waitFor();
    await voted.getByText('Where: Noodle bar').waitFor();
    await voted.getByText('When: 1 pm').waitFor();
    await voted.getByText('as gil@example.test', { exact: false }).waitFor();
    expect(await page.getByRole('radio', { name: 'Pizzeria' }).count()).to.equal(0);
    // Its receipt (the ballot's id) is filled in, ready to check.
    expect(await page.getByRole('textbox', { name: 'Your receipt (ballot id)' }).inputValue()).to.equal(
      receipt,
    );
    await page.getByRole('button', { name: 'Check my receipt in the published list' }).click();
    await page.getByTestId('receipt-checked').waitFor();
    await expectAccessible(page, 'voting page: a used invitation link, not anonymous');

    // Hana's invitation withdrawn: said on arriving, no ballot shown.
    const list = (await (await api('/invitees')).json()) as { data: Array<{ id: string; email: string }> };
    const hanaId = list.data.find((i) => i.email === 'hana@example.test')!.id;
    expect((await api(`/invitees/${hanaId}`, { method: 'DELETE' })).status).to.equal(200);
    const other = await c.newPage({ phone: true });
    await other.goto(`/p/${poll.id}#invite=${hana.token}`);
    await other.getByTestId('invitation-refused').getByText('This invitation was withdrawn').waitFor();
    expect(await other.getByRole('radio', { name: 'Pizzeria' }).count()).to.equal(0);
    await expectAccessible(other, 'voting page: a withdrawn invitation link');
    await expectNoOverflow(other, 'voting page: a withdrawn invitation link');
    // A link of no invitation (cut short): said on arriving.
    await other.goto(`/p/${poll.id}#invite=${hana.token.slice(0, 10)}`);
    await other.reload();
    await other.getByTestId('invitation-refused').getByText('This invitation link is not valid').waitFor();
    expect(await other.getByRole('radio', { name: 'Pizzeria' }).count()).to.equal(0);

    // Once the poll is closed the used link still says "You have voted".
    expect((await api('/close', { method: 'POST' })).status).to.equal(200);
    await page.reload();
    await page.getByTestId('already-voted').getByText('You have voted', { exact: true }).waitFor();
  });

  it('French: the voting page of an invitation and its receipt', async () => {
    const poll = await createPoll(
      c.baseUrl,
      owner.token,
      twoSectionPoll({ voters: 'invited', anonymous: true }),
    );
    const res = await fetch(`${c.baseUrl}/api/polls/${poll.id}/invitees`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${owner.token}`,
        'content-type': 'application/json',
        'accept-language': 'fr',
      },
      body: JSON.stringify({ emails: ['chloe@example.test'] }),
    });
    expect(res.status).to.equal(201);
    const { token, subject } = await tokenFor('chloe@example.test');
    expect(subject).to.equal('Vous êtes invité(e) à voter : « Team lunch »');
    const page = await c.newPage({ locale: 'fr-FR' });
    await page.goto(`/p/${poll.id}#invite=${token}`);
    await page.getByText('Votre bulletin est anonyme : il est gardé à part', { exact: false }).waitFor();
    await page.getByRole('radio', { name: 'Pizzeria' }).check();
    await page.getByRole('radio', { name: 'Noon' }).check();
    await page.getByRole('button', { name: 'Voter', exact: true }).click();
    await page.getByText('Votre bulletin a été compté').waitFor();
    await page.getByRole('button', { name: 'Vérifier mon reçu dans la liste publiée' }).click();
    await page.getByText('Votre bulletin figure dans la liste publiée', { exact: false }).waitFor();
    await expectAccessible(page, 'voting page: receipt (French)');
    await page.reload();
    await page.getByTestId('already-voted').getByText('Vous avez voté', { exact: true }).waitFor();
    await page
      .getByText('Votre bulletin est anonyme : le sondage garde seulement', { exact: false })
      .waitFor();
    await page.getByRole('textbox', { name: 'Votre reçu (identifiant du bulletin)' }).waitFor();
    await expectAccessible(page, 'voting page: a used invitation link (French)');
  });
});
