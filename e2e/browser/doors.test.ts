import { eventually } from '@fieldhouse/testkit';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { bearerApi } from './support/api.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { expectNoOverflow } from './support/overflow.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';

type User = Awaited<ReturnType<typeof registerUser>>;

describe('console: staff at the door and scanners that decide offline (issue 36, browser)', function () {
  this.timeout(240_000);
  let c: ConsoleStack;
  let owner: User;
  let staff: User;
  let eventId: string;

  const api = (method: string, path: string, body?: unknown) =>
    bearerApi(c.baseUrl, owner.token)(method, path, body);
  const invite = async (nom: string) =>
    (await api('POST', `/api/events/${eventId}/invites`, {
      nom,
      email: `${nom.toLowerCase().replace(/\W+/g, '.')}@example.test`,
    })) as { id: string; code_unique: string };
  /** A scanner device set up by its setup URL in a fresh phone context, with the guest list downloaded. */
  const scannerFor = async (name: string, invitees: number, gateId: string | null = null) => {
    const device = (await api('POST', `/api/events/${eventId}/devices`, { name, gate_id: gateId })) as {
      setup_url: string;
    };
    const page = await c.newPage({ phone: true });
    const url = new URL(device.setup_url);
    await page.goto(`${url.pathname}${url.hash}`);
    await page.waitForURL(`**/scan/${eventId}`);
    await page.getByText('Ready', { exact: true }).waitFor();
    await listHolds(page, invitees);
    return page;
  };
  const listHolds = (page: Page, invitees: number) =>
    page
      .getByTestId('list-status')
      .getByText(new RegExp(`Guest list on this device: ${invitees} invitees`))
      .waitFor({ timeout: 30_000 });
  /** Types a code and Enter, as a USB scanner does. */
  const scan = async (page: Page, code: string) => {
    await page.getByRole('textbox', { name: 'Scan or type a code' }).fill(code);
    await page.keyboard.press('Enter');
  };
  const result = (page: Page) => page.getByTestId('scan-result');

  before(async () => {
    c = await startConsoleStack();
    owner = await registerUser(c.baseUrl, 'Gala Owner');
    staff = await registerUser(c.baseUrl, 'Sam Staff');
    eventId = (
      (await api('POST', '/api/events', {
        name: 'Harbour gala',
        start_date: '2031-06-12T19:00',
        location: 'Nantes',
      })) as {
        id: string;
      }
    ).id;
    // The events service knows Sam once Sam has called it; then the owner gives the check-in role.
    await bearerApi(c.baseUrl, staff.token)('GET', '/api/events');
    await api('POST', `/api/events/${eventId}/staff`, { email: staff.email });
  });
  after(async () => c?.stop());

  it('staff see no owner actions, and check in from the door scanner with their sign-in', async () => {
    const grace = await invite('Grace Hopper');
    const page = await c.newPage();
    await signInThroughPage(page, staff, '/events');
    const card = page.getByRole('article', { name: 'Harbour gala' });
    await card.getByRole('link', { name: 'Door scanner' }).waitFor();
    for (const label of ['Edit Harbour gala', 'Staff of Harbour gala', 'Delete Harbour gala'])
      expect(await card.getByRole('button', { name: label }).count(), label).to.equal(0);
    expect(await card.getByRole('link', { name: 'Scanner devices' }).count()).to.equal(0);
    await expectAccessible(page, 'events page (staff)');

    // The devices page tells staff what they can do instead of "Refused (403)".
    await page.goto(`/events/${eventId}/devices`);
    await page.getByTestId('devices-staff').waitFor();
    expect(await page.getByText(/403|Refused/).count()).to.equal(0);
    await expectAccessible(page, 'devices page (staff)');

    // The door scanner with Sam's own session.
    await page.getByTestId('devices-staff').getByRole('link', { name: 'Door scanner' }).click();
    await page.waitForURL(`**/scan/${eventId}`);
    await page.getByText('Signed in: your staff access to this event').waitFor();
    await page.getByText('Ready', { exact: true }).waitFor();
    await scan(page, grace.code_unique);
    await result(page).getByText('Grace Hopper').waitFor();
    await result(page).getByText('Welcome!').waitFor();
    expect(await result(page).getAttribute('data-signal')).to.equal('green');
    const graceNow = (await api('GET', `/api/events/${eventId}/invites/${grace.id}`)) as {
      presence: boolean;
      scanne_par: string;
    };
    expect(graceNow).to.include({ presence: true, scanne_par: 'Sam Staff' });
    await expectAccessible(page, 'door scanner (staff)');
    await screenshotBoth(page, 'scanner-staff');
  });

  it('a staff member checks in from the invitee list and undoes it, with no owner actions there', async () => {
    const kath = await invite('Katherine Johnson');
    // A party of 4, 2 of whom came in: the list says how many.
    const party = (await api('POST', `/api/events/${eventId}/invites`, {
      nom: 'The Braggs',
      email: 'braggs@example.test',
      seats: 4,
    })) as { code_unique: string };
    await api('POST', `/api/events/${eventId}/checkin`, { code_unique: party.code_unique, people: 2 });
    const page = await c.newPage();
    await signInThroughPage(page, staff, `/events/${eventId}/invites`);
    const row = page.getByTestId('invite-Katherine Johnson');
    await row.getByText('Absent').waitFor();
    await page.getByTestId('invite-The Braggs').getByText('Present: 2 of 4').waitFor();
    // Only what staff may do: no add, import, edit, resend or revoke.
    for (const name of ['Add an invitee', 'Import a CSV'])
      expect(await page.getByRole('button', { name }).count(), name).to.equal(0);
    await page.getByRole('button', { name: 'Actions for Katherine Johnson' }).click();
    await page.getByRole('menuitem', { name: 'QR code (PNG)' }).waitFor();
    for (const name of ['Edit', 'Send the invitation again', 'Revoke'])
      expect(await page.getByRole('menuitem', { name }).count(), name).to.equal(0);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Check in Katherine Johnson' }).click();
    await page.getByTestId('invite-outcome').getByText('Katherine Johnson is checked in.').waitFor();
    await row.getByText('Present').waitFor();
    const checked = (await api('GET', `/api/events/${eventId}/invites/${kath.id}`)) as {
      presence: boolean;
      scanne_par: string;
    };
    expect(checked).to.include({ presence: true, scanne_par: 'Sam Staff' });
    await expectAccessible(page, 'invitees page (staff)');
    await expectNoOverflow(page, 'invitees page (staff)');
    await screenshotBoth(page, 'invites-staff');

    await page.getByRole('button', { name: 'Undo the check-in of Katherine Johnson' }).click();
    await page
      .getByTestId('invite-outcome')
      .getByText('Katherine Johnson is no longer checked in.')
      .waitFor();
    await row.getByText('Absent').waitFor();
    const undone = (await api('GET', `/api/events/${eventId}/invites/${kath.id}`)) as { presence: boolean };
    expect(undone.presence).to.equal(false);
  });

  it('two devices offline with the list: both show names; one admits, the other says "already in" after sync', async () => {
    const hedy = await invite('Hedy Lamarr');
    const lin = await invite('Lin Huiyin');
    // Invitees, not people (the stats count a party's seats).
    const total = (
      (await api('GET', `/api/events/${eventId}/invites?per_page=1`)) as { pagination: { total: number } }
    ).pagination.total;
    const east = await scannerFor('East gate', total);
    const west = await scannerFor('West gate', total);
    await east.context().setOffline(true);
    await west.context().setOffline(true);
    await scan(east, hedy.code_unique);
    await result(east).getByText('Hedy Lamarr').waitFor();
    expect(await result(east).getAttribute('data-signal')).to.equal('green');
    await result(east)
      .getByText(/Offline: checked against the guest list/)
      .waitFor();
    await scan(west, lin.code_unique);
    await result(west).getByText('Lin Huiyin').waitFor();
    expect(await result(west).getAttribute('data-signal')).to.equal('green');
    // The same code again at the east gate: already in, from this device.
    await scan(east, hedy.code_unique);
    await result(east).getByText('Already scanned here').waitFor();
    expect(await result(east).getAttribute('data-signal')).to.equal('amber');

    // East syncs; west hears of it (changes since its cursor), then decides offline.
    await east.getByTestId('count-queued').getByText('1 waiting to sync').waitFor();
    await east.context().setOffline(false);
    await east.getByTestId('count-queued').getByText('0 waiting to sync').waitFor({ timeout: 30_000 });
    await west.getByTestId('count-queued').getByText('1 waiting to sync').waitFor();
    await west.context().setOffline(false);
    await west.getByTestId('count-queued').getByText('0 waiting to sync').waitFor({ timeout: 30_000 });
    // The west copy hears of it (polled from here: a page-side async predicate would be a promise, always truthy).
    await eventually(
      () =>
        west.evaluate(
          async ([event, name]) => {
            const db = await new Promise<IDBDatabase>((ok, ko) => {
              const r = indexedDB.open('fieldhouse-scan-list');
              r.onsuccess = () => ok(r.result);
              r.onerror = () => ko(r.error);
            });
            const rows = await new Promise<Array<{ nom: string; status: string }>>((ok) => {
              const r = db.transaction('invitees').objectStore('invitees').index('by_event').getAll(event);
              r.onsuccess = () => ok(r.result as Array<{ nom: string; status: string }>);
            });
            db.close();
            return rows.some((r) => r.nom === name && r.status === 'checked_in');
          },
          [eventId, 'Hedy Lamarr'] as const,
        ),
      30_000,
      500,
    );
    await west.context().setOffline(true);
    await scan(west, hedy.code_unique);
    await result(west).getByText('Already in', { exact: true }).waitFor();
    await result(west).getByText('Hedy Lamarr').waitFor();
    await result(west)
      .getByText(/by East gate/)
      .waitFor();
    expect(await result(west).getAttribute('data-signal')).to.equal('amber');
    await expectAccessible(west, 'door scanner offline, already in');
    await screenshotBoth(west, 'scanner-offline-already-in');
    await west.context().setOffline(false);
  });

  it('offline: a revoked code is refused, a forged signed code is refused, a real signed code admits', async () => {
    const revoked = await invite('Rosalind Franklin');
    const badge = await invite('Lise Meitner');
    await api('PATCH', `/api/events/${eventId}/invites/${revoked.id}`, { revoked: true });
    const signed = (await api('GET', `/api/events/${eventId}/invites/${badge.id}/signed-code`)) as {
      signed_code: string;
    };
    const total = (
      (await api('GET', `/api/events/${eventId}/invites?per_page=1`)) as { pagination: { total: number } }
    ).pagination.total;
    const door = await scannerFor('North gate', total);
    await door.context().setOffline(true);
    await scan(door, revoked.code_unique);
    await result(door).getByText('Invitation revoked').waitFor();
    await result(door).getByText('Rosalind Franklin').waitFor();
    await screenshotBoth(door, 'scanner-offline-revoked');
    expect(await result(door).getAttribute('data-signal')).to.equal('red');
    const i = 60;
    const forged =
      signed.signed_code.slice(0, i) +
      (signed.signed_code[i] === 'A' ? 'B' : 'A') +
      signed.signed_code.slice(i + 1);
    await scan(door, forged);
    await result(door).getByText('Unknown code').waitFor();
    expect(await result(door).getAttribute('data-signal')).to.equal('red');
    await scan(door, signed.signed_code);
    await result(door).getByText('Lise Meitner').waitFor();
    expect(await result(door).getAttribute('data-signal')).to.equal('green');
    await door.getByTestId('count-queued').getByText('1 waiting to sync').waitFor();
    await door.context().setOffline(false);
    await door.getByTestId('count-queued').getByText('0 waiting to sync').waitFor({ timeout: 30_000 });
    const lise = (await api('GET', `/api/events/${eventId}/invites/${badge.id}`)) as { presence: boolean };
    expect(lise.presence).to.equal(true);
  });

  it('a party scanned offline at a gate: 3 of 5, then the other 2, then one leaves; synced, the gate counts them', async () => {
    const terrace = (await api('POST', `/api/events/${eventId}/gates`, {
      name: 'Terrace',
      scan_exits: true,
      allow_reentry: true,
    })) as { id: string };
    const party = (await api('POST', `/api/events/${eventId}/invites`, {
      nom: 'The Curies',
      email: 'curies@example.test',
      seats: 5,
    })) as { id: string; code_unique: string };
    const total = (
      (await api('GET', `/api/events/${eventId}/invites?per_page=1`)) as { pagination: { total: number } }
    ).pagination.total;
    const door = await scannerFor('Terrace door', total, terrace.id);
    await door.context().setOffline(true);
    const people = door.getByRole('textbox', { name: 'People in this scan' });
    await people.fill('3');
    await scan(door, party.code_unique);
    await result(door).getByText('The Curies').waitFor();
    await result(door)
      .getByText(/^3 of 5 arrived\. Offline/)
      .waitFor();
    expect(await result(door).getAttribute('data-signal')).to.equal('green');
    await expectAccessible(door, 'door scanner offline, party');
    await screenshotBoth(door, 'scanner-offline-party');
    // No count: the rest of the party.
    await scan(door, party.code_unique);
    await result(door)
      .getByText(/^5 of 5 arrived\. Offline/)
      .waitFor();
    // The whole party is in: a further entry is "already in", from this door.
    await scan(door, party.code_unique);
    await result(door).getByText('Already in', { exact: true }).waitFor();
    expect(await result(door).getAttribute('data-signal')).to.equal('amber');
    // One of them leaves.
    await door.getByTestId('direction').getByText('Exit').click();
    await people.fill('1');
    await scan(door, party.code_unique);
    await result(door).getByText('Goodbye!').waitFor();
    await result(door).getByText('Offline: the exit will sync.').waitFor();
    await door.getByTestId('count-queued').getByText('3 waiting to sync').waitFor();

    await door.context().setOffline(false);
    await door.getByTestId('count-queued').getByText('0 waiting to sync').waitFor({ timeout: 30_000 });
    expect(await door.getByText(/to follow up/).count()).to.equal(0);
    const attendance = (await api('GET', `/api/events/${eventId}/attendance`)) as {
      gates: { gates: Array<{ id: string | null; inside: number; entries: number; exits: number }> };
    };
    expect(attendance.gates.gates.find((g) => g.id === terrace.id)).to.include({
      inside: 4,
      entries: 5,
      exits: 1,
    });
    const curies = (await api('GET', `/api/events/${eventId}/invites/${party.id}`)) as {
      arrived: number;
      seats: number;
      presence: boolean;
    };
    expect(curies).to.include({ arrived: 5, seats: 5, presence: true });
  });
});
