// Rates that fail validation, end to end: the e2e fixture (test/fixtures/e2e) converted again under
// validation bounds of 1.2x and 2.5x Medicare, served by a server of its own, and read on the live
// search, the rate rows behind a median and the data coverage page. The expected figures are worked
// out by hand in the comments beside them (docs/methodology.md, Validation).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Catalog } from '../../contract/files/catalog';
import { convertCatalog } from '../../scripts/convert/index';
import { startServer, type RunningServer } from '../../scripts/server/index';
import { foreignRequests, launchBrowser, screenshot, type Browser } from './browser';
import { E2E_CATALOG } from './setup';
import { squash } from './live-table';
import { signIn } from './screens-helpers';

const BOOT_TIMEOUT = 150_000; // DuckDB-WASM boot + first Parquet reads on a 2-core machine
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('rates that fail validation (the same files under bounds of 1.2x and 2.5x Medicare)', () => {
  let root: string;
  let strict: RunningServer;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'compete-strict-e2e-'));
    const base = dirname(E2E_CATALOG);
    const c = JSON.parse(await readFile(E2E_CATALOG, 'utf8')) as Catalog;
    const abs = (p: string | undefined) => (p === undefined ? undefined : resolve(base, p));
    const variant: Catalog = {
      ...c, npi_registry: abs(c.npi_registry), claims_volume: abs(c.claims_volume),
      insurers: c.insurers.map((i) => ({ ...i, files: i.files.map((f) => ({ ...f, url: abs(f.url)! })) })),
      validation: { min_ratio: 1.2, max_ratio: 2.5 },
    };
    await writeFile(join(root, 'catalog.json'), JSON.stringify(variant));
    const { outDir } = await convertCatalog(join(root, 'catalog.json'), join(root, 'dataset'), { quiet: true });
    strict = await startServer({ distDir: inject('distDir'), dataDir: outDir, port: 0, log: () => {} });
    await signIn(browser.page, strict.url);
  });

  afterAll(async () => {
    await strict?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("marks a failed rate in the live search with its reason and '% of Medicare', at both widths", async () => {
    const { page } = browser;
    // alpha's 99213 at Ada Lovelace: $100, national 100 / 88.95 = 1.12x Medicare, under 1.2x: fails 'Below 1.2x Medicare'.
    // Its '% of Medicare' is at her locality (CA): a figure and the words "at provider's locality".
    for (const { name, width, height } of [{ name: '1280x800', width: 1280, height: 800 }, { name: '390x844', width: 390, height: 844 }]) {
      await page.setViewportSize({ width, height });
      await page.goto(new URL('live-search?service=99213&provider=1234567893&insurer=alpha&run=1', strict.url).href);
      const table = page.getByRole('table', { name: 'Price details' });
      await table.waitFor({ timeout: BOOT_TIMEOUT });
      const rows = (await table.getByRole('row').allInnerTexts()).map(squash).slice(1);
      expect(rows).toEqual([expect.stringMatching(/^Office o\/p est low 20 min ADA LOVELACE Alpha Care \$100 \d+\.\d% of Medicare at provider's locality Failed validation: Below 1\.2x Medicare /)]);
      const mark = table.getByText('Below 1.2x Medicare');
      await mark.scrollIntoViewIfNeeded();
      expect(await mark.isVisible()).toBe(true);
      expect(await page.getByText('1 failed validation: shown, but outside the reference price and market average').count()).toBe(1);
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `live-search-failed-${name}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('lists the failed rows behind a median with their reason, and counts them', async () => {
    const { page } = browser;
    await page.goto(new URL('live-comparison?overpaying=0&competitors=alpha,beta', strict.url).href);
    const row = page.getByRole('row').filter({ has: page.getByText('99213', { exact: true }) });
    await row.waitFor({ timeout: BOOT_TIMEOUT });
    await row.getByRole('button', { name: /^Beta price of 99213/ }).click();
    const dialog = page.getByRole('dialog', { name: /Rate rows behind the prices/ });
    const rates = dialog.getByRole('table', { name: 'Rate rows of Beta Health Plan' });
    await rates.waitFor({ timeout: 60_000 });
    // beta 99213: 95.10 (1.07x) and 99 (1.11x) fail, 120 (1.35x) is valid: median $120 over 1 row, 2 failed.
    expect(squash(await dialog.getByRole('row').filter({ hasText: 'Beta Health Plan' }).first().innerText())).toMatch(/^Beta Health Plan \$120 1 1 2 /);
    expect(squash(await dialog.getByRole('heading', { level: 3 }).innerText())).toBe('Beta Health Plan: 1 rate row · 2 failed validation (listed, not counted)');
    const texts = (await rates.getByRole('row').allInnerTexts()).map(squash).slice(1);
    expect(texts.filter((t) => t.includes('Failed validation: Below 1.2x Medicare'))).toHaveLength(2);
    expect(texts.filter((t) => / Valid /.test(t))).toHaveLength(1);
    await screenshot(page, 'rate-rows-failed-1280x800');
    await page.keyboard.press('Escape');
  });

  it('counts the failed rates per file and shows the headline with and without validation', async () => {
    const { page } = browser;
    await page.goto(new URL('data-coverage', strict.url).href);
    const table = page.getByRole('table', { name: 'Validation per file' });
    await table.waitFor({ timeout: BOOT_TIMEOUT });
    // ref: 612, 648 (70551, over 2.5 x 241.72 = 604.30) and 21 (85025, over 2.5 x 7.77 = 19.43) fail above;
    // alpha: 100 (99213) below; beta: 95.10, 99 (99213) and 9 (85025, 1.16x) below.
    const rows = (await table.getByRole('row').allInnerTexts()).map(squash).slice(1);
    expect(rows.map((r) => r.replace(/^#\d+ \S+ (\w+) · 2025-01 /, '$1 ').replace(/ [\d.]+%$/, ''))).toEqual(['ref 10 0 0 3 0', 'alpha 6 0 1 0 0', 'beta 8 0 3 0 0']);
    expect((await table.getByRole('columnheader').allInnerTexts()).map((t) => squash(t).toLowerCase()))
      .toEqual(['file', 'rate rows', 'source not in dollars', 'below 1.2x medicare', 'above 2.5x medicare', 'outlier', 'median % of medicare']);
    // Validated: 99213 131.25 vs (110.50 + 120) / 2 = 115.25 -> +13.88 %; 70551 has no valid reference rate; 85025
    // (14 + 16.40) / 2 = 15.20 vs (10 + 13.80) / 2 = 11.90 -> +27.73 %; (1,200 x 13.88 + 5,000 x 27.73) / 6,200 = +25.1 %.
    // Without validation: every rate, +41.0 % (the default screen's figure).
    expect(squash(await page.getByTestId('validation-headline').innerText())).toContain('Average Overpayment, 2025-01: +25.1% with validation, +41.0% without');
    expect(squash(await page.getByLabel('Validation settings used').innerText())).toContain('Lower bound 1.2x Medicare Upper bound 2.5x Medicare');
    await screenshot(page, 'data-coverage-failed-1280x800');
  });

  it('made no request outside its own origin and threw no uncaught error', () => {
    expect(browser.requests.length).toBeGreaterThan(0);
    expect(foreignRequests(browser.requests, new URL(strict.url).origin)).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
  });
});
