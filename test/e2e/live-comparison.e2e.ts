// The whole product path in Debian's Chromium: sign-in (development), then the live comparison
// answered by the worker from the Parquet dataset converted from test/fixtures/e2e. Expected
// figures are computed by hand in test/fixtures/e2e/README.md (arithmetic repeated below).
// Elements are found by role and visible text (docs/screens.md, Live comparison and Texts), not by CSS classes.
// The same catalog under stricter validation bounds: validation-failures.e2e.ts.
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../scripts/server/security-headers';
import { foreignRequests, launchBrowser, screenshot, type Browser } from './browser';
import { E2E_CATALOG } from './setup';
import { apiCalls, cellTexts, columnIndex, expectUnitAndMedicareVisible, pageOverflow, recordApiCalls, squash } from './live-table';

const BOOT_TIMEOUT = 150_000; // DuckDB-WASM boot + first Parquet reads on a 2-core machine

/** One expected table row (whole dollars as the screen rounds them, docs/methodology.md Rounding). */
interface ExpectedRow {
  code: string;
  /** The CMS short descriptor (docs/methodology.md, Names and categories) and the publishers' most frequent name. */
  name: string;
  published: string;
  category: string;
  /** The unit's badges: class, component, setting (docs/methodology.md, Per comparison unit). */
  unit: [string, string, string];
  reference: string;
  /** '% of Medicare' beside the reference price, each competitor price and the market average (one decimal). */
  referencePct: string;
  competitors: Array<[string, string, string]>;
  selectedAvg: string;
  selectedAvgPct: string;
  overpayment: string;
  variance: string;
  claims: string;
  savings: string;
}

// Sorted by overpayment, descending (the default sort). One comparison unit per code here.
// '% of Medicare' = 100 x the median of rate / Medicare over an insurer's rows (national amounts of the
// CMS 2025 files the project ships: 70551 OPPS $241.72, 99213 PFS non-facility $88.95, 85025 CLFS $7.77).
const EXPECTED: ExpectedRow[] = [
  // 70551: ref (612 + 648) / 2 = 630; alpha (480 + 520) / 2 = 500; beta 540; avg (500 + 540) / 2 = 520;
  // overpayment 630 - 520 = 110 (+21.2 %: 110 / 520 = 0.21154); savings 110 x 300 = 33,000.
  // % of Medicare: 630 / 241.72 = 260.6 %, 500 / 241.72 = 206.9 %, 540 / 241.72 = 223.4 %, mean 215.1 %.
  { code: '70551', name: 'Mri brain stem w/o dye', published: 'MRI BRAIN W/O CONTRAST', category: 'Radiology',
    unit: ['Institutional', 'Global', 'Facility'], reference: '$630', referencePct: '260.6%',
    competitors: [['Alpha', '$500', '206.9%'], ['Beta', '$540', '223.4%']], selectedAvg: '$520', selectedAvgPct: '215.1%',
    overpayment: '+$110', variance: '+21.2%', claims: '300', savings: '$33,000' },
  // 99213: ref median of 118.40, 131.25, 150.00 (duplicate 150 counted once) = 131.25; alpha (100 + 110.50) / 2
  // = 105.25; beta median of 95.10, 99, 120 = 99; avg (105.25 + 99) / 2 = 102.125; overpayment 29.125
  // (+28.5 %: 29.125 / 102.125 = 0.28519); savings 29.125 x 1,200 = 34,950.
  // % of Medicare: 131.25 / 88.95 = 147.6 %, 105.25 / 88.95 = 118.3 %, 99 / 88.95 = 111.3 %, mean 114.8 %.
  { code: '99213', name: 'Office o/p est low 20 min', published: 'Office or outpatient visit, established patient', category: 'Office visit',
    unit: ['Professional', 'Global', 'Non-facility'], reference: '$131', referencePct: '147.6%',
    competitors: [['Alpha', '$105', '118.3%'], ['Beta', '$99', '111.3%']], selectedAvg: '$102', selectedAvgPct: '114.8%',
    overpayment: '+$29', variance: '+28.5%', claims: '1,200', savings: '$34,950' },
  // 85025: ref median of 14, 16.40, 21 = 16.40; alpha [10, 10, 12] (a two-NPI group) = 10; beta 9, 12.60, 15
  // (a 0.00 rate left out) = 12.60; avg (10 + 12.6) / 2 = 11.30; overpayment 5.10 (+45.1 %: 5.1 / 11.3 =
  // 0.45133); savings 5.10 x 5,000 = 25,500.
  // % of Medicare: 16.4 / 7.77 = 211.1 %, 10 / 7.77 = 128.7 %, 12.6 / 7.77 = 162.2 %, mean 145.4 %.
  { code: '85025', name: 'Complete cbc w/auto diff wbc', published: 'CBC W/AUTO DIFF', category: 'Lab',
    unit: ['Professional', 'Global', 'Non-facility'], reference: '$16', referencePct: '211.1%',
    competitors: [['Alpha', '$10', '128.7%'], ['Beta', '$13', '162.2%']], selectedAvg: '$11', selectedAvgPct: '145.4%',
    overpayment: '+$5', variance: '+45.1%', claims: '5,000', savings: '$25,500' },
];

