// An auditor's local snapshot in Debian's Chromium: the Dataset screen (/dataset) opens a converted
// dataset directory from disk through its file input, shows the hashing progress, and from then on
// the live screens answer from the local files with no request to /data/; a damaged copy (one byte
// changed) is refused with a message naming the file, and the snapshot in use keeps answering.
//
// The local dataset is test/fixtures/api converted by the real converter (figures computed by hand
// in test/worker/service-pricing.test.ts), so its answers differ from the server's dataset
// (test/fixtures/e2e: codes 70551, 99213, 85025, no 70450):
//   70450 (CT head without contrast) at M = 2025-02, national, both classes:
//   ref median(500, 700) = 600; alpha median(400, 450, 520) = 450; beta (its 2025-01 file) 600;
//   market (450 + 600) / 2 = 525; overpayment 600 - 525 = 75 (+14.3 %: 75 / 525 = 0.142857).
import { cp, mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { convertCatalog } from '../../scripts/convert/index';
import { FIXTURE_CATALOG } from '../worker/fixture-dataset';
import { foreignRequests, launchBrowser, screenshot, type Browser } from './browser';
import { navigateInApp, signIn } from './screens-helpers';

const BOOT_TIMEOUT = 150_000; // DuckDB-WASM boot + first Parquet reads on a 2-core machine

const baseUrl = inject('baseUrl');
const origin = new URL(baseUrl).origin;
let browser: Browser;
let root = '';
let good = '';
let damaged = '';

/** Paths under /data/ requested so far (the page and its worker). */
const dataRequests = (from = 0): string[] =>
  browser.requests.slice(from).map((u) => new URL(u).pathname).filter((p) => p.startsWith('/data/'));


/**
 * The price in the reference insurer's price cell of the first row of `code` in the live comparison
 * table (one row per comparison unit; the first is the first unit); the column is titled '<short name>
 * Price' (the local fixture's reference is 'RefHealth') with '% of Medicare' under it, and the cell
 * holds the price over its '% of Medicare'.
 */
async function referencePriceOf(page: Page, code: string): Promise<string> {
  const table = page.getByRole('table');
  const row = table.getByRole('row').filter({ has: page.getByText(code, { exact: true }) }).first();
  await row.waitFor({ timeout: BOOT_TIMEOUT });
  const titles = (await page.getByRole('columnheader').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim().toLowerCase());
  const at = titles.findIndex((t) => t === 'refhealth price' || t === 'refhealth price % of medicare');
  if (at < 0) throw new Error(`no RefHealth Price column among ${JSON.stringify(titles)}`);
  const cells = await row.locator(':scope > th, :scope > td').allInnerTexts();
  return (cells[at] ?? '').trim().split('\n')[0]!.trim();
}

/** Collects every text the hashing progress line shows (it may last only a few frames). */
async function watchProgress(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { progressSeen: string[] }).progressSeen = seen;
    new MutationObserver(() => {
      const t = document.querySelector('[data-testid="snapshot-progress"]')?.textContent;
      if (t && seen[seen.length - 1] !== t) seen.push(t);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'compete-local-e2e-'));
  good = join(root, 'api-fixture-snapshot');
  await convertCatalog(FIXTURE_CATALOG, good, { quiet: true });
  // The damaged copy: same files, one byte of price_stats.parquet changed (same size).
  damaged = join(root, 'damaged-snapshot');
  await cp(good, damaged, { recursive: true });
  const target = join(damaged, 'price_stats.parquet');
  const size = (await readFile(target)).byteLength;
  const fh = await open(target, 'r+');
  try {
    const one = Buffer.alloc(1);
    await fh.read(one, 0, 1, Math.floor(size / 2));
    one[0] = one[0]! ^ 0xff;
    await fh.write(one, 0, 1, Math.floor(size / 2));
  } finally {
    await fh.close();
  }
  browser = await launchBrowser();
  await signIn(browser.page, baseUrl);
});

afterAll(async () => {
  await browser?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('local snapshot, end to end', () => {
  let requestsAtSwitch = 0;

  it('starts on the server dataset', async () => {
    const { page } = browser;
    await page.goto(new URL('dataset', baseUrl).href);
    await expect.poll(() => page.getByTestId('dataset-origin').textContent(), { timeout: BOOT_TIMEOUT }).toBe('Server (/data/)');
    expect(dataRequests()).toContain('/data/manifest.json');
  });

  it('opens a dataset directory from disk: hashes it with progress, then answers from it', async () => {
    const { page } = browser;
    await watchProgress(page);
    await page.getByTestId('open-directory').setInputFiles(good);
    await page.getByTestId('snapshot-opened').waitFor({ timeout: BOOT_TIMEOUT });
    requestsAtSwitch = browser.requests.length;
    const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
    expect(seen.some((t) => /^Checking \S+: \d+ of \d+ files, \d+%$/.test(t)), JSON.stringify(seen)).toBe(true);
    await expect
      .poll(() => page.getByTestId('dataset-origin').textContent(), { timeout: 30_000 })
      .toBe('Local snapshot: api-fixture-snapshot');
    expect(await page.getByTestId('dataset-snapshots').textContent()).toBe('2025-01, 2025-02');
    await screenshot(page, 'dataset-local-1280x800');

    await navigateInApp(page, '/live-comparison');
    // 70450 exists only in the local snapshot: ref 600 (see the header).
    expect(await referencePriceOf(page, '70450')).toBe('$600');
    expect(await page.getByRole('row').filter({ hasText: '70551' }).count()).toBe(0);
    const answer = await page.evaluate(async () => (await fetch('/api/service-pricing?services=70450')).json());
    expect(answer.records[0]).toMatchObject({ service_code: '70450', reference_price: 600, market_average: 525, overpayment: 75 });
    expect(dataRequests(requestsAtSwitch)).toEqual([]);
  });

  it('refuses a damaged copy naming the file and the problem; the snapshot in use keeps answering', async () => {
    const { page } = browser;
    await navigateInApp(page, '/dataset');
    await page.getByTestId('open-directory').setInputFiles(damaged);
    const error = page.getByTestId('snapshot-error');
    await error.waitFor({ timeout: BOOT_TIMEOUT });
    expect(await error.textContent()).toMatch(
      /^Cannot open this snapshot: price_stats\.parquet: SHA-256 [0-9a-f]{64} does not match the manifest's [0-9a-f]{64}: the file is damaged or from another dataset\. The dataset in use is unchanged\.$/,
    );
    await screenshot(page, 'dataset-damaged-1280x800');
    expect(await page.getByTestId('dataset-origin').textContent()).toBe('Local snapshot: api-fixture-snapshot');

    await navigateInApp(page, '/live-comparison');
    expect(await referencePriceOf(page, '70450')).toBe('$600');
    expect(dataRequests(requestsAtSwitch)).toEqual([]);
  });

  it('made no request outside its own origin and threw no uncaught error', () => {
    expect(foreignRequests(browser.requests, origin)).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
  });
});
