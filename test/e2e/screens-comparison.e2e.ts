// The sample price comparison (/comparison) in Debian's Chromium, docs/screens.md (Sample
// comparison, Shared components): defaults, the autocomplete's keys, note, spinner,
// clear button and no-result text, unified and separate search, chips and counters, duplicates
// ignored, the filters, the three sort orders and the summary cards.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { formatCount, formatUsd } from '../../contract/rules/format';
import { providerSearch, unifiedSearch } from '../../src/sample/comparison/sample-search';
import { comparisonRows, type ComparisonFilters } from '../../src/sample/data/comparison';
import { SAMPLE_SERVICES } from '../../src/sample/data/services';
import { launchBrowser, screenshot, type Browser } from './browser';
import { openRoute, storeToken } from './screens-helpers';

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  await storeToken(browser.page, baseUrl);
  await openRoute(browser.page, baseUrl, '/comparison');
});
afterAll(async () => {
  await browser?.close();
});

const DEFAULTS: ComparisonFilters = { competitors: ['unitedhealth', 'kaiser', 'aetna'], category: null, overpayingOnly: true,
  professional: true, institutional: true, sort: 'overpayment', serviceCodes: [] };

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const counter = async (page: Page, label: string) =>
  squash(await page.locator('.counters div', { has: page.locator(`dt:text-is("${label}")`) }).locator('dd').innerText());
const shownCodes = (page: Page) => page.locator('.cmp-table tbody .service-code').allInnerTexts();
const shownCount = async (page: Page) => squash(await page.locator('.cmp-results__head p').innerText());

