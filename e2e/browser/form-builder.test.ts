import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { gatewayClient, registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';

interface ApiField {
  uuid: string;
  name: string;
  label: string;
  type: string;
  required: boolean;
  position: number;
  choices: Array<{ value: string; label: string }> | null;
  constraints: Record<string, unknown>;
}

/** Adds a field through the builder's dialog. */
async function addField(
  page: Page,
  f: {
    label: string;
    name: string;
    type: string;
    required?: boolean;
    choices?: string[];
    min?: string;
    max?: string;
    maxLength?: string;
  },
) {
  await page.getByRole('button', { name: 'Add a field' }).click();
  const dialog = page.getByRole('dialog', { name: 'New field' });
  await dialog.getByRole('textbox', { name: 'Question (label)' }).fill(f.label);
  await dialog.getByRole('textbox', { name: 'Name' }).fill(f.name);
  await dialog.getByRole('combobox', { name: 'Type' }).selectOption(f.type);
  if (f.required) await dialog.getByRole('checkbox', { name: 'An answer is required' }).check();
  if (f.min) await dialog.getByRole('spinbutton', { name: 'Minimum' }).fill(f.min);
  if (f.max) await dialog.getByRole('spinbutton', { name: 'Maximum' }).fill(f.max);
  if (f.maxLength) await dialog.getByRole('spinbutton', { name: 'Most characters' }).fill(f.maxLength);
  for (const [i, choice] of (f.choices ?? []).entries()) {
    if (i >= 2) await dialog.getByRole('button', { name: 'Add a choice' }).click();
    await dialog.getByRole('textbox', { name: `Label of choice ${i + 1}` }).fill(choice);
    await dialog.getByRole('textbox', { name: `Value of choice ${i + 1}` }).fill(choice.toLowerCase());
  }
  await dialog.getByRole('button', { name: 'Add the field' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.locator(`[data-field-name="${f.name}"]`).waitFor();
}

describe('console: form builder and publication (browser)', function () {
  this.timeout(180_000);
  let c: ConsoleStack;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  let projectId: number;
  before(async () => {
    c = await startConsoleStack();
    owner = await registerUser(c.baseUrl, 'Fatou Builder');
    const api = gatewayClient(c.baseUrl, owner.token);
    const ws = (await api.post('/api/v1/workspaces').send({ name: 'Nutrition' }).expect(201)).body.data.id;
    projectId = (
      await api.post(`/api/v1/workspaces/${ws}/projects`).send({ name: 'Child growth' }).expect(201)
    ).body.data.id;
  });
  after(async () => c?.stop());

  const api = () => gatewayClient(c.baseUrl, owner.token);
  const versions = async () =>
    (await api().get(`/api/v1/projects/${projectId}/versions`).expect(200)).body.data as Array<{
      id: number;
      number: number;
      status: string;
    }>;
  const fieldsOf = async (versionId: number) =>
    (await api().get(`/api/v1/versions/${versionId}`).expect(200)).body.data.fields as ApiField[];

  it('builds a form with a field of every type, reorders, edits and removes, and publishes it', async () => {
    const page = await c.newPage();
    await signInThroughPage(page, owner, `/projects/${projectId}/form`);
    await page.getByText('This project has no form yet.').waitFor();
    // No version yet: the empty state starts the first one.
    await page.getByRole('button', { name: 'Start the first version' }).click();
    await page.getByRole('heading', { name: 'Fields of version 1' }).waitFor();

    // The client checks the name's form first.
    await page.getByRole('button', { name: 'Add a field' }).click();
    const dialog = page.getByRole('dialog', { name: 'New field' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('1st');
    await dialog.getByRole('button', { name: 'Add the field' }).click();
    await dialog.getByText('Letters, digits and _ only, not starting with a digit').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await addField(page, {
      label: 'Child name',
      name: 'child',
      type: 'text',
      required: true,
      maxLength: '80',
    });
    await addField(page, { label: 'Age in months', name: 'age', type: 'integer', min: '0', max: '59' });
    await addField(page, { label: 'Weight (kg)', name: 'weight', type: 'decimal', min: '0.5' });
    await addField(page, { label: 'Visit day', name: 'visit_day', type: 'date' });
    await addField(page, { label: 'Visit time', name: 'visit_time', type: 'time' });
    await addField(page, { label: 'Sex', name: 'sex', type: 'select_one', choices: ['Girl', 'Boy'] });
    await addField(page, {
      label: 'Symptoms',
      name: 'symptoms',
      type: 'select_multiple',
      choices: ['Fever', 'Cough', 'Diarrhoea'],
    });
    await addField(page, { label: 'Household location', name: 'place', type: 'geopoint' });
    await addField(page, { label: 'Photo of the card', name: 'card', type: 'photo' });
    await addField(page, { label: 'Remark', name: 'remark', type: 'text' });

    // A name already in the version: the service's 422 shows under the field, what was typed kept.
    await page.getByRole('button', { name: 'Add a field' }).click();
    await dialog.getByRole('textbox', { name: 'Question (label)' }).fill('Another age');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('age');
    await dialog.getByRole('combobox', { name: 'Type' }).selectOption('integer');
    await dialog.getByRole('button', { name: 'Add the field' }).click();
    await dialog.getByRole('textbox', { name: 'Name' }).and(page.locator('[aria-invalid="true"]')).waitFor();
    await dialog
      .getByText(/already has this name/i)
      .first()
      .waitFor();
    expect(await dialog.getByRole('textbox', { name: 'Question (label)' }).inputValue()).to.equal(
      'Another age',
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // Reorder, edit, remove.
    await page.getByRole('button', { name: 'Move Sex up' }).click();
    await page.getByRole('button', { name: 'Edit Remark' }).click();
    await page
      .getByRole('dialog')
      .getByRole('textbox', { name: 'Question (label)' })
      .fill('Remarks of the visitor');
    await page.getByRole('button', { name: 'Save the field' }).click();
    await page.getByRole('button', { name: 'Edit Remarks of the visitor' }).waitFor();
    await page.getByRole('button', { name: 'Remove Remarks of the visitor' }).click();
    await page.getByRole('button', { name: 'Remove the field' }).click();
    await page.locator('[data-field-name="remark"]').waitFor({ state: 'detached' });

    // The preview shows the collector's inputs.
    const preview = page.getByRole('region', { name: 'Preview: what collectors see' });
    await preview.getByRole('radio', { name: 'Girl' }).waitFor();
    await preview.getByRole('checkbox', { name: 'Diarrhoea' }).waitFor();
    await preview.getByRole('button', { name: 'Use my location' }).waitFor();
    await preview.getByLabel('Photo of the card').waitFor();
    await expectAccessible(page, 'form builder with a draft');
    await screenshotBoth(page, 'form-builder');

    const [draft] = await versions();
    const fields = await fieldsOf(draft!.id);
    expect(fields.map((f) => f.name)).to.deep.equal([
      'child',
      'age',
      'weight',
      'visit_day',
      'sex',
      'visit_time',
      'symptoms',
      'place',
      'card',
    ]);
    expect(fields.map((f) => f.type)).to.include.members([
      'text',
      'integer',
      'decimal',
      'date',
      'time',
      'select_one',
      'select_multiple',
      'geopoint',
      'photo',
    ]);
    const byName = Object.fromEntries(fields.map((f) => [f.name, f]));
    expect(byName.child).to.include({ required: true });
    expect(byName.child!.constraints).to.deep.equal({ max_length: 80 });
    expect(byName.age!.constraints).to.deep.equal({ min: 0, max: 59 });
    expect(byName.symptoms!.choices).to.deep.equal([
      { value: 'fever', label: 'Fever' },
      { value: 'cough', label: 'Cough' },
      { value: 'diarrhoea', label: 'Diarrhoea' },
    ]);

    // Publish the version (after its confirmation): it becomes read-only.
    await page.getByRole('button', { name: 'Publish this version' }).click();
    await page
      .getByRole('dialog', { name: 'Publish version 1?' })
      .getByRole('button', { name: 'Publish version 1' })
      .click();
    await page.getByText('Published, read-only').waitFor();
    expect(await page.getByRole('button', { name: 'Add a field' }).count()).to.equal(0);
    expect(await page.getByRole('button', { name: /^Edit / }).count()).to.equal(0);

    // Publish the project with its settings.
    await page.getByRole('button', { name: 'Publish the project' }).click();
    const publish = page.getByRole('dialog', { name: 'Publish for collection' });
    await publish.getByRole('combobox', { name: 'Who may collect' }).selectOption('public');
    await publish.getByRole('spinbutton', { name: 'Submission limit' }).fill('500');
    await publish.getByLabel('Collection opens').fill('2030-06-01T08:00');
    await publish.getByLabel('Collection closes').fill('2030-05-01T08:00');
    await publish.getByRole('switch', { name: 'Ask for consent before each submission' }).check();
    await publish.getByRole('button', { name: 'Publish', exact: true }).click();
    await publish.getByText('Collection must close after it opens').waitFor();
    await publish.getByText('Write the text the person consents to').waitFor();
    await publish.getByLabel('Collection closes').fill('2030-07-31T18:00');
    await publish
      .getByRole('textbox', { name: 'Consent text shown to the person' })
      .fill('I agree to take part.');
    await expectAccessible(page, 'publication dialog');
    await screenshotBoth(page, 'form-builder-publish');
    await publish.getByRole('button', { name: 'Publish', exact: true }).click();
    await publish.waitFor({ state: 'detached' });
    await page.getByText('Collecting', { exact: true }).waitFor();
    const project = (await api().get(`/api/v1/projects/${projectId}`).expect(200)).body.data;
    expect(project.is_published).to.equal(true);
    expect(project.settings).to.include({
      collect_access: 'public',
      submission_limit: 500,
      require_consent: true,
      consent_text: 'I agree to take part.',
    });
    expect(new Date(project.settings.collect_expires_at).getTime()).to.be.greaterThan(
      new Date(project.settings.collect_starts_at).getTime(),
    );

    // A new version from the published one starts with its fields (same uuids).
    await page.getByRole('button', { name: 'New version from the published one' }).click();
    await page.getByRole('heading', { name: 'Fields of version 2' }).waitFor();
    const [second] = await versions();
    expect(second!.status).to.equal('draft');
    expect((await fieldsOf(second!.id)).map((f) => f.uuid)).to.deep.equal(fields.map((f) => f.uuid));

    await page.getByRole('button', { name: 'Stop collecting' }).click();
    await page.getByText('Not published', { exact: true }).waitFor();
  });
});
