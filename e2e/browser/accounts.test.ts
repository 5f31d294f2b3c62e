import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { eventually, type SinkMessage } from '@fieldhouse/testkit';
import { registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';

/** The console path of the link in an account e-mail (`/reset-password#token=...`), opened on the test's origin. */
function linkPath(mail: SinkMessage, page: string): string {
  const m = new RegExp(`(https?://\\S+${page}#token=[A-Za-z0-9_-]+)`).exec(mail.text);
  expect(m, mail.text).to.not.equal(null);
  const url = new URL(m![1]!);
  return url.pathname + url.hash;
}

describe('console: accounts — profile, password, reset by e-mail, e-mail verification (browser)', function () {
  this.timeout(180_000);
  let c: ConsoleStack;
  before(async () => {
    c = await startConsoleStack();
  });
  after(async () => c?.stop());

  const meOf = async (token: string) =>
    (
      (await (
        await fetch(`${c.baseUrl}/api/v1/me`, { headers: { Authorization: `Bearer ${token}` } })
      ).json()) as { data: { name: string; language: string | null; email_verified_at: string | null } }
    ).data;
  const mailTo = (email: string, subject: RegExp) =>
    c.sink.waitFor((m) => m.envelope.to.includes(email) && subject.test(m.subject), 15_000);

  it('resets a forgotten password through the e-mailed link, end to end', async () => {
    const user = await registerUser(c.baseUrl, 'Forgetful Fatou');
    const page = await c.newPage();
    await page.goto('/sign-in');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?', level: 1 }).waitFor();
    await expectAccessible(page, 'forgot password page');
    await screenshotBoth(page, 'forgot-password');

    await page.getByRole('textbox', { name: 'E-mail' }).fill(user.email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText(`If an account has the address ${user.email}, a link`).waitFor();
    await expectAccessible(page, 'forgot password page, link requested');
    await screenshotBoth(page, 'forgot-password-sent');

    // The e-mail, read from the SMTP sink; its link opened on the console.
    const mail = await mailTo(user.email, /Reset your Fieldhouse password/);
    const link = linkPath(mail, '/reset-password');
    await page.goto(link);
    await page.getByRole('heading', { name: 'Choose a new password', level: 1 }).waitFor();
    await expectAccessible(page, 'reset password page');
    await screenshotBoth(page, 'reset-password');
    // The browser's check first, then the gateway's.
    await page.getByRole('textbox', { name: 'New password' }).fill('a fresh password');
    await page.getByRole('textbox', { name: 'Confirm the password' }).fill('a different one');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText('The two passwords differ').waitFor();
    await page.getByRole('textbox', { name: 'Confirm the password' }).fill('a fresh password');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText('Your new password is set').waitFor();
    await expectAccessible(page, 'reset password page, done');
    await page.getByRole('link', { name: 'Sign in' }).click();
    await signInThroughPage(page, { email: user.email, password: 'a fresh password' }, '/polls');

    // The link works once: opened again, it says so in the user's words, without an HTTP status.
    const again = await c.newPage();
    await again.goto(link);
    await again.getByRole('textbox', { name: 'New password' }).fill('yet another password');
    await again.getByRole('textbox', { name: 'Confirm the password' }).fill('yet another password');
    await again.getByRole('button', { name: 'Set the new password' }).click();
    const problem = again.getByRole('alert');
    await problem.getByText('This password reset link no longer works').waitFor();
    expect(await problem.innerText()).to.not.match(/422/);
    await expectAccessible(again, 'reset password page, used link');
    await screenshotBoth(again, 'reset-password-used');
  });

  it('shows and edits the profile, confirms the e-mail by its link, switches the language, changes the password', async () => {
    const user = await registerUser(c.baseUrl, 'Profile Paulo');
    const page = await c.newPage();
    await signInThroughPage(page, user, '/polls');

    // The account menu leads to the profile, the password and the API tokens.
    // By keyboard, as a screen reader user would (the pointer's hover would tint the button).
    await page.getByRole('button', { name: 'Account menu of Profile Paulo' }).focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.getByText('E-mail not confirmed').waitFor();
    await menu.getByText(user.email).waitFor();
    for (const item of ['Profile', 'Password', 'API tokens', 'Sign out'])
      await menu.getByRole('menuitem', { name: item }).first().waitFor();
    await expectAccessible(page, 'account menu');
    await screenshotBoth(page, 'account-menu');
    await menu.getByRole('menuitem', { name: 'Profile' }).click();
    await page.waitForURL((u) => u.pathname === '/settings/profile');
    await page.getByRole('heading', { name: 'Your profile', level: 1 }).waitFor();
    expect(await page.getByTestId('email-status').textContent()).to.equal('Not confirmed');
    expect(
      await page.getByRole('combobox', { name: 'Time zone' }).inputValue(),
      'the browser’s',
    ).to.not.equal('');
    await expectAccessible(page, 'profile page, unconfirmed e-mail');
    await screenshotBoth(page, 'profile-unverified');

    // "Send again", then the link of the registration's e-mail confirms the address.
    await page.getByRole('button', { name: 'Send the link again' }).click();
    await page.getByText(`A new link is on its way to ${user.email}.`).waitFor();
    await expectAccessible(page, 'profile page, link sent again');
    const first = await mailTo(user.email, /Confirm your e-mail address/);
    await page.goto(linkPath(first, '/verify-email'));
    await page.getByText('Thank you: your e-mail address is confirmed.').waitFor();
    await expectAccessible(page, 'verify e-mail page');
    await screenshotBoth(page, 'verify-email');
    expect((await meOf(user.token)).email_verified_at).to.be.a('string');
    await page.goto('/settings/profile');
    await page.getByTestId('email-status').getByText('Confirmed').waitFor();
    await expectAccessible(page, 'profile page, confirmed e-mail');
    await screenshotBoth(page, 'profile');

    // Name and language: the console speaks French at once, and the server keeps both.
    await page.getByRole('textbox', { name: 'Name' }).fill('Paulo Pereira');
    await page.getByRole('combobox', { name: 'Language' }).click();
    await page.getByRole('option', { name: 'Français' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Votre profil', level: 1 }).waitFor();
    await page.getByText('Votre profil est enregistré.').waitFor();
    expect(await meOf(user.token)).to.include({ name: 'Paulo Pereira', language: 'fr' });
    expect(await page.locator('html').getAttribute('lang')).to.equal('fr');
    await expectAccessible(page, 'profile page in French, saved');
    // Another browser signing in gets the account's language, whatever its own.
    const other = await c.newPage({ locale: 'en-US' });
    await signInThroughPage(other, user, '/polls');
    await other.getByRole('navigation').getByText('Espaces de travail').waitFor();
    // The header's switch is saved to the account too.
    await page.getByRole('radio', { name: 'EN' }).check();
    await page.getByRole('heading', { name: 'Your profile', level: 1 }).waitFor();
    // The header switch reaches the account.
    await eventually(async () => (await meOf(user.token)).language === 'en', 30_000);

    // Password change: the current one is required; the other browser is signed out.
    await page.goto('/settings/password');
    await page.getByRole('heading', { name: 'Password', level: 1 }).waitFor();
    await expectAccessible(page, 'password page');
    await screenshotBoth(page, 'password');
    await fillPassword(page, 'not my password', 'a sturdier password');
    await page.getByText('The current password is wrong.').waitFor();
    await expectAccessible(page, 'password page, wrong current password');
    await fillPassword(page, user.password, 'a sturdier password');
    await page.getByText('Your password is changed. Every other browser session was signed out.').waitFor();
    await expectAccessible(page, 'password page, changed');
    await other.reload();
    await other.waitForURL((u) => u.pathname === '/sign-in');
    await page.goto('/settings/profile');
    await page.getByRole('heading', { name: 'Your profile', level: 1 }).waitFor();
    // That browser still speaks the French it got from the account when it signed in.
    await other.getByRole('heading', { name: 'Se connecter à Fieldhouse' }).waitFor();
    await other.getByRole('radio', { name: 'EN' }).check();
    await signInThroughPage(other, { email: user.email, password: 'a sturdier password' }, '/polls');
  });
});

/** Fills the password change form and sends it. */
async function fillPassword(page: Page, current: string, next: string) {
  await page.getByRole('textbox', { name: 'Current password' }).fill(current);
  await page.getByRole('textbox', { name: 'New password' }).fill(next);
  await page.getByRole('textbox', { name: 'Confirm the password' }).fill(next);
  await page.getByRole('button', { name: 'Change the password' }).click();
}
