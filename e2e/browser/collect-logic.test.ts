import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import { gatewayClient, registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';

interface ApiEntry {
  field_uuid: string;
  type: string;
  value: unknown;
}

interface ApiSubmission {
  id: number;
  data: ApiEntry[];
}

/**
 * A household survey in English and French (form-model.md): a cascading select (district by
 * region), a repeat of members (1 to 3) with a constraint on the age and a question asked only
 * to women aged 15–49, a calculation counting the members, a group and a note.
 */
const HOUSEHOLD = [
  {
    name: 'household',
    type: 'text',
    required: true,
    label: { en: 'Head of household', fr: 'Chef de ménage' },
    hint: { en: 'As written on the ID card', fr: 'Comme sur la carte d’identité' },
  },
  {
    name: 'region',
    type: 'select_one',
    label: { en: 'Region', fr: 'Région' },
    choices: [
      { value: 'north', label: { en: 'North', fr: 'Nord' } },
      { value: 'south', label: { en: 'South', fr: 'Sud' } },
    ],
  },
  {
    name: 'district',
    type: 'select_one',
    label: { en: 'District', fr: 'District' },
    choice_filter: 'region = ${region}',
    choices: [
      { value: 'upper', label: { en: 'Upper valley', fr: 'Haute vallée' }, properties: { region: 'north' } },
      { value: 'lower', label: { en: 'Lower coast', fr: 'Basse côte' }, properties: { region: 'south' } },
    ],
  },
  {
    name: 'member',
    type: 'repeat',
    label: { en: 'Member', fr: 'Membre' },
    min_repeats: 1,
    max_repeats: 3,
  },
  {
    name: 'age',
    type: 'integer',
    parent: 'member',
    required: true,
    label: { en: 'Age', fr: 'Âge' },
    constraint: '. >= 0 and . <= 120',
    constraint_message: { en: 'An age from 0 to 120', fr: 'Un âge de 0 à 120' },
  },
  {
    name: 'sex',
    type: 'select_one',
    parent: 'member',
    label: { en: 'Sex', fr: 'Sexe' },
    choices: [
      { value: 'female', label: { en: 'Female', fr: 'Féminin' } },
      { value: 'male', label: { en: 'Male', fr: 'Masculin' } },
    ],
  },
  {
    name: 'pregnant',
    type: 'select_one',
    parent: 'member',
    label: { en: 'Is she pregnant?', fr: 'Est-elle enceinte ?' },
    relevant: "${sex} = 'female' and ${age} >= 15 and ${age} <= 49",
    choices: [
      { value: 'yes', label: { en: 'Yes', fr: 'Oui' } },
      { value: 'no', label: { en: 'No', fr: 'Non' } },
    ],
  },
  {
    name: 'members_counted',
    type: 'calculate',
    label: { en: 'Members counted', fr: 'Membres comptés' },
    calculation: 'count(${member})',
  },
  { name: 'water', type: 'group', label: { en: 'Water', fr: 'Eau' } },
  {
    name: 'source',
    type: 'text',
    parent: 'water',
    label: { en: 'Main water source', fr: 'Source d’eau principale' },
  },
  {
    name: 'thanks',
    type: 'note',
    label: { en: 'Thank you for your time.', fr: 'Merci de votre temps.' },
  },
];

describe('console: the web form evaluates the form logic (browser)', function () {
  this.timeout(180_000);
  let c: ConsoleStack;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  let collector: Awaited<ReturnType<typeof registerUser>>;
  let projectId: number;
  const uuids: Record<string, string> = {};

  before(async () => {
    c = await startConsoleStack();
    [owner, collector] = await Promise.all([
      registerUser(c.baseUrl, 'Olga Owner'),
      registerUser(c.baseUrl, 'Kofi Collector'),
    ]);
    const api = gatewayClient(c.baseUrl, owner.token);
    const workspaceId = (await api.post('/api/v1/workspaces').send({ name: 'Survey team' }).expect(201)).body
      .data.id as number;
    projectId = (
      await api
        .post(`/api/v1/workspaces/${workspaceId}/projects`)
        .send({ name: 'Household survey' })
        .expect(201)
    ).body.data.id as number;
    const versionId = (
      await api
        .post(`/api/v1/projects/${projectId}/versions`)
        .send({ languages: ['en', 'fr'], default_language: 'en' })
        .expect(201)
    ).body.data.id as number;
    for (const field of HOUSEHOLD) {
      const res = await api.post(`/api/v1/versions/${versionId}/fields`).send(field);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      uuids[field.name] = res.body.data.uuid as string;
    }
    await api.post(`/api/v1/versions/${versionId}/publish`).expect(200);
    await api.post(`/api/v1/projects/${projectId}/publish`).send({}).expect(200);
    await gatewayClient(c.baseUrl, collector.token).get('/api/v1/workspaces').expect(200);
    await api
      .post(`/api/v1/workspaces/${workspaceId}/members`)
      .send({ email: collector.email, role: 'collector' })
      .expect(201);
  });
  after(async () => c?.stop());

  const submissions = async () =>
    (
      await gatewayClient(c.baseUrl, owner.token)
        .get(`/api/v1/projects/${projectId}/submissions?per_page=100`)
        .expect(200)
    ).body.data as ApiSubmission[];
  const entry = (entries: ApiEntry[], name: string) => entries.find((e) => e.field_uuid === uuids[name]);

  async function collectorPage(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await c.newContext({ phone: true });
    const page = await context.newPage();
    await signInThroughPage(page, collector, `/f/${projectId}`);
    await page.goto(`/f/${projectId}`);
    await page.getByRole('heading', { level: 1, name: 'Household survey' }).waitFor();
    await page.getByRole('heading', { name: 'Member 1 of 1' }).waitFor();
    return { context, page };
  }
  const send = (page: Page) => page.getByRole('button', { name: 'Send', exact: true }).click();
  const member = (page: Page, n: number, count: number) =>
    page.getByRole('region', { name: `Member ${n} of ${count}` });

  it('shows questions by their relevance, constraint messages, narrowed choices, repeats and a second language', async () => {
    const { page } = await collectorPage();

    // Cascading select: the districts of the chosen region only.
    await page.getByRole('radio', { name: 'North' }).check();
    await page.getByRole('radio', { name: 'Upper valley' }).waitFor();
    expect(await page.getByRole('radio', { name: 'Lower coast' }).count()).to.equal(0);
    await page.getByRole('radio', { name: 'South' }).check();
    await page.getByRole('radio', { name: 'Lower coast' }).waitFor();
    expect(await page.getByRole('radio', { name: 'Upper valley' }).count()).to.equal(0);

    // A constraint message under the field, gone once the answer holds.
    const first = member(page, 1, 1);
    await first.getByRole('spinbutton', { name: 'Age' }).fill('200');
    await first.getByText('An age from 0 to 120').waitFor();
    await first.getByRole('spinbutton', { name: 'Age' }).fill('31');
    await first.getByText('An age from 0 to 120').waitFor({ state: 'detached' });

    // Skip logic: asked only to women aged 15–49. A question not relevant is out of sight and of
    // the accessibility tree (hidden, not removed: its roles are not found).
    expect(await page.getByRole('group', { name: 'Is she pregnant?' }).count()).to.equal(0);
    const pregnant = page.locator('[data-field="member.0.pregnant"]');
    expect([await pregnant.count(), await pregnant.isHidden()]).to.deep.equal([1, true]);
    await first.getByRole('radio', { name: 'Female' }).check();
    await first.getByRole('group', { name: 'Is she pregnant?' }).waitFor();
    await first.getByRole('spinbutton', { name: 'Age' }).fill('60');
    await first.getByRole('group', { name: 'Is she pregnant?' }).waitFor({ state: 'detached' });
    await first.getByRole('spinbutton', { name: 'Age' }).fill('31');
    await first.getByRole('radio', { name: 'Yes' }).check();

    // Repeats: add two members (the maximum is 3), remove one; the calculation follows.
    await page.getByText('Members counted: 1').waitFor();
    await page.getByRole('button', { name: 'Add Member' }).click();
    await member(page, 2, 2).getByRole('spinbutton', { name: 'Age' }).fill('9');
    await page.getByRole('button', { name: 'Add Member' }).click();
    await member(page, 3, 3).getByRole('spinbutton', { name: 'Age' }).fill('40');
    await page.getByText('Members counted: 3').waitFor();
    expect(await page.getByRole('button', { name: 'Add Member' }).count()).to.equal(0);
    await page.getByRole('button', { name: 'Remove Member 2' }).click();
    await page.getByText('Members counted: 2').waitFor();
    // The third member moved up, with its answer.
    expect(await member(page, 2, 2).getByRole('spinbutton', { name: 'Age' }).inputValue()).to.equal('40');
    await member(page, 2, 2).getByRole('radio', { name: 'Male', exact: true }).check();

    await page.getByRole('textbox', { name: 'Main water source' }).fill('Borehole');
    await expectAccessible(page, 'web form with logic');
    await screenshotBoth(page, 'collect-logic');

    // Language switch: the form's texts, choices and messages in French.
    await page.getByRole('combobox', { name: 'Language of the form' }).selectOption('fr');
    await page.getByRole('heading', { name: 'Membre 1 sur 2' }).waitFor();
    await page.getByRole('textbox', { name: 'Chef de ménage' }).waitFor();
    await page.getByRole('radio', { name: 'Basse côte' }).waitFor();
    const premier = page.getByRole('region', { name: 'Membre 1 sur 2' });
    await premier.getByRole('spinbutton', { name: 'Âge' }).fill('130');
    await premier.getByText('Un âge de 0 à 120').waitFor();
    await premier.getByRole('spinbutton', { name: 'Âge' }).fill('31');
    await expectAccessible(page, 'web form with logic, in French');

    // A required answer missing is said under its field; then the nested data is sent.
    await send(page);
    await page.getByText('Une réponse est obligatoire').waitFor();
    await page.getByRole('textbox', { name: 'Chef de ménage' }).fill('Awa Diallo');
    await page.getByRole('radio', { name: 'Basse côte' }).check();
    await send(page);
    await page.getByText('Everything has been sent.').waitFor();
    const [sent] = (await submissions()).filter((s) => entry(s.data, 'household')?.value === 'Awa Diallo');
    expect(sent, 'the submission').to.exist;
    expect(entry(sent!.data, 'district')?.value).to.equal('lower');
    expect(entry(sent!.data, 'source')?.value).to.equal('Borehole');
    expect(entry(sent!.data, 'members_counted')?.value).to.equal('2');
    const instances = entry(sent!.data, 'member')?.value as ApiEntry[][];
    expect(instances).to.have.length(2);
    expect(entry(instances[0]!, 'age')?.value).to.equal(31);
    expect(entry(instances[0]!, 'pregnant')?.value).to.equal('yes');
    expect(entry(instances[1]!, 'age')?.value).to.equal(40);
    expect(entry(instances[1]!, 'pregnant')).to.equal(undefined);

    // The project's manager sees it in the submission drawer: the group and the repeat's instances.
    const manager = await c.newPage();
    await signInThroughPage(manager, owner, `/projects/${projectId}/submissions?submission=${sent!.id}`);
    const drawer = manager.getByRole('dialog', { name: `Submission #${sent!.id}` });
    const members = drawer.getByRole('region', { name: 'Member', exact: true });
    await members.getByText('Member 2 of 2').waitFor();
    await members.getByText('Member 1 of 2').waitFor();
    await members.locator('dd', { hasText: /^Yes$/ }).waitFor();
    await drawer.getByRole('region', { name: 'Water' }).getByText('Borehole').waitFor();
    await expectAccessible(manager, 'submission drawer with a group and a repeat');
  });

  it('queues a submission with repeats offline, keeps it over a reload, and sends it once', async () => {
    const before = (await submissions()).length;
    const { context, page } = await collectorPage();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
      timeout: 20_000,
    });
    await context.setOffline(true);
    await page.getByRole('textbox', { name: 'Head of household' }).fill('Offline household');
    await member(page, 1, 1).getByRole('spinbutton', { name: 'Age' }).fill('52');
    await page.getByRole('button', { name: 'Add Member' }).click();
    await member(page, 2, 2).getByRole('spinbutton', { name: 'Age' }).fill('17');
    await member(page, 2, 2).getByRole('radio', { name: 'Female' }).check();
    await member(page, 2, 2).getByRole('radio', { name: 'No' }).check();
    await send(page);
    await page.getByText('Saved on this device. It will be sent when the network is back.').waitFor();

    await page.reload();
    await page.getByText('this is the copy of the form kept on this device').waitFor();
    await page.getByTestId('queue-summary').getByText('No network: 1 submission waits here').waitFor();
    expect((await submissions()).length).to.equal(before);

    await context.setOffline(false);
    await page.getByTestId('queue-summary').getByText('Everything has been sent.').waitFor();
    await page.reload();
    await page.getByTestId('queue-summary').getByText('Everything has been sent.').waitFor();
    const all = await submissions();
    expect(all.length).to.equal(before + 1);
    const mine = all.filter((s) => entry(s.data, 'household')?.value === 'Offline household');
    expect(mine).to.have.length(1);
    const instances = entry(mine[0]!.data, 'member')?.value as ApiEntry[][];
    expect(instances.map((i) => entry(i, 'age')?.value)).to.deep.equal([52, 17]);
    expect(entry(instances[1]!, 'pregnant')?.value).to.equal('no');
  });
});
