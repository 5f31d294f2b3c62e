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

  async function collectorPage(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await c.newContext({ phone: true });
    await context.grantPermissions(['geolocation'], { origin: c.baseUrl });
    await context.setGeolocation({ latitude: 14.6928, longitude: -17.4467, accuracy: 12 });
    const page = await context.newPage();
    await signInThroughPage(page, collector, `/f/${project.projectId}`);
    // Opened as a collector does, from its link: the service worker (scope /f/) then takes the page.
    await page.goto(`/f/${project.projectId}`);
    await page.getByRole('heading', { level: 1, name: 'Water points' }).waitFor();
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
    await page.waitForTimeout(500); // the draft is saved 300 ms after typing stops
    await page.reload();
    await page.getByRole('button', { name: 'Discard the draft' }).click();
    await page.getByText(/unfinished answers/).waitFor({ state: 'detached' });
    expect(await page.getByRole('textbox', { name: 'Head of household' }).inputValue()).to.equal('');
    await page.reload();
    await page.getByRole('textbox', { name: 'Head of household' }).waitFor();
    expect(await page.getByText(/unfinished answers/).count()).to.equal(0);
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
