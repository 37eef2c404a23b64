// The whole product path in Debian's Chromium: sign-in (development), then the live comparison
// answered by the worker from the Parquet dataset converted from test/fixtures/e2e. Expected
// figures are computed by hand in test/fixtures/e2e/README.md (arithmetic repeated below).
// Elements are found by role and visible text (product-spec §2, §8), not by CSS classes.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { CONTENT_SECURITY_POLICY } from '../../scripts/server/security-headers';
import { foreignRequests, launchBrowser, screenshot, type Browser } from './browser';

const BOOT_TIMEOUT = 150_000; // DuckDB-WASM boot + first Parquet reads on a 2-core machine

/** One expected table row (whole dollars as the screen rounds them, metrics.md Rounding). */
interface ExpectedRow {
  code: string;
  name: string;
  category: string;
  reference: string;
  competitors: Array<[string, string]>;
  selectedAvg: string;
  overpayment: string;
  variance: string;
  claims: string;
  savings: string;
}

// Sorted by overpayment, descending (product-spec §2: default sort).
const EXPECTED: ExpectedRow[] = [
  // 70551: ref (612 + 648) / 2 = 630; alpha (480 + 520) / 2 = 500; beta 540; avg (500 + 540) / 2 = 520;
  // overpayment 630 - 520 = 110 (+21.2 %: 110 / 520 = 0.21154); savings 110 x 300 = 33,000.
  { code: '70551', name: 'MRI brain without contrast', category: 'Radiology', reference: '$630',
    competitors: [['Alpha', '$500'], ['Beta', '$540']], selectedAvg: '$520', overpayment: '+$110',
    variance: '+21.2%', claims: '300', savings: '$33,000' },
  // 99213: ref median of 118.40, 131.25, 150.00 (duplicate 150 counted once) = 131.25; alpha (100 + 110.50) / 2
  // = 105.25; beta median of 95.10, 99, 120 = 99; avg (105.25 + 99) / 2 = 102.125; overpayment 29.125
  // (+28.5 %: 29.125 / 102.125 = 0.28519); savings 29.125 x 1,200 = 34,950.
  { code: '99213', name: 'Office or outpatient visit, established patient', category: 'Office visit',
    reference: '$131', competitors: [['Alpha', '$105'], ['Beta', '$99']], selectedAvg: '$102',
    overpayment: '+$29', variance: '+28.5%', claims: '1,200', savings: '$34,950' },
  // 85025: ref median of 14, 16.40, 21 = 16.40; alpha [10, 10, 12] (a two-NPI group) = 10; beta 9, 12.60, 15
  // (a 0.00 rate left out) = 12.60; avg (10 + 12.6) / 2 = 11.30; overpayment 5.10 (+45.1 %: 5.1 / 11.3 =
  // 0.45133); savings 5.10 x 5,000 = 25,500.
  { code: '85025', name: 'Complete blood count with automated differential', category: 'Lab',
    reference: '$16', competitors: [['Alpha', '$10'], ['Beta', '$13']], selectedAvg: '$11',
    overpayment: '+$5', variance: '+45.1%', claims: '5,000', savings: '$25,500' },
];

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Texts of a row's cells (th and td, in order), whitespace collapsed. */
async function cellTexts(row: Locator): Promise<string[]> {
  return (await row.locator(':scope > th, :scope > td').allInnerTexts()).map(squash);
}

/** Index of each column header by its visible text. */
async function columnIndex(page: Page): Promise<(title: string | RegExp) => number> {
  const titles = (await page.getByRole('columnheader').allInnerTexts()).map(squash);
  return (title) => {
    // Case-insensitive: a stylesheet may upper-case the headers (innerText follows text-transform).
    const i = titles.findIndex((t) => (typeof title === 'string' ? t.toLowerCase() === title.toLowerCase() : title.test(t)));
    if (i < 0) throw new Error(`no column ${String(title)} among ${JSON.stringify(titles)}`);
    return i;
  };
}

