// The live comparison, the live search, the data coverage and the methodology pages in Debian's
// Chromium at 1280x800 and 390x844, on the live screens' fixture (serveLiveFixture in live-table.ts;
// every expected figure is computed by hand in test/fixtures/live/README.md, arithmetic repeated
// below). It is converted with `min_providers: 1` (docs/methodology.md, Validation): no unit is thin
// and the README's figures hold; thin units are checked on the default setting in
// live-comparison.e2e.ts. A second server with no dataset shows the error texts. Names are the CMS
// descriptors (docs/methodology.md, Names and categories: 70551 'Mri brain stem w/o dye', 99213
// 'Office o/p est low 20 min'); '% of Medicare' uses the national amounts 70551 $241.72 (OPPS) and
// 99213 $88.95 (PFS, non-facility). The live dashboard: live-dashboard.e2e.ts.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startServer, type RunningServer } from '../../scripts/server/index';
import { foreignRequests, launchBrowser, screenshot, type Browser } from './browser';
import { BOOT, serveLiveFixture, squash } from './live-table';
import { bothWidths, routeUrl, signIn } from './screens-helpers';

let noDataset: string;
let live: RunningServer;
let empty: RunningServer;
let browser: Browser;

const url = (path: string, base = live.url) => routeUrl(base, path);

beforeAll(async () => {
  live = await serveLiveFixture(inject('distDir'));
  noDataset = await mkdtemp(join(tmpdir(), 'compete-no-dataset-'));
  empty = await startServer({ distDir: inject('distDir'), dataDir: noDataset, port: 0, log: () => {} });
  browser = await launchBrowser();
  await signIn(browser.page, live.url);
});

afterAll(async () => {
  await browser?.close();
  await live?.close();
  await empty?.close();
  if (noDataset) await rm(noDataset, { recursive: true, force: true });
});

