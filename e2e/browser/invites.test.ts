import { expect } from 'chai';
import { registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { bearerApi } from './support/api.ts';
import { expectNoOverflow } from './support/overflow.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';

describe('console: invitees of an event, with CSV import (browser)', function () {
  this.timeout(120_000);
  let c: ConsoleStack;
  before(async () => {
    c = await startConsoleStack();
  });
  after(async () => c?.stop());

  it('adds, searches, revokes, resends and imports invitees, showing bad CSV rows before sending', async () => {
    const owner = await registerUser(c.baseUrl, 'Guest Keeper');
    const api = bearerApi(c.baseUrl, owner.token);
    const event = (await api('POST', '/api/events', {
      name: 'Book fair',
      start_date: '2031-09-12T09:00',
      location: 'Brive',
    })) as { id: string };
    await api('POST', `/api/events/${event.id}/invites`, {
      nom: 'Existing Guest',
      email: 'taken@example.test',
    });

    const page = await c.newPage();
    await signInThroughPage(page, owner, `/events/${event.id}/invites`);
    await page.getByRole('heading', { name: 'Invitees — Book fair' }).waitFor();
    await page.getByTestId('invite-Existing Guest').waitFor();

    // Add one; a duplicate e-mail is refused under its field.
    await page.getByRole('button', { name: 'Add an invitee' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add an invitee' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Colette');
    await dialog.getByRole('textbox', { name: 'E-mail' }).fill('taken@example.test');
    await dialog.getByRole('button', { name: 'Add and send the invitation' }).click();
    await dialog.getByText('This e-mail address is already invited to the event.').waitFor();
    await expectAccessible(page, 'add invitee dialog with an error');
    await dialog.getByRole('textbox', { name: 'E-mail' }).fill('colette@example.test');
    await dialog.getByRole('combobox', { name: 'Type' }).selectOption('vip');
    await dialog.getByRole('button', { name: 'Add and send the invitation' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('invite-Colette').getByRole('cell', { name: 'VIP', exact: true }).waitFor();

    // Search keeps its state in the URL.
    await page.getByRole('textbox', { name: 'Search by name, e-mail or code' }).fill('colet');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL(/search=colet/);
    await page.getByTestId('invite-Existing Guest').waitFor({ state: 'detached' });

    // Resend, QR download, revoke.
    await page.getByRole('button', { name: 'Actions for Colette' }).click();
    await page.getByRole('menuitem', { name: 'Send the invitation again' }).click();
    await page.getByTestId('invite-outcome').getByText('goes again to colette@example.test').waitFor();
    await page.getByRole('button', { name: 'Actions for Colette' }).click();
    const png = await page.getByRole('menuitem', { name: 'QR code (PNG)' }).getAttribute('href');
    const qr = await page.request.get(png!);
    expect(qr.status()).to.equal(200);
    expect(qr.headers()['content-type']).to.match(/image\/png/);
    await page.getByRole('menuitem', { name: 'Revoke' }).click();
    await page.getByTestId('invite-Colette').getByText('Revoked').waitFor();
    await expectAccessible(page, 'invitees page');

    // The whole list on a phone: every presence reads in full (not "ABS…", "REV…").
    await page.getByRole('textbox', { name: 'Search by name, e-mail or code' }).fill('');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByTestId('invite-Existing Guest').waitFor();
    await page.getByTestId('invite-Existing Guest').getByText('Absent').waitFor();
    await expectNoOverflow(page, 'invitees page');
    await screenshotBoth(page, 'invites');

    // CSV import: the file's own headers are recognised, bad rows shown before anything is sent.
    await page.getByRole('button', { name: 'Import a CSV' }).click();
    const csv = [
      'Name;E-mail;Category',
      'Ada Lovelace;ada@example.test;vip',
      'Alan Turing;alan@example.test;',
      'No Mail;;standard',
      'Bad Mail;not-an-address;standard',
      'Odd Type;odd@example.test;platinum',
      'Ada Again;ADA@example.test;presse',
      'Already There;taken@example.test;standard',
    ].join('\n');
    await page
      .getByLabel('CSV file', { exact: true })
      .setInputFiles({ name: 'guests.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByTestId('import-summary').getByText('guests.csv: 4 rows ready, 3 with problems').waitFor();
    const problems = page.getByTestId('import-problems');
    await problems.getByText('No e-mail.').waitFor();
    await problems.getByText('Not a valid e-mail.').waitFor();
    // An unknown type (platinum) is the service's to refuse: the file's rows are checked for their
    // shape here, and the type by the service (its preview, or the import's result).
    await problems.getByText('E-mail already on an earlier line.').waitFor();
    await expectAccessible(page, 'CSV import preview');
    await screenshotBoth(page, 'invites-import-preview');
    // The service's preview says what will happen to each row: the unknown type and the address
    // already invited are refused there, before anything is sent.
    await page.getByRole('button', { name: 'Check what will happen' }).click();
    await page.getByText('Preview: 2 will be created, 2 will not.').waitFor();
    await page.getByRole('radio', { name: 'Send the invitation e-mails now' }).check();
    await page.getByTestId('import-submit').click();
    const results = page.getByTestId('import-results');
    await results.waitFor();
    const failed = results.getByRole('row').filter({ hasText: 'already invited' });
    expect(await failed.getByRole('cell').first().innerText()).to.equal('8');
    await expectAccessible(page, 'CSV import results');
    const listed = (await api('GET', `/api/events/${event.id}/invites?per_page=50`)) as {
      data: Array<{ nom: string; type_invite: string }>;
    };
    expect(listed.data.map((i) => i.nom).sort()).to.deep.equal([
      'Ada Lovelace',
      'Alan Turing',
      'Colette',
      'Existing Guest',
    ]);
    expect(listed.data.find((i) => i.nom === 'Alan Turing')!.type_invite).to.equal('standard');
  });
});
