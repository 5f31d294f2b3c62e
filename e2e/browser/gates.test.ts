import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { bearerApi } from './support/api.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';

type User = Awaited<ReturnType<typeof registerUser>>;

/** Issue 36: gates with entry and exit, parties, the CSV import in English (docs/events.md). */
describe('console: gates, entries and exits, parties, CSV import (browser)', function () {
  this.timeout(240_000);
  let c: ConsoleStack;
  let owner: User;
  let eventId: string;

  const api = (method: string, path: string, body?: unknown) =>
    bearerApi(c.baseUrl, owner.token)(method, path, body);
  const invite = async (nom: string, seats = 1) =>
    (await api('POST', `/api/events/${eventId}/invites`, {
      nom,
      email: `${nom.toLowerCase().replace(/\W+/g, '.')}@example.test`,
      seats,
    })) as { id: string; code_unique: string };
  /** A scanner device at `gateId` (null: the entrance), set up in a fresh phone context. */
  const scannerAt = async (name: string, gateId: string | null) => {
    const device = (await api('POST', `/api/events/${eventId}/devices`, { name, gate_id: gateId })) as {
      setup_url: string;
    };
    const page = await c.newPage({ phone: true });
    const url = new URL(device.setup_url);
    await page.goto(`${url.pathname}${url.hash}`);
    await page.waitForURL(`**/scan/${eventId}`);
    await page.getByText('Ready', { exact: true }).waitFor();
    return page;
  };
  const scan = async (page: Page, code: string) => {
    await page.getByRole('textbox', { name: 'Scan or type a code' }).pressSequentially(code, { delay: 0 });
    await page.keyboard.press('Enter');
  };
  const result = (page: Page) => page.getByTestId('scan-result');

  before(async () => {
    c = await startConsoleStack();
    owner = await registerUser(c.baseUrl, 'Gate Owner');
    eventId = (
      (await api('POST', '/api/events', {
        name: 'Harbour festival',
        start_date: '2031-07-14T18:00',
        location: 'Brest',
      })) as {
        id: string;
      }
    ).id;
  });
  after(async () => c?.stop());

  it('the owner adds a gate that scans exits and allows re-entry, in English and in French', async () => {
    const page = await c.newPage();
    await signInThroughPage(page, owner, `/events/${eventId}/gates`);
    await page.getByRole('heading', { name: 'Gates — Harbour festival', level: 1 }).waitFor();
    await page.getByText('No gates yet').waitFor();
    await page.getByRole('textbox', { name: 'Name' }).fill('Hall');
    await page.getByRole('checkbox', { name: 'Scan exits too' }).check();
    await page.getByRole('checkbox', { name: 'Allow re-entry after an exit' }).check();
    await page.getByRole('button', { name: 'Add the gate' }).click();
    await page.getByTestId('gates-status').getByText('Hall is saved.').waitFor();
    const row = page.getByTestId('gates-table').getByRole('row', { name: /Hall/ });
    expect(await row.textContent()).to.include('Every type');
    await page.getByRole('textbox', { name: 'Name' }).fill('VIP lounge');
    await page.getByRole('checkbox', { name: 'VIP' }).check();
    await page.getByRole('button', { name: 'Add the gate' }).click();
    await page
      .getByTestId('gates-table')
      .getByRole('row', { name: /VIP lounge/ })
      .waitFor();
    await page.getByRole('textbox', { name: 'Name' }).fill('hall');
    await page.getByRole('button', { name: 'Add the gate' }).click();
    await page.getByText('The event already has a gate with this name.').waitFor();
    await page.getByRole('textbox', { name: 'Name' }).fill('');
    await expectAccessible(page, 'gates page');
    await screenshotBoth(page, 'gates');
    // The same page in French (the language switch of the header).
    await page.getByText('FR', { exact: true }).click();
    await page.getByRole('heading', { name: 'Portes — Harbour festival', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Ajouter la porte' }).waitFor();
    await expectAccessible(page, 'gates page (French)');
    await screenshotBoth(page, 'gates-fr');
    await page.getByText('EN', { exact: true }).click();
    await page.getByRole('heading', { name: 'Gates — Harbour festival', level: 1 }).waitFor();
  });

  it('lets an invitee in, out and in again at one gate, then refuses a second entry naming the gate', async () => {
    const gates = (await api('GET', `/api/events/${eventId}/gates`)) as unknown as Array<{
      id: string;
      name: string;
    }>;
    const hall = gates.find((g) => g.name === 'Hall')!;
    const ada = await invite('Ada Lovelace');
    const page = await scannerAt('Hall door', hall.id);
    // The device names its gate, which scans exits: the direction switch is offered.
    await page.getByText('Device: Hall door · Hall').waitFor();
    await page.getByTestId('direction').waitFor();
    await scan(page, ada.code_unique);
    await result(page).getByText('Welcome!').waitFor();
    await page.getByTestId('direction').getByText('Exit').click();
    await scan(page, ada.code_unique);
    await result(page).getByText('Goodbye!').waitFor();
    await result(page).getByText('Left through Hall.').waitFor();
    await page.getByTestId('direction').getByText('Entry').click();
    await scan(page, ada.code_unique);
    await result(page).getByText('Welcome!').waitFor();
    await expectAccessible(page, 'scanner at a gate');
    await screenshotBoth(page, 'scanner-gate');
    await scan(page, ada.code_unique);
    await result(page).getByText('Already checked in').waitFor();
    expect(await result(page).textContent()).to.match(/Already inside: entered through Hall at/);
    await screenshotBoth(page, 'scanner-gate-refused');
    const attendance = (await api('GET', `/api/events/${eventId}/attendance`)) as {
      gates: { gates: Array<{ name: string | null; inside: number; entries: number; exits: number }> };
    };
    expect(attendance.gates.gates.find((g) => g.name === 'Hall')).to.include({
      inside: 1,
      entries: 2,
      exits: 1,
    });
  });

  it('admits a party of 5 as 3 then 2', async () => {
    const party = await invite('The Curies', 5);
    const page = await scannerAt('Front desk', null);
    // The implicit entrance scans entries only: no direction switch.
    await page.getByText('Device: Front desk', { exact: true }).waitFor();
    expect(await page.getByTestId('direction').count()).to.equal(0);
    await page.getByRole('textbox', { name: 'People in this scan' }).fill('3');
    await scan(page, party.code_unique);
    await result(page).getByText('3 of 5 arrived').waitFor();
    await expectAccessible(page, 'scanner, party');
    await screenshotBoth(page, 'scanner-party');
    await page.getByRole('textbox', { name: 'People in this scan' }).fill('2');
    await scan(page, party.code_unique);
    await result(page).getByText('5 of 5 arrived').waitFor();
    const got = (await api('GET', `/api/events/${eventId}/invites/${party.id}`)) as {
      arrived: number;
      seats: number;
    };
    expect(got).to.include({ arrived: 5, seats: 5 });
  });

  it('shows inside now per gate, over time, and arrivals per type on the attendance page', async () => {
    const page = await c.newPage();
    await signInThroughPage(page, owner, `/events/${eventId}/attendance`);
    await page.getByRole('heading', { name: 'Gates: who is inside now' }).waitFor();
    await page.getByTestId('gate-figures').getByRole('row', { name: /Hall/ }).waitFor();
    expect(await page.getByTestId('gate-figures').getByRole('row', { name: /Hall/ }).textContent()).to.match(
      /Hall121/,
    );
    await page
      .getByTestId('arrivals-by-type')
      .getByRole('row', { name: /Standard/ })
      .waitFor();
    await expectAccessible(page, 'attendance with gates');
    await screenshotBoth(page, 'attendance-gates');
  });

  it('imports an English CSV with English type values, e-mails held back', async () => {
    const page = await c.newPage();
    await signInThroughPage(page, owner, `/events/${eventId}/invites`);
    await page.getByRole('button', { name: 'Import a CSV' }).click();
    const csv =
      'Name,Email,Type,Seats\nGrace Hopper,grace@example.test,speaker,1\nNellie Bly,nellie@example.test,Press,2\n' +
      'Acme Corp,acme@example.test,partner,\n';
    await page
      .locator('#invite-csv')
      .setInputFiles({ name: 'guests.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByTestId('import-preview-button').click();
    await page.getByText('Preview: 3 will be created, 0 will not.').waitFor();
    const preview = page.getByTestId('import-preview');
    expect(await preview.getByRole('row', { name: /Nellie Bly/ }).textContent()).to.include('Press');
    expect(await preview.getByRole('row', { name: /Grace Hopper/ }).textContent()).to.include('Speaker');
    await page.getByRole('radio', { name: /Send them later/ }).check();
    await expectAccessible(page, 'CSV import preview');
    await screenshotBoth(page, 'invites-import-preview');
    await page.getByTestId('import-submit').click();
    await page.getByTestId('emails-held').waitFor();
    const listed = (await api('GET', `/api/events/${eventId}/invites?search=nellie`)) as {
      data: Array<{ email_held: boolean; type_invite: string; seats: number }>;
    };
    expect(listed.data[0]).to.include({ email_held: true, type_invite: 'presse', seats: 2 });
  });
});
