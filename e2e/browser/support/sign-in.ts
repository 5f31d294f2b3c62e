import type { Page } from 'playwright-core';

/** Signs in through the console's sign-in page as `user`, then waits for the console frame. */
export async function signInThroughPage(
  page: Page,
  user: { email: string; password: string },
  next = '/polls',
) {
  await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
  await page.getByLabel(/e-mail/i).fill(user.email);
  await page.getByLabel(/password/i).fill(user.password);
  await page.getByRole('button', { name: /sign in/i }).click();
  await page.waitForURL((url) => url.pathname === next.split('?')[0]);
}
