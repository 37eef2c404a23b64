// The sample dashboard (/) in Debian's Chromium, docs/screens.md (Sample dashboard): KPI
// cards, the two charts with their fixed axes and tooltips (Escape hides, pointer move shows),
// the state map (51 state areas, Puerto Rico greyed and inert) and its modal (title, sortable
// table, note, 'No data for this region.', focus trapped and returned), and the alerts list.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { formatPercent } from '../../contract/rules/format';
import { dashboardKpis } from '../../src/sample/data/dashboard-kpis';
import { SAMPLE_SERVICES } from '../../src/sample/data/services';
import { launchBrowser, screenshot, type Browser } from './browser';
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
const focusedLabel = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '');

describe('sample dashboard', () => {
  it('shows the three KPI cards computed from the sample catalogue', async () => {
    const { page } = browser;
    await openRoute(page, baseUrl, '/');
    const k = dashboardKpis(SAMPLE_SERVICES);
    const cards = squash(await page.locator('.card-grid').innerText()).toLowerCase();
    expect(cards).toContain(`average overpayment ${formatPercent(k.averageOverpayment)}`.toLowerCase());
    expect(cards).toContain(`top overpaid service ${k.topService.serviceName}`.toLowerCase());
    expect(cards).toContain(`claims above market ${formatPercent(k.claimsAboveMarket)}`.toLowerCase());
  });

  it('draws the top-10 bars on a 0-30 % axis and the trend on 8-20 %', async () => {
    const { page } = browser;
    const top = page.getByRole('img', { name: /Top 10 Overpaid Services/ });
    const trend = page.getByRole('img', { name: /Overpayment Trend Over Time/ });
    await top.waitFor();
    expect(await top.locator('g[aria-label="bar"] rect').count()).toBe(10);
    const xTicks = await top.locator('g[aria-label="x-axis tick label"] text').allTextContents();
    expect([xTicks[0], xTicks.at(-1)]).toEqual(['0%', '30%']);
    const yTicks = await trend.locator('g[aria-label="y-axis tick label"] text').allTextContents();
    expect([yTicks[0], yTicks.at(-1)]).toEqual(['8%', '20%']);
    const months = await trend.locator('g[aria-label="x-axis tick label"] text').allTextContents();
    expect(months).toEqual(['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Sep', 'Oct', 'Nov', 'Dez']);
  });

  it('shows a tooltip on hover, hides it with Escape and shows it again on pointer move', async () => {
    const { page } = browser;
    const top = page.getByRole('img', { name: /Top 10 Overpaid Services/ });
    const bar = top.locator('g[aria-label="bar"] rect').first();
    const box = (await bar.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const tip = top.locator('g[aria-label="tip"]');
    await expect.poll(() => tip.textContent()).toContain('above market');
    expect(await tip.isVisible()).toBe(true);
    await screenshot(page, 'dashboard-tooltip-1280x800');
    await page.keyboard.press('Escape');
    await expect.poll(() => tip.isVisible()).toBe(false);
    await page.mouse.move(box.x + box.width / 2 + 3, box.y + box.height / 2);
    await expect.poll(() => tip.isVisible()).toBe(true);
    await page.mouse.move(5, 5);
  });

  it('draws 51 clickable state areas and a greyed, inert Puerto Rico', async () => {
    const { page } = browser;
    const map = page.locator('.us-map__svg');
    expect(await map.locator('path[data-state]').count()).toBe(52);
    expect(await map.getByRole('button').count()).toBe(51);
    const pr = map.locator('path[data-state="PR"]');
    expect(await pr.getAttribute('aria-disabled')).toBe('true');
    expect(await pr.getAttribute('fill')).toBe('#d0d5dd');
    expect(await pr.isVisible()).toBe(true);
    await pr.click({ force: true });
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('opens the state modal with a sortable table, traps focus and returns it', async () => {
    const { page } = browser;
    const ca = page.locator('path[data-state="CA"]');
    await ca.click();
    const dialog = page.getByRole('dialog', { name: 'California (West) - Service Price Comparison' });
    await dialog.waitFor();
    expect(await dialog.getByText('All prices are illustrative mock data.').count()).toBe(1);
    const heads = (await dialog.getByRole('columnheader').allInnerTexts()).map((t) => squash(t).toLowerCase());
    expect(heads).toEqual(['service', 'your price', 'market avg', 'overpayment %']);
    const firstColumn = () => dialog.locator('tbody th').allInnerTexts();
    // West rows, Overpayment % descending by default: MRI (1,520 - 1,210) / 1,210 = 25.6 %,
    // CBC (36 - 29) / 29 = 24.1 %, X-ray (102 - 86) / 86 = 18.6 %, colonoscopy (2,080 - 1,760) /
    // 1,760 = 18.2 %, office visit (176 - 149) / 149 = 18.1 %.
    expect((await dialog.locator('tbody td:nth-child(4)').allInnerTexts())).toEqual(['25.6%', '24.1%', '18.6%', '18.2%', '18.1%']);
    await dialog.getByRole('button', { name: 'Your Price' }).click();
    expect(await dialog.locator('tbody td:nth-child(2)').allInnerTexts()).toEqual(['$36', '$102', '$176', '$1,520', '$2,080']);
    expect(await dialog.getByRole('columnheader', { name: 'Your Price' }).getAttribute('aria-sort')).toBe('ascending');
    await dialog.getByRole('button', { name: 'Your Price' }).click();
    expect(await dialog.locator('tbody td:nth-child(2)').allInnerTexts()).toEqual(['$2,080', '$1,520', '$176', '$102', '$36']);
    await dialog.getByRole('button', { name: 'Service' }).click();
    expect((await firstColumn())[0]).toBe('Chest X-Ray, 2 Views'); // alphabetical: 'Ch' < 'Co'
    await screenshot(page, 'dashboard-modal-1280x800');

    // Tab cycles inside: close button, the scrollable table region, four sort buttons, back to close.
    await dialog.getByRole('button', { name: 'Close dialog' }).focus();
    for (let i = 0; i < 6; i++) await page.keyboard.press('Tab');
    expect(await focusedLabel(page)).toBe('Close dialog');
    await page.keyboard.press('Shift+Tab');
    expect(squash(await focusedLabel(page))).toBe('Overpayment %');

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await ca.evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it('opens a state by keyboard and says when its region has no data', async () => {
    const { page } = browser;
    const il = page.locator('path[data-state="IL"]');
    await il.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Illinois (Midwest) - Service Price Comparison' });
    await dialog.getByText('No data for this region.').waitFor();
    await dialog.getByRole('button', { name: 'Close dialog' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await il.evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it('lists the alerts with severity dots, region, service, date and Acknowledged badges', async () => {
    const { page } = browser;
    const items = page.locator('.alerts-list__item');
    expect(await items.count()).toBe(5);
    const dots = await page.locator('.alerts-list__dot').evaluateAll((els) => els.map((e) => getComputedStyle(e).backgroundColor));
    // high red, high red, medium yellow, medium yellow, low blue
    expect(dots).toEqual(['rgb(217, 45, 32)', 'rgb(217, 45, 32)', 'rgb(234, 170, 8)', 'rgb(234, 170, 8)', 'rgb(46, 144, 250)']);
    expect(await page.locator('.alerts-list__badge', { hasText: 'Acknowledged' }).count()).toBe(2);
    const first = squash(await items.first().innerText());
    expect(first).toContain('Price spike on MRI Brain');
    expect(first).toContain('West · MRI Brain without Contrast');
    expect(first).toContain('Jan 14, 2024');
  });

  it('fits the map and modal on a phone', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 390, height: 844 });
    await openRoute(page, baseUrl, '/');
    await page.locator('path[data-state="NY"]').click();
    const dialog = page.getByRole('dialog', { name: 'New York (Northeast) - Service Price Comparison' });
    await dialog.waitFor();
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await screenshot(page, 'dashboard-modal-390x844');
    await page.keyboard.press('Escape');
    expect(browser.pageErrors).toEqual([]);
  });
});
