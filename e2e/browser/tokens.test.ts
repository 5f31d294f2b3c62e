import { expect } from 'chai';
import { registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';

describe('console: API tokens and browser sessions (browser)', function () {
  this.timeout(120_000);
  let c: ConsoleStack;
  before(async () => {
    c = await startConsoleStack();
  });
  after(async () => c?.stop());

  const me = (token: string) =>
    fetch(`${c.baseUrl}/api/v1/me`, { headers: { Authorization: `Bearer ${token}` } }).then((r) => r.status);

  it('creates a token shown once that works with curl-style calls, and revokes it after a confirmation', async () => {
    const user = await registerUser(c.baseUrl, 'Token Maker');
    const page = await c.newPage();
    await signInThroughPage(page, user, '/settings/tokens');
    await page.getByRole('heading', { name: 'API tokens', level: 1 }).waitFor();
    await expectAccessible(page, 'tokens page');

    // The client checks the name first.
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByText('Give the token a name').waitFor();

    await page.getByRole('textbox', { name: 'Token name' }).fill('Nightly export');
    await page.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByTestId('new-token');
    await shown.waitFor();
    const token = (await shown.innerText()).trim();
    expect(token).to.match(/^\d+\|\S+$/);
    await page.getByText('you will not see this again').waitFor();
    await expectAccessible(page, 'tokens page with a new token');
    await screenshotBoth(page, 'tokens-created');
    expect(await me(token), 'the new token signs a plain HTTP call in').to.equal(200);

    // Listed; once dismissed, the secret is nowhere on the page.
    const row = page.getByRole('row', { name: /Nightly export/ });
    await row.waitFor();
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await shown.waitFor({ state: 'detached' });
    expect(await page.locator('body').innerText()).to.not.contain(token.split('|')[1]!);

    await page.getByRole('button', { name: 'Revoke the token Nightly export' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this token?' });
    await dialog.waitFor();
    await expectAccessible(page, 'revoke confirmation');
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    expect(await me(token), 'cancel keeps it').to.equal(200);
    await page.getByRole('button', { name: 'Revoke the token Nightly export' }).click();
    await dialog.getByRole('button', { name: 'Revoke the token' }).click();
    await row.waitFor({ state: 'detached' });
    expect(await me(token), 'refused once revoked').to.equal(401);
    // The token registerUser got through the API is still listed.
    await page.getByRole('row', { name: /^register/ }).waitFor();
    await screenshotBoth(page, 'tokens');
    // On a phone, the Revoke buttons stay within the screen (the dates move under the name).
    await page.setViewportSize({ width: 390, height: 844 });
    const revoke = await page
      .getByRole('button', { name: /^Revoke the token/ })
      .first()
      .boundingBox();
    expect(revoke!.x + revoke!.width).to.be.at.most(390);
    await page
      .getByText(/^Created /)
      .first()
      .waitFor();
  });

  it('lists the browser sessions and signs out everywhere else', async () => {
    const user = await registerUser(c.baseUrl, 'Two Browsers');
    const here = await c.newPage();
    const elsewhere = await c.newPage({ phone: true });
    await signInThroughPage(elsewhere, user, '/polls');
    await signInThroughPage(here, user, '/settings/tokens');
    await here.getByText('This browser').waitFor();
    // The device is named as people name it (bowser reads the User-Agent), not its raw text.
    await here
      .getByText(/^Chrome \d+ · Linux$/)
      .first()
      .waitFor();
    expect(await here.getByText('Mozilla/5.0').count()).to.equal(0);
    await here.getByText('1 other browser is signed in.').waitFor();
    expect(
      await here.getByRole('list', { name: 'Your signed-in browser sessions' }).getByRole('listitem').count(),
    ).to.equal(2);
    await here.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await here.getByText('No other browser is signed in.').waitFor();
    await elsewhere.goto('/settings/tokens');
    await elsewhere.waitForURL((u) => u.pathname === '/sign-in');
    await here.reload();
    await here.getByRole('heading', { name: 'API tokens', level: 1 }).waitFor();
  });

  it('shows the page in French', async () => {
    const user = await registerUser(c.baseUrl, 'Francophone');
    const page = await c.newPage({ locale: 'fr-FR' });
    await page.goto('/sign-in?next=%2Fsettings%2Ftokens');
    await page.getByRole('textbox', { name: 'Adresse e-mail' }).fill(user.email);
    await page.getByRole('textbox', { name: 'Mot de passe', exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
    await page.getByRole('heading', { name: "Jetons d'API", level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Se déconnecter partout ailleurs' }).waitFor();
  });
});
