import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { gatewayClient, registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { expectNoOverflow } from './support/overflow.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';

interface ApiField {
  name: string;
  label: string;
  type: string;
  parent?: string | null;
  relevant?: string | null;
  translations?: Record<string, { label?: string }> | null;
}

/** Opens the "New field" dialog (from `button`), fills the label, name and type, and returns it. */
async function openNewField(page: Page, button: string, f: { label: string; name: string; type: string }) {
  await page.getByRole('button', { name: button }).click();
  const dialog = page.getByRole('dialog', { name: 'New field' });
  await dialog.getByRole('textbox', { name: 'Question (label)' }).fill(f.label);
  await dialog.getByRole('textbox', { name: 'Name' }).fill(f.name);
  await dialog.getByRole('combobox', { name: 'Type' }).selectOption(f.type);
  return dialog;
}

async function save(
  page: Page,
  dialog: ReturnType<Page['getByRole']>,
  name: string,
  button = 'Add the field',
) {
  await dialog.getByRole('button', { name: button }).click();
  // A refusal keeps the dialog open: the failure then says what it shows.
  await dialog.waitFor({ state: 'detached' }).catch(async (err: Error) => {
    throw new Error(`${err.message}\n${await dialog.innerText()}`);
  });
  await page.locator(`[data-field-name="${name}"]`).waitFor();
}

describe('console: form builder, logic, groups and languages (browser)', function () {
  this.timeout(240_000);
  let c: ConsoleStack;
  let alice: Awaited<ReturnType<typeof registerUser>>;
  let projectId: number;
  before(async () => {
    c = await startConsoleStack();
    alice = await registerUser(c.baseUrl, 'Alice Survey');
    const api = gatewayClient(c.baseUrl, alice.token);
    const ws = (await api.post('/api/v1/workspaces').send({ name: 'Households' }).expect(201)).body.data.id;
    projectId = (
      await api.post(`/api/v1/workspaces/${ws}/projects`).send({ name: 'Household survey' }).expect(201)
    ).body.data.id;
  });
  after(async () => c?.stop());

  const fieldsOf = async () => {
    const api = gatewayClient(c.baseUrl, alice.token);
    const [draft] = (await api.get(`/api/v1/projects/${projectId}/versions`).expect(200)).body.data as Array<{
      id: number;
    }>;
    const version = (await api.get(`/api/v1/versions/${draft!.id}`).expect(200)).body.data;
    return {
      version: version as { languages: string[]; default_language: string | null },
      byName: Object.fromEntries((version.fields as ApiField[]).map((f) => [f.name, f])),
    };
  };

  it('checks expressions as typed, nests a group in a repeat, translates a label, and previews relevance live', async () => {
    const page = await c.newPage();
    await signInThroughPage(page, alice, `/projects/${projectId}/form`);
    await page.getByRole('button', { name: 'Start the first version' }).click();
    await page.getByRole('heading', { name: 'Fields of version 1' }).waitFor();

    const age = await openNewField(page, 'Add the first field', {
      label: 'Age',
      name: 'age',
      type: 'integer',
    });
    await save(page, age, 'age');

    // A syntax error shows under the box as it is typed, with its column; ${ completes names.
    const pregnant = await openNewField(page, 'Add a field', {
      label: 'Are you pregnant?',
      name: 'pregnant',
      type: 'select_one',
    });
    await pregnant.getByRole('textbox', { name: 'Label of choice 1' }).fill('Yes');
    await pregnant.getByRole('textbox', { name: 'Value of choice 1' }).fill('yes');
    await pregnant.getByRole('textbox', { name: 'Label of choice 2' }).fill('No');
    await pregnant.getByRole('textbox', { name: 'Value of choice 2' }).fill('no');
    const relevant = pregnant.getByLabel('Show only when');
    await relevant.fill('${ag');
    await page.getByRole('option', { name: '${age}' }).click();
    expect(await relevant.inputValue()).to.equal('${age}');
    await relevant.fill('${age} >=');
    await pregnant.getByText('Syntax error at column 10').waitFor();
    expect(await relevant.getAttribute('aria-invalid')).to.equal('true');
    await relevant.fill('${agee} >= 15');
    await pregnant.getByText('No field is named ${agee} (column 1)').waitFor();
    await relevant.fill('${age} >= 15');
    await pregnant.getByText(/Syntax error|No field is named/).waitFor({ state: 'detached' });
    await save(page, pregnant, 'pregnant');

    // A repeat, a group inside it, and a question inside the group.
    const member = await openNewField(page, 'Add a field', {
      label: 'Household member',
      name: 'member',
      type: 'repeat',
    });
    await member.getByRole('spinbutton', { name: 'At most' }).fill('10');
    await save(page, member, 'member');
    const health = await openNewField(page, 'Add a field inside Household member', {
      label: 'Health',
      name: 'health',
      type: 'group',
    });
    expect(await health.getByRole('combobox', { name: 'Inside' }).inputValue()).to.equal('member');
    await save(page, health, 'health');
    const sick = await openNewField(page, 'Add a field inside Health', {
      label: 'Sick this week?',
      name: 'sick',
      type: 'text',
    });
    await save(page, sick, 'sick');
    await page
      .getByRole('list', { name: 'Fields inside Health' })
      .locator('[data-field-name="sick"]')
      .waitFor();

    // A language beside the form's own: the texts so far are English, French is added.
    await page.getByRole('textbox', { name: 'Language code' }).fill('fr');
    await page.getByText('French', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Add the language' }).click();
    await page.getByText(/French \(fr\) · 5 fields untranslated/).waitFor();
    await page.getByRole('button', { name: 'Edit Age' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit “Age”' });
    await edit.getByRole('textbox', { name: 'Question in French' }).fill('Âge');
    await edit.getByRole('button', { name: 'Save the field' }).click();
    await edit.waitFor({ state: 'detached' });
    await page.getByText(/French \(fr\) · 4 fields untranslated/).waitFor();

    // Moving with the keyboard: the focus stays on the moved field's button.
    await page.getByRole('button', { name: 'Move Age down' }).press('Enter');
    await page.locator('[data-field-name="pregnant"] + [data-field-name="age"]').waitFor();
    await page.getByRole('button', { name: 'Move Age down' }).and(page.locator(':focus')).waitFor();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page.locator('[data-field-name="age"] + [data-field-name="pregnant"]').waitFor();
    await page.getByRole('button', { name: 'Move Age down' }).and(page.locator(':focus')).waitFor();

    const { version, byName } = await fieldsOf();
    expect(version.languages).to.deep.equal(['en', 'fr']);
    expect(version.default_language).to.equal('en');
    expect(byName.age).to.include({ label: 'Age' });
    expect(byName.age!.translations?.fr?.label).to.equal('Âge');
    expect(byName.age!.parent).to.equal(null);
    expect(byName.pregnant!.relevant).to.equal('${age} >= 15');
    expect(byName.health!.parent).to.equal('member');
    expect(byName.sick!.parent).to.equal('health');

    // The preview evaluates the logic live: the question appears with the age, in either language.
    const preview = page.getByRole('region', { name: 'Preview: what collectors see' });
    await preview.getByRole('spinbutton', { name: 'Age' }).fill('10');
    expect(await preview.getByRole('radio', { name: 'Yes' }).count()).to.equal(0);
    await preview.getByRole('spinbutton', { name: 'Age' }).fill('30');
    await preview.getByRole('radio', { name: 'Yes' }).waitFor();
    await preview.getByRole('button', { name: 'Add Household member' }).click();
    await preview.getByRole('textbox', { name: 'Sick this week?' }).waitFor();
    // The language switch: labelled, each language also in its own name, with the keyboard.
    const previewLanguage = preview.getByRole('combobox', { name: 'Language of the preview' });
    expect(await previewLanguage.locator('option').allInnerTexts()).to.deep.equal([
      'English',
      'French · français',
    ]);
    await previewLanguage.focus();
    await page.keyboard.press('ArrowDown');
    await preview.getByRole('spinbutton', { name: 'Âge' }).waitFor();
    expect(await previewLanguage.inputValue()).to.equal('fr');

    await expectAccessible(page, 'form builder with logic, a repeat and two languages');
    await screenshotBoth(page, 'form-builder-logic');
    // Nothing sticks out sideways on a narrow phone (the page once was 406 px wide on a 390 px one).
    await expectNoOverflow(page, 'form builder with logic');

    // In French, the switch says so, and names the languages in French.
    await page.getByRole('radio', { name: 'FR' }).check();
    const enFrancais = page.getByRole('combobox', { name: 'Langue de l’aperçu' });
    await enFrancais.waitFor();
    expect(await enFrancais.locator('option').allInnerTexts()).to.deep.equal([
      'anglais · English',
      'français',
    ]);
    await expectNoOverflow(page, 'form builder with logic, in French');
  });
});
