import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { bearerApi } from './support/api.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { launchChromium } from './support/chromium.ts';
import { qrVideo } from './support/fake-camera.ts';
import { screenshotBoth, VIEWPORTS } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';

type User = Awaited<ReturnType<typeof registerUser>>;

describe('console: events, scanner devices and the door scanner (browser)', function () {
  this.timeout(180_000);
  let c: ConsoleStack;
  let owner: User;
  let eventId: string;

  /** An API call as the owner, through the gateway. */
  const api = (method: string, path: string, body?: unknown) =>
    bearerApi(c.baseUrl, owner.token)(method, path, body);
  const invite = async (nom: string) =>
    (await api('POST', `/api/events/${eventId}/invites`, {
      nom,
      email: `${nom.toLowerCase().replace(/\W+/g, '.')}@example.test`,
    })) as { id: string; code_unique: string };
  const stats = async () =>
    (await api('GET', `/api/events/${eventId}/stats`)) as { present: number; total: number };
  /** A device created through the API, set up by opening its setup URL in a fresh phone context. */
  const scannerFor = async (name: string) => {
    const device = (await api('POST', `/api/events/${eventId}/devices`, { name })) as { setup_url: string };
    const page = await c.newPage({ phone: true });
    const url = new URL(device.setup_url);
    await page.goto(`${url.pathname}${url.hash}`);
    await page.waitForURL(`**/scan/${eventId}`);
    await page.getByText('Ready', { exact: true }).waitFor();
    return page;
  };
  /** Types a code into the scanner's input and presses Enter, as a USB scanner does. */
  const scan = async (page: Page, code: string) => {
    await page.getByRole('textbox', { name: 'Scan or type a code' }).pressSequentially(code, { delay: 0 });
    await page.keyboard.press('Enter');
  };
  const result = (page: Page) => page.getByTestId('scan-result');

  before(async () => {
    c = await startConsoleStack();
    owner = await registerUser(c.baseUrl, 'Door Owner');
    eventId = (
      (await api('POST', '/api/events', {
        name: 'Spring fair',
        start_date: '2031-04-02T10:00',
        location: 'Lyon',
      })) as { id: string }
    ).id;
  });
  after(async () => c?.stop());

  it('creates an event and a scanner device with its setup QR code; the setup URL works once', async () => {
    const page = await c.newPage();
    await signInThroughPage(page, owner, '/events');
    await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New event' }).click();
    const dialog = page.getByRole('dialog', { name: 'New event' });
    await dialog.getByRole('button', { name: 'Create event' }).click();
    await dialog.getByText('Required.').first().waitFor();
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Winter gala');
    await dialog.getByLabel('Starts').fill('2031-01-20T19:30');
    await dialog.getByRole('textbox', { name: 'Location' }).fill('Grenoble');
    await expectAccessible(page, 'new event dialog');
    await dialog.getByRole('button', { name: 'Create event' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Winter gala' }).waitFor();
    await expectAccessible(page, 'events page');
    await screenshotBoth(page, 'events');
    const events = (await (
      await fetch(`${c.baseUrl}/api/events`, { headers: { authorization: `Bearer ${owner.token}` } })
    ).json()) as Array<{ id: string; name: string; start_date: string }>;
    const gala = events.find((e) => e.name === 'Winter gala')!;
    expect(gala.start_date).to.equal('2031-01-20T19:30');

    // Edit: the end cannot come before the start; a new location shows on the card.
    await page.getByRole('button', { name: 'Edit Winter gala' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Winter gala' });
    await edit.getByLabel('Ends (optional)').fill('2031-01-20T18:00');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.getByText('The end cannot be before the start.').waitFor();
    await edit.getByLabel('Ends (optional)').fill('2031-01-20T23:30');
    await edit.getByRole('textbox', { name: 'Location' }).fill('Grenoble, Palais des sports');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    await page
      .getByRole('article', { name: 'Winter gala' })
      .getByText('Grenoble, Palais des sports')
      .waitFor();
    // Only the changed fields were sent: the start is as it was.
    expect(await api('GET', `/api/events/${gala.id}`)).to.include({
      start_date: '2031-01-20T19:30',
      end_date: '2031-01-20T23:30',
      location: 'Grenoble, Palais des sports',
    });

    // Staff: the check-in role by e-mail (a user the events service has seen), then taken back.
    const helper = await registerUser(c.baseUrl, 'Door Helper');
    await fetch(`${c.baseUrl}/api/events`, { headers: { authorization: `Bearer ${helper.token}` } });
    await page.getByRole('button', { name: 'Staff of Winter gala' }).click();
    const staff = page.getByRole('dialog', { name: 'Staff — Winter gala' });
    await staff.getByText('No staff yet.').waitFor();
    await staff.getByRole('textbox', { name: 'E-mail of a user' }).fill('nobody@example.test');
    await staff.getByRole('button', { name: 'Give the check-in role' }).click();
    await staff.locator('.mantine-TextInput-error').waitFor();
    await staff.getByRole('textbox', { name: 'E-mail of a user' }).fill(helper.email);
    await staff.getByRole('button', { name: 'Give the check-in role' }).click();
    await staff.getByRole('button', { name: 'Remove Door Helper from the staff' }).waitFor();
    await expectAccessible(page, 'staff dialog');
    await staff.getByRole('button', { name: 'Remove Door Helper from the staff' }).click();
    await staff.getByText('No staff yet.').waitFor();
    await staff.getByRole('button', { name: 'Close' }).click();

    await page
      .getByRole('article', { name: 'Winter gala' })
      .getByRole('link', { name: 'Scanner devices' })
      .click();
    await page.getByRole('heading', { name: 'Scanner devices — Winter gala' }).waitFor();
    await page.getByRole('textbox', { name: 'Device name' }).fill('North door');
    await page.getByRole('button', { name: 'Create device' }).click();
    const qr = page.getByTestId('device-setup-qr');
    await qr.waitFor();
    const link = (await qr.getAttribute('data-link'))!;
    expect(link).to.match(new RegExp(`^${c.baseUrl}/scan/setup#code=[2-9A-Z]{16}$`));
    expect(await page.getByTestId('device-setup-url').innerText()).to.equal(link);
    await page.getByTestId('device-North door').getByText('Not set up').waitFor();
    await expectAccessible(page, 'devices page with a setup code');
    await screenshotBoth(page, 'event-devices');

    // A fresh phone, no user session: the setup URL makes it this event's scanner.
    const phone = await c.newPage({ phone: true });
    await phone.goto(link.slice(c.baseUrl.length));
    await phone.waitForURL(`**/scan/${gala.id}`);
    await phone.getByText('Device: North door').waitFor();
    await phone.getByText('Winter gala').waitFor();
    await expectAccessible(phone, 'door scanner, ready');
    await page.getByTestId('device-North door').getByText('Active').waitFor({ timeout: 15_000 });

    // The same link again, on another phone: refused, saying why.
    const second = await c.newPage({ phone: true });
    await second.goto(link.slice(c.baseUrl.length));
    await second.getByText('This setup code was already used').waitFor();
    // Typed by hand, a malformed code says what a code looks like.
    await second.getByRole('textbox', { name: 'Setup code' }).fill('ABC');
    await second.getByRole('button', { name: 'Set up' }).click();
    await second.getByText('A setup code has 16 letters and digits.').waitFor();
    await expectAccessible(second, 'setup page with an error');
    await screenshotBoth(second, 'scanner-setup-used');
  });

  it('a USB scan (code + Enter) is green, the same code red naming the door, junk red at once', async () => {
    const ada = await invite('Ada Lovelace');
    const page = await scannerFor('East door');
    await scan(page, ada.code_unique);
    await result(page).getByText('Welcome!').waitFor();
    await result(page).getByText('Ada Lovelace').waitFor();
    expect(await result(page).getAttribute('data-signal')).to.equal('green');
    // The input keeps the focus for the next scan.
    expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-scan-input'))).to.equal(true);
    await page.getByTestId('count-device').getByText('1 scan by this device').waitFor();
    await expectAccessible(page, 'door scanner, green');
    await screenshotBoth(page, 'scanner-green');

    await scan(page, ada.code_unique.toLowerCase());
    // The service answers red, naming the door of the first scan. When its answer takes longer
    // than the scanner's wait (1.5 s: a CI run's three shards loaded the machine that much), the
    // scanner's guest list answers instead, amber: already in, from this device's own check-in.
    await result(page)
      .getByText(/^(Already checked in|Already in)$/)
      .waitFor();
    if (await result(page).getByText('Already in', { exact: true }).isVisible()) {
      await result(page)
        .getByText(/Checked in at .+ \(guest list on this device\)|Admitted at this door at/)
        .waitFor();
      expect(await result(page).getAttribute('data-signal')).to.equal('amber');
    } else {
      await result(page)
        .getByText(/Already checked in at .+ by East door/)
        .waitFor();
      expect(await result(page).getAttribute('data-signal')).to.equal('red');
      await screenshotBoth(page, 'scanner-red');
    }
    await expectAccessible(page, 'door scanner, already in');

    await scan(page, 'https://example.org/not-a-code');
    await result(page).getByText('Not an invitation code').waitFor();
    await scan(page, 'A'.repeat(80));
    await result(page).getByText('Scan too long: not an invitation code').waitFor();
    await scan(page, 'ZZZZ2222ZZZZ2222');
    await result(page).getByText('Unknown code').waitFor();

    // Manual search by name, for an invitee without their code.
    await invite('Grace Hopper');
    await page.getByText('Find an invitee by name').click();
    await page.getByRole('textbox', { name: 'Name, e-mail or code' }).fill('grace');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: 'Check Grace Hopper in' }).click();
    await result(page).getByText('Grace Hopper').waitFor();
    expect(await result(page).getAttribute('data-signal')).to.equal('green');
  });

  it('offline at two doors: scans are stored, synced once online, counted once, the duplicate listed', async () => {
    const both = await invite('Hedy Lamarr');
    const other = await invite('Katherine Johnson');
    const north = await scannerFor('Gate A');
    const south = await scannerFor('Gate B');
    // The service worker controls the scanner once it has cached the app (reloads offline).
    await north.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
      timeout: 20_000,
    });
    const before = await stats();
    // Each door has the guest list on the phone (issue 36): offline, it decides from it.
    for (const door of [north, south])
      await door
        .getByTestId('list-status')
        .getByText(/Guest list on this device: \d+ invitees/)
        .waitFor();
    await north.context().setOffline(true);
    await south.context().setOffline(true);
    await scan(north, both.code_unique);
    await result(north).getByText('Hedy Lamarr').waitFor();
    expect(await result(north).getAttribute('data-signal')).to.equal('green');
    await scan(north, other.code_unique);
    await result(north).getByText('Katherine Johnson').waitFor();
    await scan(south, both.code_unique);
    await result(south).getByText('Hedy Lamarr').waitFor();
    await north.getByTestId('count-queued').getByText('2 waiting to sync').waitFor();
    // The same code twice at one door, offline: already in, from the queue.
    await scan(north, both.code_unique);
    await result(north).getByText('Already scanned here').waitFor();
    expect(await result(north).getAttribute('data-signal')).to.equal('amber');
    await screenshotBoth(north, 'scanner-amber');
    // The queue survives a reload.
    await north.reload();
    await north.getByTestId('count-queued').getByText('2 waiting to sync').waitFor();

    await north.context().setOffline(false);
    await north.getByTestId('count-queued').getByText('0 waiting to sync').waitFor({ timeout: 20_000 });
    await south.context().setOffline(false);
    await south.getByTestId('count-queued').getByText('0 waiting to sync').waitFor({ timeout: 20_000 });
    const after = await stats();
    expect(after.present - before.present, 'each invitee counted once').to.equal(2);
    // Gate B synced second: its scan of Hedy Lamarr is the cross-door duplicate.
    const followUps = south.getByTestId('follow-ups');
    await followUps.getByText(/Hedy Lamarr — Already checked in/).waitFor();
    await followUps.getByText(/first checked in at .+ by Gate A/).waitFor();
    expect(await north.getByTestId('follow-ups').count()).to.equal(0);
    await expectAccessible(south, 'door scanner with a follow-up');
    await screenshotBoth(south, 'scanner-follow-up');
  });

  it('a revoked device is refused on its next scan', async () => {
    const marie = await invite('Marie Curie');
    const page = await scannerFor('Back door');
    const console = await c.newPage();
    await signInThroughPage(console, owner, `/events/${eventId}/devices`);
    await console.getByRole('button', { name: 'Revoke Back door' }).click();
    await console.getByRole('dialog').getByRole('button', { name: 'Revoke device' }).click();
    await console.getByTestId('device-Back door').getByText('Revoked').waitFor();
    // Typed into the focused input, as a USB scanner does (the page may also have found out
    // from its counters and disabled the input already).
    await page.keyboard.type(marie.code_unique);
    await page.keyboard.press('Enter');
    // Refused at once, or (when the answer took over 1.5 s) at the sync of the stored scan.
    await page.getByRole('alert').getByText('This device was revoked').waitFor({ timeout: 20_000 });
    await expectAccessible(page, 'door scanner of a revoked device');
    expect((await stats()).present).to.be.a('number');
    const state = (await api('GET', `/api/events/${eventId}/invites?search=Marie`)) as {
      data: Array<{ presence: boolean }>;
    };
    expect(state.data[0]!.presence).to.equal(false);
  });

  it('the attendance page follows check-ins live, naming the device', async () => {
    const page = await c.newPage();
    await signInThroughPage(page, owner, `/events/${eventId}/attendance`);
    await page.getByRole('heading', { name: 'Attendance — Spring fair' }).waitFor();
    const presentNow = Number(await page.getByTestId('stat-present').locator('p').nth(1).innerText());
    const device = (await api('POST', `/api/events/${eventId}/devices`, { name: 'Side gate' })) as {
      setup_code: string;
    };
    const setup = await fetch(`${c.baseUrl}/api/events/devices/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ setup_code: device.setup_code }),
    });
    const { token } = (await setup.json()) as { token: string };
    const guest = await invite('Rosalind Franklin');
    const scanned = await fetch(`${c.baseUrl}/api/events/${eventId}/checkin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ code_unique: guest.code_unique }),
    });
    expect(scanned.status).to.equal(200);
    // No reload: the page asks again every 2 s.
    await page
      .getByTestId('stat-present')
      .getByText(String(presentNow + 1), { exact: true })
      .waitFor();
    const latest = page.getByTestId('latest-checkins').getByRole('row').nth(1);
    await latest.getByText('Rosalind Franklin').waitFor();
    await latest.getByText('Side gate (scanner device)').waitFor();
    await page.getByRole('img', { name: 'Arrivals per 10 minutes' }).locator('svg').waitFor();
    await expectAccessible(page, 'attendance page');
    await screenshotBoth(page, 'attendance');
  });

  let cameraAttempts = 0;
  it('a camera scan (Chromium fake camera showing the invite QR code) checks another invitee in', async function () {
    // Once more on failure: with npm test's three shards on two cores, Chromium's fake camera at
    // times delivers no decodable frame for 30 s (the camera on, no error, nothing read; it never
    // happens on an idle machine). A new device, invitee and browser each try.
    this.retries(1);
    const attempt = cameraAttempts++;
    const lin = await invite(attempt ? `Lin Camera ${attempt + 1}` : 'Lin Camera');
    const device = (await api('POST', `/api/events/${eventId}/devices`, { name: 'Camera door' })) as {
      setup_url: string;
    };
    const browser = await launchChromium([
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${qrVideo(lin.code_unique)}`,
    ]);
    try {
      const context = await browser.newContext({
        baseURL: c.baseUrl,
        viewport: VIEWPORTS.phone,
        isMobile: true,
        hasTouch: true,
        reducedMotion: 'reduce',
      });
      await context.grantPermissions(['camera'], { origin: c.baseUrl });
      const page = await context.newPage();
      const url = new URL(device.setup_url);
      await page.goto(`${url.pathname}${url.hash}`);
      await page.waitForURL(`**/scan/${eventId}`);
      await page.getByRole('button', { name: 'Use the camera' }).click();
      await page.getByTestId('camera-preview').waitFor();
      // The camera read the code and the page answered: green, or amber when the check-in took
      // over 1.5 s on a busy machine (stored, then synced); the camera sees the code again every
      // 3 s, so a later answer may already be red "Already checked in" (this door's own first
      // scan). Whether Lin is in is asked of the service below.
      const answered = page.locator('[data-testid="scan-result"]:not([data-signal="none"])');
      await answered.waitFor({ timeout: 30_000 }).catch(async (err: Error) => {
        // Say what the page showed instead (an error beside the camera, nothing).
        const shown = await page
          .locator('main')
          .innerText()
          .catch(() => '(no main)');
        throw new Error(`${err.message}\nthe page showed:\n${shown}`);
      });
      const answer = await answered.innerText();
      expect(answer, 'the answer names the invitee or says they are in').to.match(
        /Lin Camera|Already checked in|will sync/,
      );
      await expectAccessible(page, 'door scanner with the camera on');
      const presence = async () =>
        (await api('GET', `/api/events/${eventId}/invites/${lin.id}`)) as {
          presence: boolean;
          scanne_par: string;
        };
      for (let i = 0; i < 40 && !(await presence())!.presence; i++) await page.waitForTimeout(500);
      expect(await presence()).to.include({ presence: true, scanne_par: 'Camera door' });
    } finally {
      await browser.close();
    }
  });
});