describe('live comparison', () => {
  const row = (page: Page, code: string) => page.getByRole('row').filter({ has: page.getByText(code, { exact: true }) });

  it('compares against Alpha alone once Beta and Gamma are deselected, over the whole set', async () => {
    const { page } = browser;
    await page.goto(url('/live-comparison'));
    await row(page, '70551').waitFor({ timeout: BOOT });
    // Default: every competitor; 29 of 30 services overpay; savings 15,000 + 12,000.
    await page.getByText('29 / 30', { exact: true }).waitFor();
    expect(await page.getByText('$27,000', { exact: true }).count()).toBe(1);
    expect(await page.getByText('3 Insurers', { exact: true }).count()).toBe(1);
    for (const [name, share] of [['Alpha', '30.0%'], ['Beta', '20.0%'], ['Gamma', '10.0%']]) {
      const box = page.getByRole('checkbox', { name: new RegExp(`^${name}`) });
      expect(await box.isChecked()).toBe(true);
      expect(squash(await page.locator('label.check', { has: box }).innerText())).toContain(`${share} share`);
    }
    // The boxes are controlled by the URL; two quick clicks both count, each against the URL of its moment
    // (not the selection of the last render, which the second click may come before).
    await page.getByRole('checkbox', { name: /^Beta/ }).click();
    await page.getByRole('checkbox', { name: /^Gamma/ }).click();
    await page.getByText('1 Insurers', { exact: true }).waitFor({ timeout: 60_000 });
    expect(new URL(page.url()).searchParams.get('competitors')).toBe('alpha');
    // 70551: 700 vs 600 = +$100 (+16.7 %), 100 claims, savings 10,000.
    // 99213: 130 vs 105 = +$25 (+23.8 %), 1,000 claims, savings 25,000.
    await expect.poll(async () => squash(await row(page, '70551').innerText()))
      .toContain('$700 289.6% of Medicare Alpha $600 248.2% of Medicare $600 248.2% of Medicare Above market: +$100 +16.7% above market 100 $10,000');
    expect(squash(await row(page, '99213').innerText()))
      .toContain('$130 146.1% of Medicare Alpha $105 118.0% of Medicare $105 118.0% of Medicare Above market: +$25 +23.8% above market 1,000 $25,000');
    // Cards over the whole filtered set: $35,000; (1,000 x 23.81 + 100 x 16.67 - 500 x 16.67) / 1,600 = +10.7 %.
    for (const t of ['$35,000', '+10.7%', '29 / 30']) expect(await page.getByText(t, { exact: true }).count(), t).toBe(1);
    expect(await page.getByText('29 services shown · 29 match these filters').count()).toBe(1);
    // Beta's and Gamma's prices are gone from the table.
    expect(await page.locator('.competitor-prices__name', { hasText: 'Beta' }).count()).toBe(0);

    // The view is in the URL: a reload (a bookmark) shows the same selection.
    await page.reload();
    await page.getByText('1 Insurers', { exact: true }).waitFor({ timeout: BOOT });
    expect(await page.getByRole('checkbox', { name: /^Beta/ }).isChecked()).toBe(false);
  });

  it('exports the table on screen as CSV named after the filters', async () => {
    const { page } = browser;
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('live-comparison_competitors-alpha_page-1-of-50.csv');
    const csv = await readFile((await download.path())!, 'utf8');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('billing_code,billing_code_type,billing_class,component,setting,service_name,published_name,category,ref_price_usd,ref_medicare_pct,'
      + 'alpha_price_usd,alpha_medicare_pct,selected_avg_usd,selected_avg_medicare_pct,market_band_p25_usd,market_band_p75_usd,overpayment_usd,variance_percent,position,claims_volume,potential_savings_usd,'
      + 'medicare_rate_usd,thin,thin_reason,confidence,confidence_reasons');
    expect(lines).toHaveLength(30); // header + 29 rows, one per comparison unit
    const first = lines[1]!.split(',');
    expect(first.slice(0, 9)).toEqual(['70551', 'CPT', 'institutional', 'global', 'facility', 'Mri brain stem w/o dye', 'MRI brain without contrast', 'Radiology', '700']);
    // Full precision: 100 x 700 / 241.72 and 100 x 600 / 241.72 % of Medicare.
    expect(Number(first[9])).toBeCloseTo((100 * 700) / 241.72, 9);
    expect([first[10], first[12]]).toEqual(['600', '600']);
    expect([Number(first[11]), Number(first[13])].map((x) => x.toFixed(6))).toEqual([((100 * 600) / 241.72).toFixed(6), ((100 * 600) / 241.72).toFixed(6)]);
    // the market band (Alpha's one provider: 600 to 600), the figures, not thin, and its confidence with its one reason (quoted: it holds a comma)
    expect(first.slice(14, 24)).toEqual(['600', '600', '100', `${(100 * 100) / 600}`, 'above market', '100', '10000', '241.72', 'false', '']);
    expect(lines[1]!.endsWith(',low,"rests on 1 provider (Reference Health, Alpha Care)"')).toBe(true);
  });

  it('traces a median to its rate rows and its file', async () => {
    const { page } = browser;
    await row(page, '99213').getByRole('button', { name: /^Reference price of 99213/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('mrf/ref_2025-02_in-network-rates.json', { exact: false }).first().waitFor({ timeout: 60_000 });
    const summary = squash(await dialog.getByRole('row').filter({ hasText: 'Reference Health' }).first().innerText());
    // ref 99213: CA1 120 and NY1 140 -> median 130, 2 rows, 2 providers, one file.
    expect(summary).toContain('Reference Health $130 2 2');
    expect(summary).toContain('Reference Health, Inc. · last updated 2025-02-03 · snapshot 2025-02 · 2 rows');
    expect(await dialog.getByText('Showing 1 to 2 of 2 results').count()).toBe(1);
    await screenshot(page, 'live-comparison-trace-1280x800');
    await page.keyboard.press('Escape');
  });

  it('pages by 25: Next only after a full page, Previous back, the cards cover every page', async () => {
    const { page } = browser;
    await page.goto(url('/live-comparison?limit=25'));
    await row(page, '70551').waitFor({ timeout: BOOT });
    const body = page.locator('.comparison-table tbody tr');
    await expect.poll(() => body.count()).toBe(25);
    expect(await page.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Next' }).isEnabled()).toBe(true);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2', { exact: true }).waitFor();
    // 29 overpaying services: page 2 holds the last 4, overpayments 4 ... 1.
    await expect.poll(async () => (await body.locator('.service-code').allInnerTexts()).join(' ')).toBe('20004 20003 20002 20001');
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    expect(await page.getByText('29 / 30', { exact: true }).count()).toBe(1);
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    await screenshot(page, 'live-comparison-page2-1280x800');
    // A new page size starts again at page 1.
    await page.getByLabel('Rows per page').selectOption('50');
    await page.getByText('Page 1', { exact: true }).waitFor();
    await expect.poll(() => body.count()).toBe(29);
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
    await bothWidths(page, 'live-comparison-all', () => row(page, '70551').waitFor({ timeout: BOOT }));
  });
});

describe('live search', () => {
  const combobox = (page: Page, name: string) => page.getByRole('combobox', { name, exact: true });
  /** The option of the open `label` autocomplete whose text holds `text`. */
  const option = (page: Page, label: string, text: string) =>
    page.getByRole('listbox', { name: `${label} suggestions` }).getByRole('option').filter({ hasText: text });
  /** The most options any <select> of the page holds (0 without one). */
  const longestSelect = (page: Page) => page.locator('select').evaluateAll((els) => Math.max(0, ...els.map((e) => (e as HTMLSelectElement).options.length)));

  it('keeps Provider and Insurer close together before a service is chosen, at both widths', async () => {
    const { page } = browser;
    for (const [width, height] of [[1280, 800], [390, 844]] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(url('/live-search'));
      await combobox(page, 'Service Name').waitFor({ timeout: BOOT });
      // The first services load (the empty box lists them on focus): the spinner goes once the worker answered.
      await expect.poll(() => page.locator('.autocomplete__spinner').count(), { timeout: BOOT }).toBe(0);
      const [provider, insurer, service, form] = await Promise.all([combobox(page, 'Provider'), combobox(page, 'Insurer'),
        combobox(page, 'Service Name'), page.locator('.live-search__form')].map(async (l) => (await l.boundingBox())!));
      // 1280: one row of three boxes. 390: stacked, with only the 16 px gap and the Insurer label (~20 px) between
      // Provider and Insurer. Forms measured 97.5 px and 244.5 px tall; the bug's 260 px autocomplete made them 300+.
      if (width === 1280) expect([insurer!.y - provider!.y, service!.y - provider!.y].map(Math.round).map(Math.abs)).toEqual([0, 0]);
      else expect(insurer!.y - (provider!.y + provider!.height)).toBeLessThan(48);
      expect(form!.height).toBeLessThan(width === 1280 ? 140 : 280);
      await screenshot(page, `live-search-empty-${width}x${height}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('chooses a service by typing part of its code, with no long <select>, and names a service the URL gives, at both widths', async () => {
    const { page } = browser;
    for (const [width, height] of [[1280, 800], [390, 844]] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(url('/live-search'));
      const service = combobox(page, 'Service Name');
      await service.waitFor({ timeout: BOOT });
      // The whole service list was one <select> (17,312 options on a real dataset; 31 on this fixture, so the
      // form is checked to hold no select at all); now no select is long.
      expect(await page.locator('.live-search__form select').count()).toBe(0);
      expect(await longestSelect(page)).toBeLessThanOrEqual(200);
      // '9921' is inside the code 99213 only (the other services: 70551, 85025 and the fillers 2xxxx).
      await service.fill('9921');
      await option(page, 'Service Name', '99213').click({ timeout: BOOT });
      await expect.poll(() => new URL(page.url()).searchParams.get('service')).toBe('99213');
      await page.getByText('Office o/p est low 20 min (99213)', { exact: true }).waitFor({ timeout: BOOT });
      expect(await longestSelect(page)).toBeLessThanOrEqual(200);
      // A URL naming only the code shows the service's name.
      await page.goto(url('/live-search?service=70551'));
      await page.getByText('Mri brain stem w/o dye (70551)', { exact: true }).waitFor({ timeout: BOOT });
      await screenshot(page, `live-search-service-${width}x${height}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('finds the price, reference price and market average of (99213, Ada Lovelace, Alpha Care)', async () => {
    const { page } = browser;
    await page.goto(url('/live-search'));
    const search = page.getByRole('button', { name: 'Search' });
    const service = combobox(page, 'Service Name');
    await service.waitFor({ timeout: BOOT });
    expect(await search.isDisabled()).toBe(true);
    // The provider and insurer boxes wait for a service: each is made anew for the service chosen
    expect(await combobox(page, 'Provider').isDisabled()).toBe(true);
    expect(await combobox(page, 'Insurer').isDisabled()).toBe(true);
    // Typed ahead and chosen with the keyboard: 'Office o/p est low 20 min' starts with 'office' (a prefix match, listed first).
    await service.fill('office');
    await option(page, 'Service Name', '99213').waitFor({ timeout: BOOT });
    expect(await page.getByRole('listbox', { name: 'Service Name suggestions' }).getByRole('option').first().innerText()).toContain('99213');
    await service.press('ArrowDown');
    await service.press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('service')).toBe('99213');
    const provider = combobox(page, 'Provider');
    // filled once enabled, in the box made for 99213
    await provider.fill('ada');
    // the provider suggestions are the worker's answer (providers-for-service): the first may wait behind its loads
    await page.getByRole('option', { name: /ADA LOVELACE/ }).click({ timeout: BOOT });
    expect(await search.isDisabled()).toBe(true);
    // The service's insurers, filtered in the page.
    await combobox(page, 'Insurer').fill('alp');
    await option(page, 'Insurer', 'Alpha Care').click({ timeout: BOOT });
    await expect.poll(() => search.isEnabled()).toBe(true);
    await search.click();
    const table = page.getByRole('table', { name: 'Price details' });
    await table.waitFor({ timeout: 60_000 });
    const rows = (await table.getByRole('row').allInnerTexts()).map(squash).slice(1);
    // Price: alpha's rows at CA1; Reference: ref at CA1, professional = 120; Market: alpha 100 and beta 90 -> 95.
    expect(rows).toEqual([
      // '% of Medicare' at the provider's locality (CA1's GPCIs), then the validation result, before the reference and market.
      expect.stringMatching(/^Office o\/p est low 20 min ADA LOVELACE Alpha Care \$100 \d+\.\d% of Medicare at provider's locality Valid \$120 \$95 Professional Global Non-facility negotiated 11/),
      // A percentage row has neither a benchmark nor a validation result.
      expect.stringContaining('80.0% of billed charges - - $120 $95 Professional Global Non-facility percentage 11'),
    ]);
    expect(new URL(page.url()).searchParams.get('provider')).toBe('1234567893');
    await bothWidths(page, 'live-search', () => page.getByRole('table', { name: 'Price details' }).waitFor({ timeout: BOOT }));
    // A new service clears provider and insurer.
    await page.getByRole('button', { name: /^Clear service / }).click();
    await combobox(page, 'Service Name').fill('70551');
    await option(page, 'Service Name', '70551').click({ timeout: BOOT });
    await expect.poll(() => new URL(page.url()).searchParams.get('service')).toBe('70551');
    expect([...new URL(page.url()).searchParams.keys()].filter((k) => k === 'provider' || k === 'insurer' || k === 'run')).toEqual([]);
    expect(await combobox(page, 'Insurer').inputValue()).toBe('');
    expect(await combobox(page, 'Provider').inputValue()).toBe('');
    expect(await page.getByRole('button', { name: 'Search' }).isDisabled()).toBe(true);
  });
});

describe('data coverage and methodology', () => {
  it('lists per insurer and snapshot the files and rate rows', async () => {
    const { page } = browser;
    await page.goto(url('/data-coverage'));
    const table = page.getByRole('table', { name: 'Coverage per insurer and snapshot' });
    await table.waitFor({ timeout: BOOT });
    // 4 insurers x 2 snapshots, one file each.
    expect(await table.getByRole('row').count()).toBe(9);
    // ref 2025-01: 99213 at CA1 and NY1 = 2 rate rows.
    // ... and no rate failed validation (the last column).
    expect(squash(await table.getByRole('row').filter({ hasText: 'Reference Health' }).filter({ hasText: '2025-01' }).innerText())).toBe('Reference Health 2025-01 1 2 0 0 3 0 0');
    // The headline with validation and without: the same here, no rate failed (+2.2 %, the dashboard's figure).
    expect(squash(await page.getByTestId('validation-headline').innerText())).toContain('Average Overpayment, 2025-02: +2.2% with validation, +2.2% without');
    await bothWidths(page, 'data-coverage', () => page.getByRole('table', { name: 'Coverage per insurer and snapshot' }).waitFor({ timeout: BOOT }));
  });

  it('opens the methodology from the navigation and from a figure', async () => {
    const { page } = browser;
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await nav.getByRole('link', { name: 'Methodology', exact: true }).click();
    await page.getByRole('heading', { name: 'Methodology', level: 1 }).waitFor();
    for (const label of ['Live Overview', 'Live Comparison', 'Live Search', 'Data Coverage']) {
      expect(await nav.getByRole('link', { name: label, exact: true }).count(), label).toBe(1);
    }
    await bothWidths(page, 'methodology', () => page.getByRole('heading', { name: 'Methodology', level: 1 }).waitFor());
  });
});

describe('without a dataset', () => {
  it('says so on the dashboard, in each panel, and the comparison', async () => {
    const { page } = browser;
    await signIn(page, empty.url);
    await page.goto(url('/live-dashboard', empty.url));
    // Each call fails on its own: every panel shows its error in its place, the insurers' under the header.
    for (const what of ['figures', 'trend', 'map', 'insurers']) {
      await page.getByRole('alert').filter({ hasText: `Failed to load ${what}.` }).waitFor({ timeout: BOOT });
    }
    await page.locator('.live-alerts').getByRole('alert').waitFor({ timeout: BOOT });
    expect(await page.locator('.page').getByRole('status').count()).toBe(0);
    await screenshot(page, 'live-dashboard-error-1280x800');
    await page.goto(url('/live-comparison?page=3', empty.url));
    await page.getByText('Error loading data.').waitFor({ timeout: BOOT });
    expect(await page.getByText('Failed to load service pricing or insurer data.').count()).toBe(1);
    await page.getByRole('button', { name: 'Retry' }).click();
    // Retry goes back to page 1.
    await expect.poll(() => new URL(page.url()).searchParams.get('page')).toBeNull();
    await page.getByText('Error loading data.').waitFor({ timeout: BOOT });
    await screenshot(page, 'live-comparison-error-1280x800');
  });

  it('made no request outside its own origins and threw no uncaught error', () => {
    const foreign = foreignRequests(foreignRequests(browser.requests, new URL(live.url).origin), new URL(empty.url).origin);
    expect(foreign).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
  });
});
