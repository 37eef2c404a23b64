/**
 * Helpers of the live comparison's end-to-end tests (test/e2e/live-comparison.e2e.ts): the table's
 * cells and columns by their visible text, what must be on screen, and sideways page overflow.
 */
import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';

export const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Texts of a row's cells (th and td, in order), whitespace collapsed. */
export async function cellTexts(row: Locator): Promise<string[]> {
  return (await row.locator(':scope > th, :scope > td').allInnerTexts()).map(squash);
}

/** Index of each column header by its visible text. */
export async function columnIndex(page: Page): Promise<(title: string | RegExp) => number> {
  const titles = (await page.getByRole('columnheader').allInnerTexts()).map(squash);
  return (title) => {
    // Case-insensitive: a stylesheet may upper-case the headers (innerText follows text-transform). A price
    // column's header also says '% of Medicare' under its title.
    const i = titles.findIndex((t) => (typeof title === 'string'
      ? t.toLowerCase() === title.toLowerCase() || t.toLowerCase() === `${title} % of Medicare`.toLowerCase() : title.test(t)));
    if (i < 0) throw new Error(`no column ${String(title)} among ${JSON.stringify(titles)}`);
    return i;
  };
}

/** The first row's unit badges and its reference price's '% of Medicare' are visible (not only in the DOM). */
export async function expectUnitAndMedicareVisible(page: Page): Promise<void> {
  const row = page.getByRole('table').getByRole('row').filter({ hasNot: page.getByRole('columnheader') }).first();
  const badges = row.getByRole('group', { name: /^Unit: / });
  await badges.scrollIntoViewIfNeeded();
  expect(await badges.isVisible()).toBe(true);
  const pct = row.locator('td').first().getByText(/^\d[\d,]*\.\d% of Medicare$/);
  await pct.scrollIntoViewIfNeeded();
  expect(await pct.isVisible()).toBe(true);
  const box = await pct.boundingBox();
  expect(box && box.width > 0 && box.height > 0).toBe(true);
}

/** How far the page's content reaches past the viewport's width, in px (0 = no sideways page scroll). */
export async function pageOverflow(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth));
}
