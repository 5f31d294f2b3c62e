import { expect } from 'chai';
import { registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';

describe('console: sign-in, register, sign-out (browser)', function () {
  this.timeout(120_000);
  let c: ConsoleStack;
  before(async () => {
    c = await startConsoleStack();
  });
  after(async () => c?.stop());

  it('registers through the page, lands in the console signed in by its session, and keeps no token', async () => {
    const page = await c.newPage();
    await page.goto('/register');
    await page.getByRole('button', { name: 'Create the account' }).waitFor(); // the form, not the loader
    await expectAccessible(page, 'register page');
    await screenshotBoth(page, 'register');
    const email = `page${Date.now()}@example.test`;
    await page.getByRole('textbox', { name: 'Name' }).fill('Page User');
    await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('correct horse battery');
    await page.getByRole('textbox', { name: 'Confirm the password' }).fill('correct horse battery');
    await page.getByRole('button', { name: 'Create the account' }).click();
    await page.waitForURL((u) => u.pathname === '/start');
    await page.getByRole('button', { name: /Account menu of Page User/ }).waitFor();
    // The token of the register answer was revoked at once: the user has no token.
    const tokens = await page.evaluate(
      async () => (await (await fetch('/api/v1/tokens')).json()) as { data: unknown[] },
    );
    expect(tokens.data).to.deep.equal([]);
    const cookies = await page.context().cookies();
    expect(cookies.map((k) => k.name)).to.include('fieldhouse_session');
    const stored = await page.evaluate(() => JSON.stringify(localStorage));
    expect(stored, 'no credential in localStorage').to.not.match(/\|[A-Za-z0-9]{20,}/);
  });

  it('shows a 422 under the e-mail field when it is taken, keeping what was typed', async () => {
    const taken = await registerUser(c.baseUrl, 'Taken');
    const page = await c.newPage();
    await page.goto('/register');
    await page.getByRole('textbox', { name: 'Name' }).fill('Someone Else');
    await page.getByRole('textbox', { name: 'E-mail' }).fill(taken.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('another long password');
    await page.getByRole('textbox', { name: 'Confirm the password' }).fill('another long password');
    await page.getByRole('button', { name: 'Create the account' }).click();
    await page.getByText('Already in use').first().waitFor();
    expect(await page.getByRole('textbox', { name: 'E-mail' }).getAttribute('aria-invalid')).to.equal('true');
    expect(await page.getByRole('textbox', { name: 'Name' }).inputValue()).to.equal('Someone Else');
    expect(await page.getByRole('textbox', { name: 'E-mail' }).inputValue()).to.equal(taken.email);
    await expectAccessible(page, 'register page with a 422');
  });

  it('checks the fields in the browser before sending (same rules as the gateway)', async () => {
    const page = await c.newPage();
    let posted = 0;
    page.on('request', (r) => void (r.method() === 'POST' && r.url().includes('/register') && posted++));
    await page.goto('/register');
    await page.getByRole('textbox', { name: 'Name' }).fill('Short');
    await page.getByRole('textbox', { name: 'E-mail' }).fill('not-an-address');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('short');
    await page.getByRole('textbox', { name: 'Confirm the password' }).fill('other');
    await page.getByRole('button', { name: 'Create the account' }).click();
    await page.getByText('Enter an e-mail address, like name@example.org').waitFor();
    await page.getByText('At least 8 characters', { exact: true }).waitFor();
    await page.getByText('The two passwords differ').waitFor();
    expect(posted).to.equal(0);
  });

  it('shows wrong credentials next to the button, keeps the e-mail, and signs in with the keyboard only', async () => {
    const user = await registerUser(c.baseUrl, 'Keyboard User');
    const page = await c.newPage();
    await page.goto('/sign-in?next=%2Fsettings%2Ftokens');
    const email = page.getByRole('textbox', { name: 'E-mail' });
    await email.waitFor();
    expect(
      await email.evaluate((el) => el === document.activeElement),
      'the e-mail field has the focus',
    ).to.equal(true);
    await page.keyboard.type(user.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type('wrong password!');
    await page.keyboard.press('Enter');
    await page.getByText('The e-mail address or the password is wrong.').waitFor();
    expect(await page.getByRole('textbox', { name: 'E-mail' }).inputValue()).to.equal(user.email);
    await expectAccessible(page, 'sign-in page with a 401');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('');
    await page.getByRole('textbox', { name: 'Password', exact: true }).focus();
    await page.keyboard.type(user.password);
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/settings/tokens');
  });

  it('signs out from the account menu: the session ends and console pages ask to sign in again', async () => {
    const user = await registerUser(c.baseUrl, 'Leaving User');
    const page = await c.newPage();
    await signInThroughPage(page, user, '/polls');
    await page.getByRole('button', { name: /Account menu of Leaving User/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL((u) => u.pathname === '/sign-in');
    const me = await page.evaluate(async () => (await fetch('/api/v1/me')).status);
    expect(me).to.equal(401);
    await page.goto('/settings/tokens');
    await page.waitForURL((u) => u.pathname === '/sign-in');
  });
});

describe('console: too many sign-in attempts (browser)', function () {
  this.timeout(120_000);
  let c: ConsoleStack;
  before(async () => {
    c = await startConsoleStack({ RATE_LIMIT_LOGIN: '2' });
  });
  after(async () => c?.stop());

  it('shows the 429 and how long to wait', async () => {
    const user = await registerUser(c.baseUrl, 'Throttled');
    const page = await c.newPage();
    await page.goto('/sign-in');
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor(); // the form, not the loader
    await expectAccessible(page, 'sign-in page');
    await screenshotBoth(page, 'sign-in');
    await page.getByRole('textbox', { name: 'E-mail' }).fill(user.email);
    for (let i = 0; i < 3; i++) {
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill(`wrong password ${i}`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByTestId('problem').waitFor();
      if ((await page.getByText('Too many requests', { exact: true }).count()) > 0) break;
    }
    await page.getByText('Too many requests', { exact: true }).waitFor();
    expect(await page.getByTestId('problem').innerText()).to.match(/Try again in \d+ seconds?\./);
    await expectAccessible(page, 'sign-in page with a 429');
  });
});
