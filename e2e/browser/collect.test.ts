import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import { eventually, PNG } from '@fieldhouse/testkit';
import { gatewayClient, registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { createCollectionProject, type CollectionProject } from './support/collection-project.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';

interface ApiSubmission {
  id: number;
  collector_id: number | null;
  consent: boolean | null;
  data: Array<{ field_uuid: string; value: unknown }>;
}

/** One field of every type of spec 2.1. */
/**
 * Waits until a draft of the web form in this browser's store (IndexedDB `fieldhouse-collect`,
 * object store `drafts`) holds `text` as an answer. Opens the existing database only: an
 * upgrade (no database yet) is aborted, so the page's own store is never created here.
 */
const untilDraftHolds = (page: Page, text: string) =>
  eventually(
    () =>
      page.evaluate(async (t) => {
        const db = await new Promise<IDBDatabase | undefined>((resolve) => {
          const open = indexedDB.open('fieldhouse-collect');
          open.onupgradeneeded = () => open.transaction?.abort();
          open.onsuccess = () => resolve(open.result);
          open.onerror = () => resolve(undefined);
        });
        if (!db) return false;
        try {
          const drafts = await new Promise<unknown[]>((resolve) => {
            const all = db.transaction('drafts').objectStore('drafts').getAll();
            all.onsuccess = () => resolve(all.result);
            all.onerror = () => resolve([]);
          });
          return JSON.stringify(drafts).includes(JSON.stringify(t));
        } finally {
          db.close();
        }
      }, text),
    30_000,
  );

const EVERY_TYPE = [
  {
    name: 'household',
    label: 'Head of household',
    type: 'text',
    required: true,
    constraints: { max_length: 60 },
  },
  { name: 'members', label: 'Members', type: 'integer', constraints: { min: 1, max: 40 } },
  { name: 'income', label: 'Monthly income', type: 'decimal' },
  { name: 'visit_day', label: 'Visit day', type: 'date' },
  { name: 'visit_time', label: 'Visit time', type: 'time' },
  { name: 'next_visit', label: 'Next visit', type: 'datetime' },
  {
    name: 'water',
    label: 'Water source',
    type: 'select_one',
    choices: [
      { value: 'well', label: 'Well' },
      { value: 'tap', label: 'Tap' },
    ],
  },
  {
    name: 'assets',
    label: 'Assets',
    type: 'select_multiple',
    choices: [
      { value: 'radio', label: 'Radio' },
      { value: 'bike', label: 'Bicycle' },
      { value: 'phone', label: 'Phone' },
    ],
  },
  { name: 'place', label: 'Location', type: 'geopoint' },
  { name: 'house', label: 'Photo of the house', type: 'photo' },
];

/**
 * The largest photo the web form sends as is (PHOTO_MAX_BYTES of
 * console/src/pages/collect/PhotoInput.tsx): larger ones are resized on the device first, since
 * photos travel base64 in the JSON body the service caps at 1 MB (its own limit per photo,
 * PHOTO_MAX_BYTES of the collection service, is 5 MiB).
 */
const PHOTO_MAX_BYTES = 500_000;

/** A 2×2 grey BMP: an image to the browser (`image/*`), not a photo type the service takes. */
const BMP = (() => {
  const width = 2;
  const height = 2;
  const row = Math.ceil((width * 3) / 4) * 4;
  const bytes = Buffer.alloc(54 + row * height, 0x80);
  bytes.write('BM', 0, 'ascii');
  bytes.writeUInt32LE(bytes.length, 2);
  bytes.writeUInt32LE(0, 6);
  bytes.writeUInt32LE(54, 10);
  bytes.writeUInt32LE(40, 14);
  bytes.writeInt32LE(width, 18);
  bytes.writeInt32LE(height, 22);
  bytes.writeUInt16LE(1, 26);
  bytes.writeUInt16LE(24, 28);
  bytes.fill(0, 30, 54);
  bytes.writeUInt32LE(row * height, 34);
  return bytes;
})();

describe('console: the collector web form, offline queue and drafts (browser)', function () {
  this.timeout(180_000);
  let c: ConsoleStack;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  let collector: Awaited<ReturnType<typeof registerUser>>;
  let project: CollectionProject;
  before(async () => {
    c = await startConsoleStack();
    [owner, collector] = await Promise.all([
      registerUser(c.baseUrl, 'Owen Owner'),
      registerUser(c.baseUrl, 'Coumba Collector'),
    ]);
    project = await createCollectionProject(c.baseUrl, owner.token, EVERY_TYPE);
    await gatewayClient(c.baseUrl, collector.token).get('/api/v1/workspaces').expect(200);
    await gatewayClient(c.baseUrl, owner.token)
      .post(`/api/v1/workspaces/${project.workspaceId}/members`)
      .send({ email: collector.email, role: 'collector' })
      .expect(201);
  });
  after(async () => c?.stop());

  const submissions = async (p: CollectionProject = project) =>
    (
      await gatewayClient(c.baseUrl, owner.token)
        .get(`/api/v1/projects/${p.projectId}/submissions?per_page=100`)
        .expect(200)
    ).body.data as ApiSubmission[];
  const answer = (s: ApiSubmission, p: CollectionProject, name: string) =>
    s.data.find((e) => e.field_uuid === p.fields[name]!.uuid)?.value;

  async function collectorPage(
    p: CollectionProject = project,
    name = 'Water points',
  ): Promise<{ context: BrowserContext; page: Page }> {
    const context = await c.newContext({ phone: true });
    await context.grantPermissions(['geolocation'], { origin: c.baseUrl });
    await context.setGeolocation({ latitude: 14.6928, longitude: -17.4467, accuracy: 12 });
    const page = await context.newPage();
    await signInThroughPage(page, collector, `/f/${p.projectId}`);
    // Opened as a collector does, from its link: the service worker (scope /f/) then takes the page.
    await page.goto(`/f/${p.projectId}`);
    await page.getByRole('heading', { level: 1, name }).waitFor();
    return { context, page };
  }
  const send = (page: Page) => page.getByRole('button', { name: 'Send', exact: true }).click();
  const summary = (page: Page) => page.getByTestId('queue-summary');

  it('fills every field type (photo and geopoint included), checks values first, and sends', async () => {
    const { page } = await collectorPage();
    await expectAccessible(page, 'web form');

    // The client checks what the service checks, and says which field.
    await page.getByRole('spinbutton', { name: 'Members' }).fill('80');
    await send(page);
    await page.getByText('An answer is required').waitFor();
    await page.getByText('At most 40').waitFor();

    await page.getByRole('textbox', { name: 'Head of household' }).fill('Awa Diallo');
    await page.getByRole('spinbutton', { name: 'Members' }).fill('7');
    await page.getByRole('spinbutton', { name: 'Monthly income' }).fill('125000.5');
    await page.getByLabel('Visit day').fill('2027-03-14');
    await page.getByLabel('Visit time').fill('09:30:15');
    // A date-time is typed in the device's time zone, which the field names, and sent with its offset.
    await page.getByLabel('Next visit').fill('2027-04-02T16:45:30');
    const zone = await page.evaluate(() => {
      const minutes = -new Date(2027, 3, 2, 16, 45, 30).getTimezoneOffset();
      const pad = (n: number) => String(Math.abs(n)).padStart(2, '0');
      return `${minutes < 0 ? '-' : '+'}${pad(Math.trunc(minutes / 60))}:${pad(minutes % 60)}`;
    });
    const nowZone = await page.evaluate(() => {
      const minutes = -new Date().getTimezoneOffset();
      const pad = (n: number) => String(Math.abs(n)).padStart(2, '0');
      return `${minutes < 0 ? '-' : '+'}${pad(Math.trunc(minutes / 60))}:${pad(minutes % 60)}`;
    });
    await page.getByText(`Time zone of this device: UTC${nowZone}`).waitFor();
    await page.getByRole('radio', { name: 'Well' }).check();
    await page.getByRole('checkbox', { name: 'Radio' }).check();
    await page.getByRole('checkbox', { name: 'Phone' }).check();
    await page.getByRole('button', { name: 'Use my location' }).click();
    await page.getByText('Location found, accurate to 12 m.').waitFor();
    await page
      .getByLabel('Photo of the house')
      .setInputFiles({ name: 'house.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('img', { name: 'Chosen photo for Photo of the house' }).waitFor();
    await screenshotBoth(page, 'web-form');
    await send(page);
    await page.getByText('Everything has been sent.').waitFor();

    const [sent] = await submissions();
    expect(sent!.collector_id).to.equal(collector.id);
    expect(answer(sent!, project, 'household')).to.equal('Awa Diallo');
    expect(answer(sent!, project, 'members')).to.equal(7);
    expect(answer(sent!, project, 'income')).to.equal(125000.5);
    expect(answer(sent!, project, 'visit_day')).to.equal('2027-03-14');
    expect(answer(sent!, project, 'visit_time')).to.equal('09:30:15');
    expect(answer(sent!, project, 'next_visit')).to.equal(`2027-04-02T16:45:30.000${zone}`);
    expect(answer(sent!, project, 'water')).to.equal('well');
    expect(answer(sent!, project, 'assets')).to.deep.equal(['radio', 'phone']);
    expect(answer(sent!, project, 'place')).to.deep.equal([14.6928, -17.4467, 0, 12]);
    expect(answer(sent!, project, 'house')).to.have.property('content_type', 'image/png');
  });

  it('queues three submissions offline, keeps them over a reload, and sends each exactly once', async () => {
    const before = (await submissions()).length;
    const { context, page } = await collectorPage();
    // The service worker controls the page once it has cached the app.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
      timeout: 20_000,
    });

    await context.setOffline(true);
    for (const name of ['Offline one', 'Offline two', 'Offline three']) {
      await page.getByRole('textbox', { name: 'Head of household' }).fill(name);
      await send(page);
      await page.getByText('Saved on this device. It will be sent when the network is back.').waitFor();
    }
    await summary(page).getByText('No network: 3 submissions wait here').waitFor();

    await page.reload();
    await page.getByText('this is the copy of the form kept on this device').waitFor();
    await summary(page).getByText('No network: 3 submissions wait here').waitFor();
    expect(await page.locator('li[data-status="pending"]').count()).to.equal(3);
    await expectAccessible(page, 'web form offline with a queue');
    await screenshotBoth(page, 'web-form-queue');
    expect((await submissions()).length).to.equal(before);

    await context.setOffline(false);
    await summary(page).getByText('Everything has been sent.').waitFor();
    await page.getByRole('button', { name: 'Send 0 now' }).waitFor();
    expect(await page.locator('li[data-status="sent"]').count()).to.equal(3);
    const all = await submissions();
    expect(all.length).to.equal(before + 3);
    const names = all.map((s) => answer(s, project, 'household'));
    for (const name of ['Offline one', 'Offline two', 'Offline three'])
      expect(names.filter((n) => n === name)).to.have.length(1);
    // Sending again changes nothing (sent items are not pending any more).
    await page.reload();
    await summary(page).getByText('Everything has been sent.').waitFor();
    expect((await submissions()).length).to.equal(before + 3);

    // The project's manager sees them in the submissions table, once each.
    const manager = await c.newPage();
    await signInThroughPage(manager, owner, `/projects/${project.projectId}/submissions?search=offline`);
    await manager.getByText('3 submissions', { exact: true }).waitFor();
    const rows = await manager.locator('tbody tr[data-submission]').allInnerTexts();
    for (const name of ['Offline one', 'Offline two', 'Offline three'])
      expect(rows.filter((r) => r.includes(name))).to.have.length(1);
  });

  it('keeps a refused submission with its reason until it is corrected, and resumes a draft', async () => {
    const { context, page } = await collectorPage();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
      timeout: 20_000,
    });
    await context.setOffline(true);
    await page.getByRole('textbox', { name: 'Head of household' }).fill('Late household');
    await send(page);
    await summary(page).getByText('No network: 1 submission waits here').waitFor();
    // Meanwhile the project stops collecting.
    const ownerApi = gatewayClient(c.baseUrl, owner.token);
    await ownerApi.post(`/api/v1/projects/${project.projectId}/unpublish`).expect(200);
    await context.setOffline(false);
    const refused = page.locator('li[data-status="refused"]');
    await refused.waitFor();
    expect(await refused.innerText()).to.match(/not published|not collecting|publish/i);
    await page.reload();
    await page.getByText('Not collecting now').waitFor();
    await page.locator('li[data-status="refused"]').waitFor(); // still kept

    await ownerApi.post(`/api/v1/projects/${project.projectId}/publish`).send({}).expect(200);
    await page.reload();
    await page.getByRole('button', { name: 'Correct it' }).click();
    expect(await page.getByRole('textbox', { name: 'Head of household' }).inputValue()).to.equal(
      'Late household',
    );
    await page.locator('li[data-status="refused"]').waitFor({ state: 'detached' });

    // The answers are a draft now: they survive a reload.
    await page.reload();
    await page.getByText(/Your unfinished answers of .* are back/).waitFor();
    expect(await page.getByRole('textbox', { name: 'Head of household' }).inputValue()).to.equal(
      'Late household',
    );
    await send(page);
    await summary(page).getByText('Everything has been sent.').waitFor();
    expect((await submissions()).some((s) => answer(s, project, 'household') === 'Late household')).to.equal(
      true,
    );

    // A draft can be discarded.
    await page.getByRole('textbox', { name: 'Head of household' }).fill('Never sent');
    await untilDraftHolds(page, 'Never sent'); // saved 300 ms after typing stops
    await page.reload();
    await page.getByRole('button', { name: 'Discard the draft' }).click();
    await page.getByText(/unfinished answers/).waitFor({ state: 'detached' });
    expect(await page.getByRole('textbox', { name: 'Head of household' }).inputValue()).to.equal('');
    await page.reload();
    await page.getByRole('textbox', { name: 'Head of household' }).waitFor();
    expect(await page.getByText(/unfinished answers/).count()).to.equal(0);
  });

  it('names the field and the reason of a value the service refuses, and keeps the answers until corrected', async () => {
    const { page } = await collectorPage();
    const household = page.getByRole('textbox', { name: 'Head of household' });
    const members = page.getByRole('spinbutton', { name: 'Members' });
    const photo = page.getByLabel('Photo of the house');
    await household.fill('Bitmap household');
    await members.fill('4');
    // An image to the browser, small enough to go as it is: only the service sees it is no photo type.
    await photo.setInputFiles({ name: 'house.bmp', mimeType: 'image/bmp', buffer: BMP });
    await page.getByRole('img', { name: 'Chosen photo for Photo of the house' }).waitFor();
    await send(page);

    const reason = 'Photo of the house: the photo is not a JPEG, PNG, WebP, GIF, HEIC or AVIF image';
    const refused = page.locator('li[data-status="refused"]');
    await refused.getByText(reason).waitFor();
    await summary(page).getByText('Everything has been sent.').waitFor();
    const stored = async () =>
      (await submissions()).filter((s) => answer(s, project, 'household') === 'Bitmap household');
    expect(await stored()).to.have.length(0);

    // Kept on the device, with its reason, over a reload.
    await page.reload();
    await refused.getByText(reason).waitFor();
    await expectAccessible(page, 'web form with a refused submission');

    await refused.getByRole('button', { name: 'Correct it' }).click();
    await refused.waitFor({ state: 'detached' });
    expect(await household.inputValue()).to.equal('Bitmap household');
    expect(await members.inputValue()).to.equal('4');
    await page.getByRole('img', { name: 'Chosen photo for Photo of the house' }).waitFor();
    // The reason shows under the field it is about, tied to its input.
    const photoField = page.locator(`[data-field="${project.fields.house!.uuid}"]`);
    await photoField.getByText('the photo is not a JPEG, PNG, WebP, GIF, HEIC or AVIF image').waitFor();
    expect(await photo.getAttribute('aria-invalid')).to.equal('true');
    await page.getByText('Some answers need a look: see the messages under them.').waitFor();
    await expectAccessible(page, 'web form correcting a refused submission');

    await photo.setInputFiles({ name: 'house.png', mimeType: 'image/png', buffer: PNG });
    await photoField.getByText(/not a JPEG/).waitFor({ state: 'detached' });
    await send(page);
    await summary(page).getByText('Everything has been sent.').waitFor();
    const [sent] = await stored();
    expect(answer(sent!, project, 'members')).to.equal(4);
    expect(answer(sent!, project, 'house')).to.have.property('content_type', 'image/png');
  });

  it('refuses only the item of a batch whose answer cannot be stored, under its field, and sends the others', async () => {
    const { context, page } = await collectorPage();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
      timeout: 20_000,
    });
    const household = page.getByRole('textbox', { name: 'Head of household' });
    await context.setOffline(true);
    await household.fill('Good neighbour');
    await send(page);
    await page.getByText('Saved on this device. It will be sent when the network is back.').waitFor();
    // Pasted text with a NUL character: no client check stops it, no database stores it, and
    // the service refuses the whole sync request, naming the item's entry.
    await household.fill('Pasted\u0000household');
    expect(await household.inputValue()).to.equal('Pasted\u0000household');
    await send(page);
    await summary(page).getByText('No network: 2 submissions wait here').waitFor();

    await context.setOffline(false);
    const refused = page.locator('li[data-status="refused"]');
    await refused.getByText(/^Head of household: .*must not contain the NUL character/).waitFor();
    await summary(page).getByText('Everything has been sent.').waitFor();
    expect(await refused.count()).to.equal(1);
    expect(await page.locator('li[data-status="sent"]').count()).to.equal(1);
    const names = (await submissions()).map((s) => answer(s, project, 'household'));
    expect(names.filter((n) => n === 'Good neighbour')).to.have.length(1);
    expect(names.filter((n) => String(n).startsWith('Pasted'))).to.have.length(0);

    await page.reload();
    await refused.getByRole('button', { name: 'Correct it' }).click();
    expect(await household.inputValue()).to.equal('Pasted\u0000household');
    const field = page.locator(`[data-field="${project.fields.household!.uuid}"]`);
    await field.getByText(/must not contain the NUL character/).waitFor();
    expect(await household.getAttribute('aria-invalid')).to.equal('true');
    await household.fill('Pasted household');
    await send(page);
    // "Everything has been sent." may still be the summary from before this send: the service says.
    await eventually(
      async () => (await submissions()).some((s) => answer(s, project, 'household') === 'Pasted household'),
      15_000,
      250,
    );
    await summary(page).getByText('Everything has been sent.').waitFor();
  });

  it('says a project reached its submission limit, and keeps the refused answers', async () => {
    const limited = await createCollectionProject(
      c.baseUrl,
      owner.token,
      [{ name: 'herons', label: 'Herons counted', type: 'integer', required: true }],
      { collect_access: 'authenticated', submission_limit: 1 },
      { workspace: 'Bird census', project: 'Heron count' },
    );
    const { page } = await collectorPage(limited, 'Heron count');
    const herons = page.getByRole('spinbutton', { name: 'Herons counted' });
    await herons.fill('12');
    await send(page);
    await page.locator('li[data-status="sent"]').waitFor();
    await herons.fill('31');
    await send(page);

    const reason = 'This project has received all the submissions it accepts.';
    const refused = page.locator('li[data-status="refused"]');
    await refused.getByText(reason).waitFor();
    expect((await submissions(limited)).map((s) => answer(s, limited, 'herons'))).to.deep.equal([12]);
    await page.reload();
    await refused.getByText(reason).waitFor();
    await expectAccessible(page, 'web form refused by the submission limit');

    await refused.getByRole('button', { name: 'Correct it' }).click();
    expect(await herons.inputValue()).to.equal('31');
    // No field is at fault: the reason shows above the form.
    const alert = page.getByRole('alert').filter({ hasText: 'The service refused these answers.' });
    await alert.getByText(reason).waitFor();
    expect(await page.getByText('see the messages under them').count()).to.equal(0);
    await expectAccessible(page, 'web form correcting a submission over the limit');

    // Once the managers raise the limit, the same answers go through.
    await gatewayClient(c.baseUrl, owner.token)
      .post(`/api/v1/projects/${limited.projectId}/publish`)
      .send({ submission_limit: 2 })
      .expect(200);
    await send(page);
    await summary(page).getByText('Everything has been sent.').waitFor();
    await alert.waitFor({ state: 'detached' });
    // The page says sent once the service answered; read until the list shows the new one too.
    let counts: unknown[] = [];
    await eventually(async () => {
      counts = (await submissions(limited)).map((s) => answer(s, limited, 'herons'));
      return counts.length === 2;
    });
    expect(counts.sort()).to.deep.equal([12, 31]);
  });

  it('makes a camera photo over the limit smaller on the device before sending it', async () => {
    const { page } = await collectorPage();
    // A 3,000 × 2,000 camera picture of pure noise: the worst case for compression.
    const camera = Buffer.from(
      await page.evaluate(async () => {
        const [width, height] = [3000, 2000];
        const canvas = new OffscreenCanvas(width, height);
        const context = canvas.getContext('2d')!;
        const pixels = context.createImageData(width, height);
        let x = 2463534242;
        for (let i = 0; i < pixels.data.length; i += 4) {
          x ^= x << 13;
          x ^= x >>> 17;
          x ^= x << 5;
          pixels.data[i] = x & 255;
          pixels.data[i + 1] = (x >>> 8) & 255;
          pixels.data[i + 2] = (x >>> 16) & 255;
          pixels.data[i + 3] = 255;
        }
        context.putImageData(pixels, 0, 0);
        const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.92 });
        const bytes = new Uint8Array(await blob.arrayBuffer());
        let binary = '';
        for (let i = 0; i < bytes.length; i += 0x8000)
          binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
        return btoa(binary);
      }),
      'base64',
    );
    expect(camera.length).to.be.above(PHOTO_MAX_BYTES * 4);

    await page.getByRole('textbox', { name: 'Head of household' }).fill('Big photo household');
    await page
      .getByLabel('Photo of the house')
      .setInputFiles({ name: 'camera.jpg', mimeType: 'image/jpeg', buffer: camera });
    const chosen = page.getByText(/^camera\.jpg, \d+ KB to send$/);
    await chosen.waitFor({ timeout: 60_000 });
    const kb = Number(/(\d+) KB/.exec(await chosen.innerText())![1]);
    expect(kb).to.be.at.most(PHOTO_MAX_BYTES / 1000);
    await page.getByRole('img', { name: 'Chosen photo for Photo of the house' }).waitFor();
    await send(page);
    await summary(page).getByText('Everything has been sent.').waitFor();

    const sent = (await submissions()).find((s) => answer(s, project, 'household') === 'Big photo household');
    expect(sent, 'the submission with the big photo').to.not.equal(undefined);
    const ref = answer(sent!, project, 'house') as { url: string; size: number; content_type: string };
    expect(ref.content_type).to.equal('image/jpeg');
    expect(ref.size).to.be.at.most(PHOTO_MAX_BYTES);
    // The stored bytes: within the limit, and still a picture of the same shape, at most 1,600 px.
    const stored = (await gatewayClient(c.baseUrl, owner.token).get(ref.url).expect(200)).body as Buffer;
    expect(stored.length).to.equal(ref.size);
    expect(stored.length).to.be.at.most(PHOTO_MAX_BYTES);
    const decoded = await page.evaluate(async (base64) => {
      const bytes = Uint8Array.from(atob(base64), (ch) => ch.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/jpeg' }));
      return { width: bitmap.width, height: bitmap.height };
    }, stored.toString('base64'));
    expect(decoded.width).to.be.within(200, 1600);
    expect(decoded.width / decoded.height).to.be.closeTo(1.5, 0.01);
  });

  it('lets anyone fill a public project without signing in, after the consent step', async () => {
    const open = await createCollectionProject(
      c.baseUrl,
      owner.token,
      [{ name: 'opinion', label: 'Your opinion', type: 'text', required: true }],
      { collect_access: 'public', require_consent: true, consent_text: 'I agree that my answer is kept.' },
      { workspace: 'Public consultation', project: 'Town hall hours' },
    );
    const page = await c.newPage();
    await page.goto(`/f/${open.projectId}`);
    await page.getByText('I agree that my answer is kept.').waitFor();
    await page.getByText('You are not signed in: what you send is anonymous.').waitFor();
    await expectAccessible(page, 'consent step');
    await page.getByRole('button', { name: 'I agree' }).click();
    await page.getByRole('textbox', { name: 'Your opinion' }).fill('Open on Saturdays');
    await send(page);
    await summary(page).getByText('Everything has been sent.').waitFor();
    const [sent] = await eventually(async () => {
      const list = await submissions(open);
      return list.length ? list : undefined;
    });
    expect(sent!.collector_id).to.equal(null);
    expect(sent!.consent).to.equal(true);
    expect(answer(sent!, open, 'opinion')).to.equal('Open on Saturdays');
  });
});
