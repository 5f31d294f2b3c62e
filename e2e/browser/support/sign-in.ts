import type { Page } from 'playwright-core';

/** Signs in through the console's sign-in page as `user`, then waits to be at `next`. */
export async function signInThroughPage(
  page: Page,
  user: { email: string; password: string },
  next = '/polls',
) {
  await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
  await page.getByRole('textbox', { name: 'E-mail' }).fill(user.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => url.pathname === next.split('?')[0]);
}