const baseUrl = inject('baseUrl');
const origin = new URL(baseUrl).origin;
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  await recordApiCalls(browser.page);
});

/**
 * The comparison types services ahead (`GET /api/services-search`) and takes its categories from
 * `GET /api/service-categories`: since the page loaded it never asked for every service
 * (`GET /api/service-names`, megabytes at real size). The interceptor answers /api in the page, so
 * the calls are the page's fetches (recordApiCalls), not network requests.
 */
async function expectNoServiceNames(page: Browser['page']): Promise<void> {
  const calls = await apiCalls(page);
  expect(calls.filter((u) => u.includes('/api/service-pricing')).length, 'the page loaded its rows').toBeGreaterThan(0);
  expect(calls.filter((u) => new URL(u, origin).pathname === '/api/service-names')).toEqual([]);
}

/** The text of a counter of the search panel ('Available Services', ...). */
const counter = async (page: Browser['page'], label: string) =>
  squash(await page.locator('dt').filter({ hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]').innerText());
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
    // The app, DuckDB-WASM and the worker run under the server's strict CSP (docs/architecture.md).
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
      // The publishers' name, smaller, under the CMS name when it differs (docs/methodology.md, Names and categories).
      expect(service).toContain(`published as: ${want.published.toLowerCase()}`);
      expect(service).toContain(want.code);
      expect(service).toContain(want.category.toLowerCase());
      // The unit's class, component and setting as badges next to the code.
      expect(await row.getByRole('group', { name: `Unit: ${want.unit.join(' · ')}` }).innerText().then(squash)).toBe(want.unit.join(' '));
      expect(cells[at.reference], `${want.code} reference price`).toBe(`${want.reference} ${want.referencePct} of Medicare`);
      for (const [insurer, price, pct] of want.competitors) {
        expect(cells[at.competitors]).toMatch(new RegExp(`${insurer}\\s*\\${price}(?![\\d,]) ${pct.replace('.', '\\.')} of Medicare`));
      }
      expect(cells[at.avg], `${want.code} selected avg`).toBe(`${want.selectedAvg} ${want.selectedAvgPct} of Medicare`);
      expect(await row.getByRole('note', { name: /too few providers/ }).count(), `${want.code} is not thin`).toBe(0);
      expect(cells[at.overpayment], `${want.code} overpayment`).toMatch(
        new RegExp(`\\${want.overpayment.replace('$', '\\$')}(?![\\d,])`),
      );
      expect(cells[at.overpayment]).toContain(`${want.variance} above market`);
      expect(cells[at.claims], `${want.code} claims`).toBe(want.claims);
      expect(cells[at.savings], `${want.code} potential savings`).toBe(want.savings);
    }

    await expect.poll(() => page.getByText('3 services shown').count()).toBe(1);
    await expectNoServiceNames(page);
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
    // The badges and the '% of Medicare' figures are on screen at 390 px too (the table scrolls sideways).
    await expectUnitAndMedicareVisible(page);
    expect(await pageOverflow(page), 'nothing wider than the phone outside the table').toBe(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'live-comparison-390x844');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('filters by a category the data uses: only its rows, kept in the URL and the CSV name, at both widths', async () => {
    const { page } = browser;
    await page.goto(new URL('live-comparison', baseUrl).href);
    const category = page.getByLabel('Category');
    await category.locator('option', { hasText: 'Radiology' }).waitFor({ state: 'attached', timeout: BOOT_TIMEOUT });
    // Exactly the dataset's categories (this catalog has no services file: derived from the codes, docs/methodology.md (Names and categories)).
    expect(await category.locator('option').allInnerTexts()).toEqual(['All Categories', 'Lab', 'Office visit', 'Radiology']);
    expect((await apiCalls(page)).filter((u) => u.includes('/api/service-categories')).length).toBeGreaterThan(0);
    await category.selectOption('Lab');
    await page.waitForURL((u) => u.searchParams.get('category') === 'Lab');
    const bodyRows = page.getByRole('table').getByRole('row').filter({ hasNot: page.getByRole('columnheader') });
    await expect.poll(() => page.getByText('1 services shown · 1 match these filters').count(), { timeout: BOOT_TIMEOUT }).toBe(1);
    expect((await bodyRows.allInnerTexts()).map(squash)).toEqual([expect.stringMatching(/Complete cbc w\/auto diff wbc.*85025.*Lab.*\$16 211\.1% of Medicare/)]);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('live-comparison_category-lab_page-1-of-50.csv');
    for (const { name, width, height } of [{ name: '1280x800', width: 1280, height: 800 }, { name: '390x844', width: 390, height: 844 }]) {
      await page.setViewportSize({ width, height });
      await page.reload(); // the view is in the URL: a bookmark shows the same category and rows
      await page.getByRole('row').filter({ hasText: '85025' }).waitFor({ timeout: BOOT_TIMEOUT });
      expect(await category.inputValue()).toBe('Lab');
      expect(await bodyRows.count()).toBe(1);
      if (width < 500) expect(await pageOverflow(page), 'nothing wider than the phone outside the table').toBe(0);
      await screenshot(page, `live-comparison-category-${name}`);
    }
    await expectNoServiceNames(page);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('finds a service typed in the unified search, selects it, and names its chip from the URL, never loading every service', async () => {
    const { page } = browser;
    await page.goto(new URL('live-comparison', baseUrl).href);
    await page.getByRole('table').getByRole('row').filter({ hasText: '70551' }).waitFor({ timeout: BOOT_TIMEOUT });
    // The counters are the totals of the two searches without q: 3 services and 3 providers in this catalog.
    await expect.poll(() => counter(page, 'Available Services')).toBe('3');
    await expect.poll(() => counter(page, 'Available Providers')).toBe('3');

    // 'brain' is inside the name of 70551 ('Mri brain stem w/o dye'), not its start: found by the worker's search.
    // (The option's badge reads 'SERVICE': upper-cased by CSS.)
    const box = page.getByRole('combobox', { name: 'Search services and providers' });
    await box.fill('brain');
    const options = page.getByRole('listbox', { name: 'Search services and providers suggestions' }).getByRole('option');
    await expect.poll(() => options.allInnerTexts().then((t) => t.map(squash)), { timeout: 30_000 })
      .toEqual([expect.stringMatching(/^Service ?Mri brain stem w\/o dye ?70551 · Radiology$/i)]);
    await options.first().click();
    await expect.poll(() => new URL(page.url()).searchParams.get('services')).toBe('70551');
    const chips = page.getByRole('list', { name: 'Selected items' });
    expect(squash(await chips.innerText())).toBe('70551 Mri brain stem w/o dye');
    await expect.poll(() => page.getByText('1 services shown', { exact: false }).count(), { timeout: BOOT_TIMEOUT }).toBe(1);
    const bodyRows = page.getByRole('table').getByRole('row').filter({ hasNot: page.getByRole('columnheader') });
    expect((await bodyRows.allInnerTexts()).map(squash)).toEqual([expect.stringContaining('70551')]);
    expect(await counter(page, 'Selected Services')).toBe('1');
    const searches = (await apiCalls(page)).filter((u) => u.includes('/api/services-search'));
    expect(searches.some((u) => new URL(u, origin).searchParams.get('q') === 'brain')).toBe(true);
    await expectNoServiceNames(page);

    // A URL naming only the code (a bookmark): the chip still shows the service's name, looked up by its code.
    await page.reload();
    await page.getByRole('table').getByRole('row').filter({ hasText: '70551' }).waitFor({ timeout: BOOT_TIMEOUT });
    await expect.poll(() => chips.innerText().then(squash), { timeout: 30_000 }).toBe('70551 Mri brain stem w/o dye');
    await expectNoServiceNames(page);
    await screenshot(page, 'live-comparison-search-service-1280x800');
  });

  it('marks a thin unit low confidence and leaves it out of the cards, at both widths', async () => {
    const { page } = browser;
    // Beta alone: its 70551 price rests on 1 provider (CA2 540), under min_providers 2 (the default): the unit is
    // thin. 99213: 131.25 vs 99 = +32.25 (+32.6 %), savings 38,700; 85025: 16.40 vs 12.60 = +3.80 (+30.2 %),
    // savings 19,000. Cards without 70551: $57,700; (1,200 x 32.576 + 5,000 x 30.159) / 6,200 = +30.6 %; 2 / 2.
    for (const { name, width, height } of [{ name: '1280x800', width: 1280, height: 800 }, { name: '390x844', width: 390, height: 844 }]) {
      await page.setViewportSize({ width, height });
      await page.goto(new URL('live-comparison?competitors=beta', baseUrl).href);
      const row70551 = page.getByRole('row').filter({ has: page.getByText('70551', { exact: true }) });
      await row70551.waitFor({ timeout: BOOT_TIMEOUT });
      const mark = row70551.getByRole('note', { name: /^Low confidence: too few providers: competitor prices rest on 1 provider together/ });
      await mark.waitFor();
      expect(await mark.isVisible()).toBe(true);
      expect(await mark.innerText()).toBe('Low confidence');
      expect(await mark.getAttribute('title')).toContain('competitor prices rest on 1 provider together');
      // Still listed with its figures: 630 vs 540 = +$90, +16.7 %.
      expect(squash(await row70551.innerText())).toContain('Above market: +$90 +16.7%');
      for (const code of ['99213', '85025']) {
        expect(await page.getByRole('row').filter({ has: page.getByText(code, { exact: true }) }).getByRole('note', { name: /too few providers/ }).count(), code).toBe(0);
      }
      for (const text of ['$57,700', '+30.6%', '2 / 2', '1 Insurers']) {
        expect(await page.getByText(text, { exact: true }).count(), text).toBeGreaterThan(0);
      }
      await page.getByText('1 of them thin (too few providers behind a price, so low confidence)', { exact: false }).waitFor();
      await expectUnitAndMedicareVisible(page);
      if (width < 500) expect(await pageOverflow(page), 'nothing wider than the phone outside the table').toBe(0);
      await page.evaluate(() => window.scrollTo(0, 0)); // a full-page shot of a scrolled page draws the fixed shell mid-page
      await screenshot(page, `live-comparison-thin-${name}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it("marks a unit low confidence in a state's modal, where it rests on too few providers", async () => {
    const { page } = browser;
    // CA: 70551 ref 648 at Bay Clinic only (612 is in NY): 1 provider, under min_providers 2; 99213 and 85025 are not thin.
    await page.goto(new URL('live-dashboard?state=CA', baseUrl).href);
    const dialog = page.getByRole('dialog', { name: 'California (West) - Service Price Comparison' });
    await dialog.getByRole('table').waitFor({ timeout: BOOT_TIMEOUT });
    const row70551 = dialog.getByRole('row').filter({ has: page.getByText('70551', { exact: true }) });
    expect(await row70551.getByRole('note', { name: /^Low confidence: too few providers behind its prices in CA/ }).count()).toBe(1);
    expect(squash(await row70551.getByRole('group', { name: /^Unit: / }).innerText())).toBe('Institutional Global Facility');
    for (const code of ['99213', '85025']) {
      expect(await dialog.getByRole('row').filter({ has: page.getByText(code, { exact: true }) }).getByText('Low confidence').count(), code).toBe(0);
    }
    await screenshot(page, 'live-dashboard-modal-thin-1280x800');
    await page.keyboard.press('Escape');
  });

  it('shows the validation counts per file, the settings and the headline with and without validation, at both widths', async () => {
    const { page } = browser;
    for (const { name, width, height } of [{ name: '1280x800', width: 1280, height: 800 }, { name: '390x844', width: 390, height: 844 }]) {
      await page.setViewportSize({ width, height });
      await page.goto(new URL('data-coverage', baseUrl).href);
      const table = page.getByRole('table', { name: 'Validation per file' });
      await table.waitFor({ timeout: BOOT_TIMEOUT });
      // No rate of the fixture fails a check (every one sits between 0.3x and 30x Medicare), so the validated
      // and unvalidated headlines are the comparison's Avg Overpayment, +41.0 %.
      const headline = page.getByTestId('validation-headline');
      expect(await headline.isVisible()).toBe(true);
      expect(squash(await headline.innerText())).toContain('Average Overpayment, 2025-01: +41.0% with validation, +41.0% without');
      const headers = (await table.getByRole('columnheader').allInnerTexts()).map((t) => squash(t).toLowerCase());
      expect(headers).toEqual(['file', 'rate rows', 'source not in dollars', 'below 0.3x medicare', 'above 30x medicare', 'outlier', 'median % of medicare']);
      // ref: 10 rate rows, none failed; median % of Medicare over its 8 distinct prices: the middle two are
      // 14 / 7.77 = 180.2 % and 16.40 / 7.77 = 211.1 % -> 195.6 %.
      const rows = (await table.getByRole('row').allInnerTexts()).map(squash).slice(1);
      expect(rows).toContainEqual(expect.stringMatching(/^#\d+ mrf\/ref_in-network-rates\.json ref · 2025-01 10 0 0 0 0 195\.6%$/));
      expect(rows).toHaveLength(3);
      const settings = squash(await page.getByRole('definition').filter({ hasText: 'Medicare' }).first().innerText());
      expect(settings).toBe('0.3x Medicare');
      expect(squash(await page.getByLabel('Validation settings used').innerText())).toContain('Min providers 2');
      await headline.scrollIntoViewIfNeeded();
      expect(await headline.isVisible()).toBe(true);
      if (width < 500) expect(await pageOverflow(page), 'nothing wider than the phone outside the tables').toBe(0);
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `data-coverage-validation-${name}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('shows the copyright notices of the CMS files, the AMA one among them, on the methodology page', async () => {
    const { page } = browser;
    for (const { name, width, height } of [{ name: '1280x800', width: 1280, height: 800 }, { name: '390x844', width: 390, height: 844 }]) {
      await page.setViewportSize({ width, height });
      await page.goto(new URL('methodology#notices', baseUrl).href);
      const notices = page.getByRole('list', { name: 'Copyright notices' });
      const ama = notices.getByText(/CPT codes and descriptions only are copyright \d{4} American Medical Association/).first();
      await ama.waitFor({ timeout: BOOT_TIMEOUT });
      await ama.scrollIntoViewIfNeeded();
      expect(await ama.isVisible()).toBe(true);
      // The page is docs/methodology.md, rendered: its headings with their ids, and its own words.
      const doc = await readFile(resolve(dirname(E2E_CATALOG), '../../../docs/methodology.md'), 'utf8');
      const sections = [...doc.matchAll(/^## (.+)$/gm)].map((m) => m[1]!);
      expect(sections).toContain('Per comparison unit');
      for (const name of sections) {
        expect(await page.getByRole('heading', { name, exact: true, level: 2 }).count(), name).toBe(1);
      }
      for (const id of ['the-comparison-unit', 'medicare-benchmark', 'validation', 'low-confidence-thin-units', 'at-shared-providers', 'names-and-categories']) {
        expect(await page.locator(`[id="${id}"]`).count(), id).toBe(1);
      }
      expect(doc).toContain('A median drawn from a single provider is that provider');
      expect(await page.getByText(/^A median drawn from a single provider is that provider.s contract, not a market price\./).count()).toBe(1);
      expect(squash(await page.getByTestId('methodology-dataset-settings').innerText())).toContain('min_providers 2');
      if (width < 500) expect(await pageOverflow(page), 'nothing wider than the phone').toBe(0);
      await screenshot(page, `methodology-notices-${name}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    // A screen's link (`/methodology#low-confidence-thin-units`, the id rehype-slug gives the heading) lands on its rule.
    await page.goto(new URL('methodology#low-confidence-thin-units', baseUrl).href);
    const thin = page.getByRole('heading', { name: 'Low-confidence (thin) units', level: 3 });
    await expect.poll(() => thin.evaluate((e) => Math.round(e.getBoundingClientRect().top))).toBeLessThan(200);
    expect(await thin.evaluate((e) => e.getBoundingClientRect().top)).toBeGreaterThanOrEqual(0);
  });

  it('made no request outside its own origin and threw no uncaught error', () => {
    expect(browser.requests.length).toBeGreaterThan(0);
    expect(browser.requests.some((u) => new URL(u).pathname.startsWith('/data/'))).toBe(true);
    expect(foreignRequests(browser.requests, origin)).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
  });
});
