// The old dashboard (/old-dashboard) and the overview (/overview) in Debian's Chromium
// (docs/screens.md, Old dashboard and overview): the 1 s spinner, both charts, the state grid and the generic table
// (sort toggles, row checkboxes, paging text), Recent Activity; the overview's cards, trends and
// lists with the specialty bars at count / 567.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, type Browser } from './browser';
import { openRoute, storeToken } from './screens-helpers';

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  await storeToken(browser.page, baseUrl);
});
afterAll(async () => {
  await browser?.close();
});

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

describe('old dashboard', () => {
  it('shows a spinner, then the charts, the grid, the table and Recent Activity', async () => {
    const { page } = browser;
    await page.goto(new URL('old-dashboard', baseUrl).href);
    await page.getByRole('status').filter({ hasText: 'Loading...' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Recent Activity' }).count()).toBe(0);
    await page.getByRole('heading', { name: 'Recent Activity' }).waitFor({ timeout: 5_000 });
    expect(await page.getByRole('status').filter({ hasText: 'Loading...' }).count()).toBe(0);
    // the chart draws after its container is laid out: wait for its last bar, then count
    const bars = page.getByRole('img', { name: /Most common services/ }).locator('g[aria-label="bar"] rect');
    await bars.nth(7).waitFor({ timeout: 5_000 });
    expect(await bars.count()).toBe(8);
    expect(await page.getByRole('img', { name: /Files published/ }).count()).toBe(1);
    expect(await page.locator('.activity li').count()).toBe(5);
    expect(await page.locator('.state-grid__tile').count()).toBe(10);
    // Tile opacity = files / 312, at least 0.2: MI 62 / 312 = 0.199 -> 0.2, TX 251 / 312 = 0.8045.
    const alpha = (code: string) => page.locator('.state-grid__tile', { hasText: code }).evaluate((e) => getComputedStyle(e).backgroundColor);
    expect(await alpha('MI')).toBe('rgba(31, 95, 191, 0.2)');
    expect(await alpha('TX')).toMatch(/^rgba\(31, 95, 191, 0\.80/);
  });

  it('sorts the state table both ways, ticks rows and shows the paging text', async () => {
    const { page } = browser;
    const table = page.getByRole('table', { name: 'States by files published' });
    const files = () => table.locator('tbody td:nth-child(3)').allInnerTexts();
    expect((await files()).slice(0, 3)).toEqual(['312', '284', '251']); // Files descending at first
    await table.getByRole('button', { name: 'Files' }).click();
    expect((await files()).slice(0, 3)).toEqual(['62', '84', '97']);
    expect(await table.getByRole('columnheader', { name: 'Files' }).getAttribute('aria-sort')).toBe('ascending');
    await table.getByRole('button', { name: 'State' }).click();
    expect((await table.locator('tbody th').allInnerTexts()).slice(0, 2)).toEqual(['California (CA)', 'Florida (FL)']);
    await table.getByRole('button', { name: 'State' }).click();
    expect((await table.locator('tbody th').allInnerTexts())[0]).toBe('Texas (TX)');

    await table.getByRole('checkbox', { name: 'Select Texas' }).check();
    expect(await page.locator('.state-grid__tile.is-picked').allInnerTexts()).toEqual([expect.stringContaining('TX')]);
    await table.getByRole('checkbox', { name: 'Select all rows' }).check();
    expect(await page.locator('.state-grid__tile.is-picked').count()).toBe(10);
    await table.getByRole('checkbox', { name: 'Select all rows' }).uncheck();
    expect(await page.locator('.state-grid__tile.is-picked').count()).toBe(0);
    expect(await page.getByText('Showing 1 to 10 of 10 results').count()).toBe(1);
  });
});

describe('overview', () => {
  it('shows the four cards with the sample trends and the two lists of five', async () => {
    const { page } = browser;
    await openRoute(page, baseUrl, '/overview');
    await page.getByRole('heading', { name: 'Transparency Data Overview' }).waitFor();
    const cards = squash(await page.locator('.card-grid').innerText()).toLowerCase();
    for (const t of ['healthcare services 1,247 +12.3% with published pricing data', 'healthcare providers 3,856 +8.7% across all networks',
      'average negotiated rate $2,848 -2.4% across all services', 'price range spread 89.2% variation across regions']) {
      expect(cards).toContain(t);
    }
    const trendColors = await page.locator('.summary-card__trend').evaluateAll((els) => els.map((e) => getComputedStyle(e).color));
    expect(trendColors).toEqual(['rgb(6, 118, 71)', 'rgb(6, 118, 71)', 'rgb(180, 35, 24)']); // green, green, red
    expect(await page.locator('.overview-list li').count()).toBe(5);
    expect(squash(await page.locator('.overview-list li').first().innerText())).toBe('Office Visit - New Patient (Level 3) Code: 99203 $148 1,842 providers');
    expect(await page.locator('.specialty-list li').count()).toBe(5);
    // Bar width = count / 567 of the track: 567 -> 100 %, 298 -> 52.56 %.
    const ratio = (i: number) => page.locator('.specialty-list__bar').nth(i).evaluate((e) => e.getBoundingClientRect().width / e.parentElement!.getBoundingClientRect().width);
    expect(await ratio(0)).toBeCloseTo(1, 2);
    expect(await ratio(3)).toBeCloseTo(298 / 567, 2);
  });
});
