/// <reference lib="dom" />
import { expect } from 'chai';
import type { Page } from 'playwright-core';

/** The narrowest phone the console is laid out for (docs/console.md: an iPhone SE / mini). */
const NARROW_PHONE = { width: 375, height: 812 } as const;

/**
 * Fails when the page is wider than a 375 px phone: the document scrolls sideways. The message
 * names the elements sticking out on the right (tag, classes, text, right edge), the deepest
 * first, so the failure says what to fix. Also fails when a visible badge's or button's text is
 * cut short ("ACT…" for "Active": a status squeezed by its neighbours; "Send a reminder to those
 * who have not vo" for a label wider than the phone), naming them. Restores the viewport.
 */
const CUT_LABELS = '.mantine-Badge-label, .mantine-Button-label';

export async function expectNoOverflow(page: Page, what: string): Promise<void> {
  const before = page.viewportSize();
  await page.setViewportSize(NARROW_PHONE);
  try {
    // Layout settles after the resize (Mantine's responsive props use media queries, some
    // components re-render on them; a busy machine takes a while): wait up to 5 s for the page to
    // fit with no badge cut short, then report what is wrong.
    await page
      .waitForFunction(
        (labels) =>
          document.documentElement.scrollWidth <= document.documentElement.clientWidth &&
          ![...document.querySelectorAll<HTMLElement>(labels)].some(
            (l) => l.offsetParent !== null && l.scrollWidth > l.clientWidth,
          ),
        CUT_LABELS,
        { timeout: 5000, polling: 100 },
      )
      .catch(() => undefined);
    const found = await page.evaluate((labels) => {
      const width = document.documentElement.clientWidth;
      const out: string[] = [];
      for (const el of document.body.querySelectorAll<HTMLElement>('*')) {
        const box = el.getBoundingClientRect();
        if (box.width === 0 || box.right <= width + 0.5) continue;
        // Only the deepest: an element whose children all fit is the one that overflows.
        const child = [...el.children].some((c) => c.getBoundingClientRect().right > width + 0.5);
        if (child) continue;
        out.push(
          `<${el.tagName.toLowerCase()} class="${el.getAttribute('class') ?? ''}"> "${(el.textContent ?? '').trim().slice(0, 40)}" right ${Math.round(box.right)} px`,
        );
      }
      const cut = [...document.querySelectorAll<HTMLElement>(labels)]
        .filter((l) => l.offsetParent !== null && l.scrollWidth > l.clientWidth)
        .map((l) => l.textContent ?? '');
      return { scrollWidth: document.documentElement.scrollWidth, width, out: out.slice(0, 8), cut };
    }, CUT_LABELS);
    expect(
      found.scrollWidth,
      `${what}: ${found.scrollWidth} px wide on a ${found.width} px phone; sticking out:\n${found.out.join('\n')}`,
    ).to.be.at.most(found.width);
    expect(found.cut, `${what}: badges or buttons cut short on a ${found.width} px phone`).to.deep.equal([]);
  } finally {
    if (before) await page.setViewportSize(before);
  }
}