const baseUrl = inject('baseUrl');
const origin = new URL(baseUrl).origin;
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('live comparison, end to end', () => {
  it('sends a visitor without a token to /login, and signs in through the development sign-in', async () => {
    const { page } = browser;
    await page.goto(new URL('live-comparison', baseUrl).href);
    await page.waitForURL((u) => u.pathname === '/login', { timeout: 30_000 });
    await page.getByText('Development sign-in: no account needed').waitFor({ timeout: 30_000 });
    await screenshot(page, 'login-1280x800');

    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => u.pathname === '/', { timeout: 30_000 });
    const token = await page.evaluate(() => localStorage.getItem('access_token'));
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/); // a JWT, stored by /auth/callback
  });

  it('shows every service with the hand-computed prices, overpayment and savings', async () => {
    const { page } = browser;
    const response = await page.goto(new URL('live-comparison', baseUrl).href);
    expect(new URL(page.url()).pathname).toBe('/live-comparison');
    // The app, DuckDB-WASM and the worker run under the server's strict CSP (architecture.md §2).
    expect(response?.headers()['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    const table = page.getByRole('table');
    await table.getByRole('row').filter({ hasText: '70551' }).waitFor({ timeout: BOOT_TIMEOUT });

    const col = await columnIndex(page);
    const at = {
      reference: col('Reference Price'), competitors: col('Competitor Prices'), avg: col('Selected Avg'),
      overpayment: col('Overpayment'), claims: col('Claims Volume'), savings: col('Potential Savings'),
    };
    const bodyRows = table.getByRole('row').filter({ hasNot: page.getByRole('columnheader') });
    expect(await bodyRows.count()).toBe(EXPECTED.length);

    for (const [i, want] of EXPECTED.entries()) {
      const row = bodyRows.nth(i);
      const cells = await cellTexts(row);
      const service = (cells[0] ?? '').toLowerCase();
      expect(service, `row ${i} service`).toContain(want.name.toLowerCase());
      expect(service).toContain(want.code);
      expect(service).toContain(want.category.toLowerCase());
      expect(cells[at.reference], `${want.code} reference price`).toBe(want.reference);
      for (const [insurer, price] of want.competitors) {
        expect(cells[at.competitors]).toMatch(new RegExp(`${insurer}\\s*\\${price}(?![\\d,])`));
      }
      expect(cells[at.avg], `${want.code} selected avg`).toBe(want.selectedAvg);
      expect(cells[at.overpayment], `${want.code} overpayment`).toMatch(
        new RegExp(`\\${want.overpayment.replace('$', '\\$')}(?![\\d,])`),
      );
      expect(cells[at.overpayment]).toContain(want.variance);
      expect(cells[at.claims], `${want.code} claims`).toBe(want.claims);
      expect(cells[at.savings], `${want.code} potential savings`).toBe(want.savings);
    }

    await expect.poll(() => page.getByText('3 services shown').count()).toBe(1);
    // Summary cards: savings 34,950 + 33,000 + 25,500 = 93,450; claims-weighted variance
    // (1,200 x 28.519 + 300 x 21.154 + 5,000 x 45.133) / 6,500 = 40.96 -> +41.0%.
    for (const text of ['$93,450', '+41.0%', '3 / 3', '2 Insurers']) {
      expect(await page.getByText(text, { exact: true }).count(), text).toBeGreaterThan(0);
    }

    await screenshot(page, 'live-comparison-1280x800');
    // A phone loads the page at its own size (a resize would catch the menu mid-transition).
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByRole('row').filter({ hasText: '85025' }).waitFor({ timeout: BOOT_TIMEOUT });
    expect(await bodyRows.count()).toBe(EXPECTED.length);
    await screenshot(page, 'live-comparison-390x844');
  });

  it('made no request outside its own origin and threw no uncaught error', () => {
    expect(browser.requests.length).toBeGreaterThan(0);
    expect(browser.requests.some((u) => new URL(u).pathname.startsWith('/data/'))).toBe(true);
    expect(foreignRequests(browser.requests, origin)).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
  });
});
