import { inflateSync } from 'node:zlib';
import { expect } from 'chai';
import { registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { createCollectionProject } from './support/collection-project.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { expectNoOverflow } from './support/overflow.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';

describe('console: app users for ODK Collect (browser)', function () {
  this.timeout(180_000);
  let c: ConsoleStack;
  before(async () => {
    c = await startConsoleStack();
  });
  after(async () => c?.stop());

  it('creates an app user whose QR code ODK Collect reads, and revokes it', async () => {
    const manager = await registerUser(c.baseUrl, 'Field Coordinator');
    const { projectId } = await createCollectionProject(c.baseUrl, manager.token, [
      { name: 'village', label: 'Village', type: 'text', required: true },
    ]);
    const page = await c.newPage();
    await signInThroughPage(page, manager, `/projects/${projectId}/form`);
    await page.getByRole('link', { name: 'App users' }).click();
    await page.getByRole('heading', { name: 'Add an app user', level: 2 }).waitFor();
    await page.getByText('No app user yet.').waitFor();
    await expectAccessible(page, 'app users page');

    await page.getByRole('button', { name: 'Create app user' }).click();
    await page.getByText('Give the app user a name.').waitFor();
    await page.getByRole('textbox', { name: 'Name' }).fill('Tablet 3');
    await page.getByRole('button', { name: 'Create app user' }).click();
    const qr = page.getByTestId('collect-qr');
    await qr.waitFor();
    // What ODK Collect scans: zlib-compressed settings JSON, base64.
    const encoded = (await qr.getAttribute('data-settings'))!;
    const settings = JSON.parse(inflateSync(Buffer.from(encoded, 'base64')).toString('utf8')) as {
      general: { server_url: string };
      project: { name: string };
      admin: object;
    };
    expect(settings.project.name).to.equal('Water points');
    expect(settings.admin).to.deep.equal({});
    const serverUrl = settings.general.server_url;
    expect(serverUrl).to.match(new RegExp(`/api/v1/key/[A-Za-z0-9]{48}/projects/${projectId}$`));
    expect((await page.getByTestId('server-url').innerText()).trim()).to.equal(serverUrl);
    const formList = await fetch(`${serverUrl}/formList`, { headers: { 'X-OpenRosa-Version': '1.0' } });
    expect(formList.status, 'the address works as ODK Collect uses it').to.equal(200);
    await page.getByText('shown only now').waitFor();
    await expectAccessible(page, 'app users page with a new QR code');
    await screenshotBoth(page, 'app-users-created');

    await page.getByRole('button', { name: 'Done' }).click();
    await qr.waitFor({ state: 'detached' });
    const row = page.getByRole('row', { name: /Tablet 3/ });
    await row.getByText('Active').waitFor();
    // On a phone the status reads in full beside its Revoke button (it once read "ACT…").
    await expectNoOverflow(page, 'app users page');
    await page.getByRole('button', { name: 'Revoke Tablet 3' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke “Tablet 3”?' });
    await dialog.waitFor();
    await expectAccessible(page, 'revoke an app user');
    await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
    await row.getByText('Revoked').waitFor();
    const refused = await fetch(`${serverUrl}/formList`, { headers: { 'X-OpenRosa-Version': '1.0' } });
    expect(refused.status, 'refused once revoked').to.equal(401);
    await screenshotBoth(page, 'app-users');

    // In French.
    await page.evaluate(() => localStorage.setItem('fieldhouse.lang', 'fr'));
    await page.reload();
    await page.getByRole('heading', { name: 'Ajouter un utilisateur d’application', level: 2 }).waitFor();
    await page
      .getByRole('row', { name: /Tablet 3/ })
      .getByText('Révoqué')
      .waitFor();
    await expectAccessible(page, 'app users page in French');
  });
});
