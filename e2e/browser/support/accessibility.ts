import { AxeBuilder } from '@axe-core/playwright';
import { expect } from 'chai';
import type { Page } from 'playwright-core';

/**
 * Runs axe-core on the page as it is now and fails on any serious or critical violation
 * (WCAG 2.1 A and AA rules, and best practices), listing each rule with the elements it flags.
 */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = bad
    .map((v) => {
      const nodes = v.nodes.map((n) => `${n.target.join(' ')}: ${n.html.slice(0, 240)}`);
      return `${v.impact} ${v.id}: ${v.help}\n    ${nodes.join('\n    ')}`;
    })
    .join('\n');
  expect(bad, `axe-core on ${label}:\n${report}`).to.have.length(0);
}
