// Every live screen opened from its plain URL is complete from the dataset's first view alone
// (contract/files/first-view.ts, docs/architecture.md, Cold start): here the data worker is refused every
// table (each Parquet read of /data/ aborted), so nothing on screen can come from DuckDB-WASM.
// Once an alert is acknowledged, the dashboard's alerts come from the worker again
// (src/api/ack-probe.ts). Dataset: the live screens' fixture (serveLiveFixture in live-table.ts).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import type { RunningServer } from '../../scripts/server/index';
import { LOADING_SELECTORS, LOADING_TEXT } from '../../bench/screens-probe';
import { launchBrowser, type Browser } from './browser';
import { BOOT, serveLiveFixture } from './live-table';
import { routeUrl, signIn } from './screens-helpers';

let live: RunningServer;
let browser: Browser;
let refused = 0;

const url = (path: string) => routeUrl(live.url, path);

/** The loading indicators left on the page (docs of bench/screens-probe.ts: the benchmark's own list). */
async function loadingLeft(page: Page): Promise<string[]> {
  return page.evaluate(({ selectors, text }) => {
    const left = selectors.filter((s) => document.querySelector(s) !== null);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const pattern = new RegExp(text);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) if (pattern.test((n.textContent ?? '').trim())) left.push((n.textContent ?? '').trim());
    return left;
  }, { selectors: [...LOADING_SELECTORS], text: LOADING_TEXT.source });
}

beforeAll(async () => {
  live = await serveLiveFixture(inject('distDir'));
  browser = await launchBrowser();
  await signIn(browser.page, live.url);
  // the worker's reads of the tables (whole files and range reads alike) fail; the manifest and the first view pass
  await browser.context.route(/\/data\/.*\.parquet(\?|$)/, (route: Route) => {
    refused++;
    return route.abort();
  });
});

afterAll(async () => {
  await browser?.close();
  await live?.close();
});

describe('first view', () => {
  for (const [path, content] of [
    ['/live-dashboard', '.summary-card__value'],
    ['/live-comparison', '.comparison-table tbody tr'],
    ['/live-dashboard?shared_providers=1', '.summary-card__value'],
    ['/live-comparison?shared_providers=1', '.comparison-table tbody tr'],
    ['/data-coverage', '[data-testid="validation-headline"]'],
  ] as const) {
    it(`${path}: complete without a table`, async () => {
      const { page } = browser;
      refused = 0;
      await page.goto(url(path));
      await page.locator(content).first().waitFor({ timeout: BOOT });
      // this page's worker has asked for a table and been refused (its boot fails), and then nothing is left loading
      await expect.poll(() => refused, { timeout: BOOT }).toBeGreaterThan(0);
      await expect.poll(() => loadingLeft(page), { timeout: 10_000 }).toEqual([]);
      // no panel shows the worker's failure (the interceptor's 503: 'Data worker unavailable: ...')
      expect(await page.getByText(/Data worker unavailable/).count()).toBe(0);
    });
  }

  it('leaves the dashboard\'s alerts to the worker once an acknowledgement is stored in the browser', async () => {
    const { page } = browser;
    await page.goto(url('/live-dashboard'));
    await page.getByRole('button', { name: /^Acknowledge/ }).first().waitFor({ timeout: BOOT });
    // an acknowledgement as the worker stores it (workers/acks/ack-store.ts: database compete-alerts, store acknowledgements)
    await page.evaluate(() => new Promise<void>((resolve, reject) => {
      const open = indexedDB.open('compete-alerts', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('acknowledgements', { keyPath: 'id' });
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const tx = open.result.transaction('acknowledgements', 'readwrite');
        tx.objectStore('acknowledgements').put({ id: 'some-alert', by: 'Pat', at: '2026-11-29T10:00:00Z' });
        tx.oncomplete = () => (open.result.close(), resolve());
        tx.onerror = () => reject(tx.error);
      };
    }));
    await page.reload();
    // the figures still come from the first view; the alerts wait for the worker, which has no table
    await page.locator('.summary-card__value').first().waitFor({ timeout: BOOT });
    await page.locator('.live-status.live-error').waitFor({ timeout: BOOT });
    expect(await page.getByRole('button', { name: /^Acknowledge/ }).count()).toBe(0);
  });
});
