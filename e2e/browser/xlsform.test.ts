import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { gatewayClient, registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';

/** pyxform's example workbooks kept by the collection tests (their licence beside them). */
const fixtures = join(
  import.meta.dirname,
  '..',
  '..',
  'services',
  'collection',
  'test',
  'fixtures',
  'pyxform',
);
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Chooses a workbook in the page's "Upload an XLSForm" file picker. */
async function uploadWorkbook(page: Page, file: string) {
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: file, mimeType: XLSX, buffer: readFileSync(join(fixtures, file)) });
}

describe('console: XLSForm upload and downloads on the form page (browser)', function () {
  this.timeout(180_000);
  let c: ConsoleStack;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  let projectId: number;
  before(async () => {
    c = await startConsoleStack();
    owner = await registerUser(c.baseUrl, 'Amina Survey');
    const api = gatewayClient(c.baseUrl, owner.token);
    const ws = (await api.post('/api/v1/workspaces').send({ name: 'Households' }).expect(201)).body.data.id;
    projectId = (
      await api.post(`/api/v1/workspaces/${ws}/projects`).send({ name: 'Household survey' }).expect(201)
    ).body.data.id;
  });
  after(async () => c?.stop());

  it('lists a refused workbook by sheet, row and column, then creates a draft from a good one', async () => {
    const page = await c.newPage({ locale: 'en-US' });
    await signInThroughPage(page, owner, `/projects/${projectId}/form`);
    await page.getByRole('button', { name: 'Upload an XLSForm' }).waitFor();

    // pyxform's pull_data.xlsx: pulldata() is not a function of Fieldhouse's forms.
    await uploadWorkbook(page, 'pull_data.xlsx');
    const refusals = page.getByTestId('xlsform-refusals');
    await refusals.waitFor();
    await page.getByText('This workbook cannot be used: 1 problem to correct').waitFor();
    expect(await refusals.innerText()).to.equal(
      'Sheet survey, row 2, column calculation: the expression uses a function Fieldhouse does not have (at character 1)',
    );
    await expectAccessible(page, 'form page with an XLSForm refused');
    await screenshotBoth(page, 'xlsform-refused');

    // pyxform's yes_or_no_question.xlsx: a select_one in English.
    await uploadWorkbook(page, 'yes_or_no_question.xlsx');
    await page.getByText('Version 1 was created from the workbook, with 1 field.').waitFor();
    await page.getByRole('heading', { name: 'Fields of version 1' }).waitFor();
    await page.locator('[data-field-name="good_day"]').waitFor();
    expect(await refusals.count()).to.equal(0);

    const versions = (
      await gatewayClient(c.baseUrl, owner.token).get(`/api/v1/projects/${projectId}/versions`).expect(200)
    ).body.data as { id: number }[];
    const xlsform = page.getByRole('link', { name: 'Download as XLSForm' });
    expect(await xlsform.getAttribute('href')).to.equal(`/api/v1/versions/${versions[0]!.id}/xlsform`);
    const download = await page.request.get((await xlsform.getAttribute('href'))!);
    expect(download.status()).to.equal(200);
    expect(download.headers()['content-type']).to.equal(XLSX);
    expect(await page.getByRole('link', { name: 'Download as XForm' }).getAttribute('href')).to.equal(
      `/api/v1/versions/${versions[0]!.id}/xform`,
    );
    await expectAccessible(page, 'form page with a version made from an XLSForm');
    await screenshotBoth(page, 'xlsform-uploaded');
    await page.close();
  });

  it('words the refusals in French, never with the service’s English sentence', async () => {
    const page = await c.newPage({ locale: 'fr-FR' });
    const next = `/projects/${projectId}/form`;
    await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
    await page.getByRole('textbox', { name: 'Adresse e-mail' }).fill(owner.email);
    await page.getByRole('textbox', { name: 'Mot de passe', exact: true }).fill(owner.password);
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
    await page.waitForURL((url) => url.pathname === next);
    await page.getByRole('button', { name: 'Importer un XLSForm' }).waitFor();
    // pyxform's choice_filter_test.xlsx: the same choice twice in a list, and a setting Fieldhouse does not take.
    await uploadWorkbook(page, 'choice_filter_test.xlsx');
    const refusals = page.getByTestId('xlsform-refusals');
    await refusals.waitFor();
    const text = await refusals.innerText();
    expect(text).to.equal(
      [
        'Feuille choices, ligne 6, colonne name : king est déjà un choix de la liste counties (ligne 4)',
        'Feuille settings, ligne 2, colonne allow_choice_duplicates : le paramètre allow_choice_duplicates n’est pas pris en charge',
      ].join('\n'),
    );
    expect(text).not.to.contain('cannot');
    await expectAccessible(page, 'form page with an XLSForm refused, in French');
    await page.close();
  });
});