describe('sample comparison', () => {
  it('starts with the default insurers, overpaying only, both service types and overpayment order', async () => {
    const { page } = browser;
    expect(await page.getByRole('checkbox', { name: 'Show only overpaying services' }).isChecked()).toBe(true);
    const checked = await page.locator('.cmp-insurers input:checked').evaluateAll((els) =>
      els.map((e) => e.closest('label')?.querySelector('span')?.textContent));
    expect(checked).toEqual(['UnitedHealth', 'Kaiser', 'Aetna']);
    expect(squash(await page.locator('.cmp-insurers').innerText())).toContain('Cigna 8.9% share');
    expect(await page.getByRole('button', { name: 'Professional' }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByRole('button', { name: 'Institutional' }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByLabel('Category').inputValue()).toBe('');
    expect(await page.getByLabel('Category').locator('option:checked').innerText()).toBe('All Categories');
    expect([await counter(page, 'Available Services'), await counter(page, 'Available Providers'),
      await counter(page, 'Selected Services'), await counter(page, 'Selected Providers')]).toEqual(['140', '118', '0', '0']);

    const expected = comparisonRows(SAMPLE_SERVICES, DEFAULTS);
    expect(await shownCount(page)).toBe(`${expected.length} services shown`);
    expect(await shownCodes(page)).toEqual(expected.map((r) => r.service.serviceCode));
    const cards = squash(await page.locator('.card-grid').innerText()).toLowerCase();
    expect(cards).toContain('comparing against 3 insurers');
    const savings = expected.reduce((a, r) => a + r.savings, 0);
    expect(cards).toContain(`total potential savings ${formatUsd(savings)}`.toLowerCase());
    await screenshot(page, 'comparison-defaults-1280x800');
  });

  it('autocomplete: 5 services + 5 providers with badges, the note, arrows, Enter, duplicates, Escape', async () => {
    const { page } = browser;
    const box = page.getByRole('combobox', { name: 'Search services and providers' });
    await box.fill('card');
    await page.getByRole('status', { name: 'Searching' }).waitFor({ timeout: 2_000 });
    const list = page.getByRole('listbox');
    const options = list.getByRole('option');
    await expect.poll(() => options.count()).toBe(10);
    const want = unifiedSearch('card');
    expect(await page.getByText(`Showing 10 of ${want.total} results`).count()).toBe(1);
    const badges = await list.locator('.option-badge').allInnerTexts();
    expect(badges.map((b) => b.toLowerCase())).toEqual([...Array(5).fill('service'), ...Array(5).fill('provider')]);
    await screenshot(page, 'comparison-autocomplete-1280x800');

    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await options.nth(1).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowUp');
    expect(await options.nth(0).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Enter');
    const first = want.options[0]!;
    if (first.kind !== 'service') throw new Error('expected a service first');
    const chips = page.getByRole('list', { name: 'Selected items' }).getByRole('listitem');
    await expect.poll(() => chips.count()).toBe(1);
    expect(await box.inputValue()).toBe('');
    expect(await counter(page, 'Selected Services')).toBe('1');
    expect(await shownCodes(page)).toEqual([first.service.serviceCode]); // the table narrows to it

    // The same service again is ignored.
    await box.fill('card');
    await expect.poll(() => options.count()).toBe(10);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => box.inputValue()).toBe('');
    expect(await chips.count()).toBe(1);

    // A provider by pointer; Escape closes the list.
    await box.fill('card');
    await expect.poll(() => options.count()).toBe(10);
    await options.nth(5).click();
    await expect.poll(() => chips.count()).toBe(2);
    expect(await counter(page, 'Selected Providers')).toBe('1');
    await box.fill('card');
    await expect.poll(() => options.count()).toBe(10);
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'hidden' });
    expect(await box.getAttribute('aria-expanded')).toBe('false');

    // Chips are removable.
    await page.getByRole('button', { name: `Remove ${first.service.serviceName}` }).click();
    await expect.poll(() => chips.count()).toBe(1);
    expect(await counter(page, 'Selected Services')).toBe('0');
    await chips.first().getByRole('button').click();
    await expect.poll(() => chips.count()).toBe(0);
  });

  it('autocomplete: no result text with the hint, and the clear button', async () => {
    const { page } = browser;
    const box = page.getByRole('combobox', { name: 'Search services and providers' });
    await box.fill('qqzz');
    await page.getByText('No results found for "qqzz"').waitFor();
    expect(await page.getByText('Try searching for service names, CPT codes, provider names, or categories').count()).toBe(1);
    await page.getByRole('button', { name: 'Clear Search services and providers' }).click();
    expect(await box.inputValue()).toBe('');
    expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it('separate search: a services box and a providers box with prefix matches first', async () => {
    const { page } = browser;
    await page.getByRole('radio', { name: 'Separate Search' }).click();
    expect(await page.getByRole('radio', { name: 'Separate Search' }).getAttribute('aria-checked')).toBe('true');
    const providers = page.getByRole('combobox', { name: 'Search providers' });
    await page.getByRole('combobox', { name: 'Search services' }).waitFor();
    await providers.fill('summit');
    const options = page.getByRole('listbox', { name: 'Search providers suggestions' }).getByRole('option');
    const want = providerSearch('summit').options.map((h) => (h.kind === 'provider' ? h.provider.name : ''));
    await expect.poll(() => options.count()).toBe(want.length);
    const names = await options.locator('.option-text > span').allInnerTexts();
    expect(names).toEqual(want);
    expect(names.every((n) => n.startsWith('Summit'))).toBe(true);
    await page.keyboard.press('Escape');
    await providers.fill('');
    await page.getByRole('radio', { name: 'Unified Search' }).click();
  });

  it('filters by type, overpaying, category and insurers, and sorts three ways', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Institutional' }).click();
    let codes = await shownCodes(page);
    expect(codes.length).toBeGreaterThan(0);
    expect(codes.every((c) => !/[05]$/.test(c))).toBe(true); // professional only
    await page.getByRole('button', { name: 'Institutional' }).click();

    await page.getByRole('checkbox', { name: 'Show only overpaying services' }).uncheck();
    expect(await shownCount(page)).toBe('140 services shown');
    await page.getByLabel('Category').selectOption('Emergency');
    expect(await shownCount(page)).toBe('10 services shown');
    await page.getByLabel('Category').selectOption('');
    await page.getByRole('checkbox', { name: 'Show only overpaying services' }).check();

    for (const [label, sort] of [['Potential Savings', 'savings'], ['Price Variance %', 'variance'], ['Overpayment Amount', 'overpayment']] as const) {
      await page.getByLabel('Sort by').selectOption({ label });
      codes = await shownCodes(page);
      expect(codes.slice(0, 5), label).toEqual(comparisonRows(SAMPLE_SERVICES, { ...DEFAULTS, sort }).slice(0, 5).map((r) => r.service.serviceCode));
    }

    // Adding Cigna: four insurers, and the summary's 'n / total' follows.
    await page.locator('.cmp-insurers label', { hasText: 'Cigna' }).getByRole('checkbox').check();
    const f: ComparisonFilters = { ...DEFAULTS, competitors: ['unitedhealth', 'kaiser', 'aetna', 'cigna'] };
    const rows = comparisonRows(SAMPLE_SERVICES, f);
    const cards = squash(await page.locator('.card-grid').innerText()).toLowerCase();
    expect(cards).toContain('comparing against 4 insurers');
    expect(cards).toContain(`services overpaying ${formatCount(rows.length)} / 140`);
    expect(await shownCodes(page)).toEqual(rows.map((r) => r.service.serviceCode));
    // The Competitor Prices cell lists the four selected insurers.
    expect(squash(await page.locator('.cmp-table tbody tr').first().locator('.competitor-list').innerText()))
      .toMatch(/^UnitedHealth \$[\d,]+ Kaiser \$[\d,]+ Aetna \$[\d,]+ Cigna \$[\d,]+$/);
  });

  it('compares against the market average with no insurer selected, showing - for the empty cell', async () => {
    const { page } = browser;
    const checked = page.locator('.cmp-insurers input:checked');
    while ((await checked.count()) > 0) await checked.first().uncheck();
    const cards = squash(await page.locator('.card-grid').innerText()).toLowerCase();
    expect(cards).toContain('comparing against 0 insurers');
    const rows = comparisonRows(SAMPLE_SERVICES, { ...DEFAULTS, competitors: [] });
    expect(await shownCodes(page)).toEqual(rows.map((r) => r.service.serviceCode));
    const first = page.locator('.cmp-table tbody tr').first().locator('td');
    // Columns after the row header: Anthem Price, Competitor Prices, Selected Avg, ...
    expect(await first.nth(1).innerText()).toBe('-');
    expect(await first.nth(2).innerText()).toBe(formatUsd(rows[0]!.service.marketAverage));
  });

  it('works on a phone', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 390, height: 844 });
    await openRoute(page, baseUrl, '/comparison');
    await page.getByRole('combobox', { name: 'Search services and providers' }).fill('mri');
    await page.getByRole('listbox').getByRole('option').first().waitFor();
    await screenshot(page, 'comparison-autocomplete-390x844');
    await page.keyboard.press('Escape');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(browser.pageErrors).toEqual([]);
  });
});
