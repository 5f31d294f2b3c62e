import { expect } from 'chai';
import { gatewayClient, registerUser } from '../test/support/users.ts';
import { startCollectionWorkers } from '../test/support/collection-workers.ts';
import { expectAccessible } from './support/accessibility.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';

describe('console: inviting a workspace member by e-mail before they have an account (browser)', function () {
  this.timeout(120_000);
  let c: ConsoleStack;
  let stopWorkers: () => Promise<void>;
  before(async () => {
    c = await startConsoleStack();
    stopWorkers = await startCollectionWorkers(c.stack, c.sink);
  });
  after(async () => {
    await stopWorkers?.();
    await c?.stop();
  });

  it('invites an address with no account, lists it pending, and shows the member once that address registers and is confirmed', async () => {
    const owner = await registerUser(c.baseUrl, 'Awa Owner');
    const asOwner = gatewayClient(c.baseUrl, owner.token);
    const ws = (await asOwner.post('/api/v1/workspaces').send({ name: 'Sahel survey' }).expect(201)).body.data
      .id as number;
    const page = await c.newPage();
    await signInThroughPage(page, owner, `/workspaces/${ws}`);
    await page.getByRole('heading', { level: 1, name: 'Sahel survey' }).waitFor();

    // The sole owner is not offered "Leave" (the service would refuse it): told why instead.
    await page.getByText('You are the only owner, so you cannot leave').waitFor();
    expect(await page.getByRole('button', { name: 'Leave the workspace' }).count()).to.equal(0);

    const newcomer = `newcomer${Date.now()}@example.test`;
    const email = page.getByRole('textbox', { name: 'E-mail address' });
    await email.fill(newcomer);
    await page.getByRole('combobox', { name: 'Role', exact: true }).selectOption('manager');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByText(`Invitation sent to ${newcomer}. They join as Manager`).waitFor();
    const pending = page.getByRole('table', { name: 'Pending invitations' });
    await pending.getByRole('rowheader', { name: new RegExp(`^${newcomer}`) }).waitFor();
    await pending.getByText('Waiting until').waitFor();
    expect(await email.inputValue()).to.equal('');

    // A second invitation, revoked after a confirmation.
    await email.fill('typo@example.test');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await pending.getByRole('rowheader', { name: /^typo@example\.test/ }).waitFor();
    await page.getByRole('button', { name: 'Revoke the invitation of typo@example.test' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this invitation?' });
    await dialog.getByText('typo@example.test will not join “Sahel survey” by registering.').waitFor();
    await expectAccessible(page, 'invitation revoke dialog');
    await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await pending.getByRole('rowheader', { name: /^typo@example\.test/ }).waitFor({ state: 'detached' });
    // the form's notice about it went with it
    expect(await page.getByText('Invitation sent to typo@example.test').count()).to.equal(0);

    // Resend: a second e-mail to the same address.
    await page.getByRole('button', { name: `Resend the invitation to ${newcomer}` }).click();
    await page.getByText(`Sent again to ${newcomer}`).waitFor();
    await c.sink.waitFor(
      () => c.sink.messages().filter((m) => m.envelope.to.includes(newcomer)).length >= 2,
      15_000,
    );
    await expectAccessible(page, 'workspace with a pending invitation');
    await screenshotBoth(page, 'workspace-members');

    // In French: the same states in the user's words.
    await page.getByText('FR', { exact: true }).click();
    await page
      .getByRole('table', { name: 'Invitations en attente' })
      .getByText('En attente jusqu’au')
      .waitFor();
    await page.getByRole('button', { name: `Renvoyer l’invitation à ${newcomer}` }).waitFor();
    await page.getByText('Vous êtes le seul propriétaire et ne pouvez donc pas partir').waitFor();
    await expectAccessible(page, 'pending invitation, in French');
    await page.getByText('EN', { exact: true }).click();
    await page.getByRole('table', { name: 'Pending invitations' }).waitFor();

    // The invitee follows the e-mail's link, in another browser (a phone), and registers.
    const mail = c.sink.messages().find((m) => m.envelope.to.includes(newcomer))!;
    const link = /(https?:\/\/\S+\/register\?next=\S+)/.exec(mail.text)![1]!;
    const url = new URL(link);
    const phone = await c.newPage({ phone: true });
    await phone.goto(url.pathname + url.search);
    await phone.getByRole('textbox', { name: 'Name' }).fill('Nina Newcomer');
    await phone.getByRole('textbox', { name: 'E-mail' }).fill(newcomer);
    await phone.getByRole('textbox', { name: 'Password', exact: true }).fill('correct horse battery');
    await phone.getByRole('textbox', { name: 'Confirm the password' }).fill('correct horse battery');
    await phone.getByRole('button', { name: 'Create the account' }).click();
    await phone.waitForURL((u) => u.pathname === `/workspaces/${ws}`);
    // Not a member until the address is confirmed (anyone could register it): the page says how.
    await phone.getByText('Your e-mail address is not confirmed yet').waitFor();
    await phone
      .getByText('Invitations to workspaces sent to this address are applied once you confirm it.')
      .waitFor();
    expect(await phone.getByRole('heading', { level: 1, name: 'Sahel survey' }).count()).to.equal(0);
    await expectAccessible(phone, 'invited workspace before the address is confirmed, phone');
    await screenshotBoth(phone, 'workspace-invitation-unconfirmed');
    // The start page says it too.
    await phone.goto('/');
    await phone
      .getByText('Invitations to workspaces sent to this address are applied once you confirm it.')
      .waitFor();
    await expectAccessible(phone, 'start page, address not confirmed');
    // The gateway's e-mail: its link confirms the address, and the workspace opens.
    const confirm = await c.sink.waitFor(
      (m) => m.envelope.to.includes(newcomer) && /Confirm your e-mail address/.test(m.subject),
      15_000,
    );
    const confirmUrl = new URL(/(https?:\/\/\S+\/verify-email#token=[A-Za-z0-9_-]+)/.exec(confirm.text)![1]!);
    await phone.goto(confirmUrl.pathname + confirmUrl.hash);
    await phone.getByText('Thank you: your e-mail address is confirmed.').waitFor();
    await phone.goto(`/workspaces/${ws}`);
    await phone.getByRole('heading', { level: 1, name: 'Sahel survey' }).waitFor();
    await phone.getByText('Your role: Manager').waitFor();
    await expectAccessible(phone, 'workspace joined through an invitation, phone');

    // The owner's page: a member with the invited role, and nothing pending any more.
    await page.reload();
    await page.getByRole('combobox', { name: 'Role of Nina Newcomer' }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Role of Nina Newcomer' }).inputValue()).to.equal(
      'manager',
    );
    expect(await page.getByRole('table', { name: 'Pending invitations' }).count()).to.equal(0);
    // With a second owner, the first may leave again.
    await page.getByRole('combobox', { name: 'Role of Nina Newcomer' }).selectOption('owner');
    await page.getByRole('button', { name: 'Leave the workspace' }).waitFor();
    await expectAccessible(page, 'workspace after the invitation was taken up');
  });
});
