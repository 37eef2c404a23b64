/**
 * Helpers of the live screens' end-to-end tests (live-*.e2e.ts, shared-providers.e2e.ts): a server
 * over the live screens' fixture, the /api calls of the page, a table's rows, cells and columns by
 * their visible text, what must be on screen, focus, and sideways page overflow.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, inject } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { startServer, type RunningServer } from '../../scripts/server/index';
import { convertLiveFixture, type LiveVariant } from './live-fixture';

/** DuckDB-WASM boot + first Parquet reads on a 2-core machine, ms. */
export const BOOT = 150_000;

export const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The squashed texts of a table's body rows (the header row left out). */
export const bodyRows = async (table: Locator): Promise<string[]> => (await table.getByRole('row').allInnerTexts()).map(squash).slice(1);

/** Whether `el` has the focus. */
export const focused = (el: Locator): Promise<boolean> => el.evaluate((e) => e === document.activeElement);

/**
 * Records every call of window.fetch as the app wraps it, from the page's next load on: the /api
 * requests are answered in the page by the fetch interceptor (no network request Playwright could
 * see), so an init script wraps whatever function the interceptor assigns to window.fetch. Read
 * them with `apiCalls`; the list starts empty at each load.
 */
export async function recordApiCalls(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const calls: string[] = [];
    (window as unknown as { __apiCalls: string[] }).__apiCalls = calls;
    let current = window.fetch;
    Object.defineProperty(window, 'fetch', {
      configurable: true,
      get: () => current,
      set(fn: typeof fetch) {
        current = (input, init) => {
          calls.push(input instanceof Request ? input.url : String(input));
          return fn(input, init);
        };
      },
    });
  });
}

/**
 * The live dashboard's KPI cards once their figures are there: while they load, the cards stand in
 * their places in an `aria-busy` grid (src/components/dashboard/KpiCards.tsx KpiCardsPending).
 */
export const kpiCards = (page: Page): Locator => page.locator('.card-grid:not([aria-busy="true"])');

/** The /api URLs the page asked since it loaded (query strings included); see recordApiCalls. */
export const apiCalls = (page: Page): Promise<string[]> =>
  page.evaluate(() => ((window as unknown as { __apiCalls?: string[] }).__apiCalls ?? []).filter((u) => u.includes('/api/')));

/**
 * Serves the build at `distDir` over the live screens' fixture (convertLiveFixture). Without a
 * variant it serves the dataset the run's global setup converted once (test/e2e/setup.ts,
 * `inject('liveDataDir')`), which no server changes; a variant is converted here into a temporary
 * directory. `close()` stops the server and deletes that directory.
 */
export async function serveLiveFixture(distDir: string, variant: LiveVariant = {}): Promise<RunningServer> {
  const shared = variant.claims === undefined && variant.groups === undefined ? inject('liveDataDir') : undefined;
  if (shared !== undefined) {
    const server = await startServer({ distDir, dataDir: shared, port: 0, log: () => {} });
    return { url: server.url, close: () => server.close() };
  }
  const root = await mkdtemp(join(tmpdir(), 'compete-live-e2e-'));
  const remove = () => rm(root, { recursive: true, force: true });
  try {
    const server = await startServer({ distDir, dataDir: await convertLiveFixture(root, variant), port: 0, log: () => {} });
    return { url: server.url, close: async () => { await server.close(); await remove(); } };
  } catch (error) {
    await remove();
    throw error;
  }
}

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
