import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

/** The two viewports every page is shown in (docs/console.md). */
export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

/**
 * Where screenshots go: `docs/console/` when UPDATE_SCREENSHOTS=1 (then commit them), else a
 * temporary directory, so an ordinary `npm test` still takes them but leaves the tree clean.
 */
const DIR =
  process.env.UPDATE_SCREENSHOTS === '1'
    ? join(import.meta.dirname, '..', '..', '..', 'docs', 'console')
    : join(tmpdir(), 'fieldhouse-console-screenshots');

/**
 * Saves `<name>-desktop.png` and `<name>-phone.png` of the page as it is now (full page), then
 * restores its viewport. Returns the two paths.
 */
export async function screenshotBoth(page: Page, name: string): Promise<string[]> {
  mkdirSync(DIR, { recursive: true });
  const before = page.viewportSize();
  // A full-page capture repeats fixed bars mid-page: pin them to the top of the document.
  const pinned = await page.addStyleTag({
    content: '.mantine-AppShell-header, .mantine-AppShell-navbar { position: absolute !important; }',
  });
  const paths: string[] = [];
  for (const [kind, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await page.waitForTimeout(150); // layout settles (Mantine's responsive props use media queries)
    // The pinned navigation bar would stop at one screen's height: stretch it down the page.
    await page.evaluate(() => {
      const navbar = document.querySelector<HTMLElement>('.mantine-AppShell-navbar');
      if (!navbar) return;
      navbar.style.removeProperty('height'); // measure the page without the previous stretch
      navbar.style.height = `${document.documentElement.scrollHeight - navbar.offsetTop}px`;
    });
    const path = join(DIR, `${name}-${kind}.png`);
    await page.screenshot({ path, fullPage: true, animations: 'disabled' });
    paths.push(path);
  }
  await pinned.evaluate((style) => style.parentNode?.removeChild(style));
  await page.evaluate(() =>
    document.querySelector<HTMLElement>('.mantine-AppShell-navbar')?.style.removeProperty('height'),
  );
  if (before) await page.setViewportSize(before);
  return paths;
}
