// The live comparison on the embedded sample itself (scripts/generate/shapes.ts `sample`: what
// `npm start` serves), in Debian's Chromium at 1280x800 and 390x844: the switches 'At shared
// providers' and 'Where we bill it' (the sample's claims name their billing providers), each unit's
// confidence badge and price strip with its market band, and axe.
// Figures: 64483 (lumbar epidural injection), professional, global, facility, Anthem against Aetna
// alone. Aetna posts ghost rates on it at practices that do no surgery (scripts/generate/ghost-rates.ts):
//   whole market: Aetna's median $281.83 over 26 providers, Anthem's $503.86 (468 % of Medicare);
//     the market band (p25-p75 of Aetna's 26 provider medians) $275.19 to $439.74, shown $275 to $440;
//   where we bill it: Aetna's $564.21 over the 5 providers with claims of 64483, Anthem's $505.33;
//     the band $439.74 to $634.74, shown $440 to $635.
// The two medians were recomputed by hand from the generated JSON; the bands are the worker's
// (workers/api/market-band.ts), whose SQL confidence-rates.test.ts checks against hand figures.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startServer, type RunningServer } from '../../scripts/server/index';
import { sharedShape } from '../datasets-once';
import { axeViolations } from './axe';
import { launchBrowser, screenshot, type Browser } from './browser';
import { BOOT, pageOverflow, squash } from './live-table';
import { VIEWPORTS, routeUrl, signIn } from './screens-helpers';

let root: string;
let server: RunningServer;
let browser: Browser;

/** The row of 64483's professional facility unit. */
const unitRow = (page: Page) => page.getByRole('row')
  .filter({ has: page.getByText('64483', { exact: true }) })
  .filter({ has: page.getByRole('group', { name: 'Unit: Professional · Global · Facility' }) });

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'compete-sample-e2e-'));
  const dataDir = join(root, 'dataset');
  await sharedShape('sample', dataDir);
  server = await startServer({ distDir: inject('distDir'), dataDir, port: 0, log: () => {} });
  browser = await launchBrowser();
  await signIn(browser.page, server.url);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('live comparison on the embedded sample', () => {
  it('shows the switches, the badges and the strips with their bands, and axe finds nothing, at both widths', async () => {
    const { page } = browser;
    await page.goto(routeUrl(server.url, 'live-comparison'));
    const rows = page.getByRole('table').getByRole('row').filter({ hasNot: page.getByRole('columnheader') });
    await rows.first().waitFor({ timeout: BOOT });
    for (const name of ['At shared providers', 'Where we bill it']) {
      const box = page.getByRole('checkbox', { name, exact: true });
      expect(await box.isChecked(), name).toBe(false);
      expect(await box.isDisabled(), name).toBe(false);
    }
    // every row of the first page has its badge and its strip, and the strips get their bands
    const count = await rows.count();
    expect(count).toBeGreaterThan(10);
    expect(await page.getByRole('table').getByRole('note', { name: /^(High|Medium|Low) confidence/ }).count()).toBe(count);
    expect(await page.getByRole('table').locator('.price-strip[role="img"]').count()).toBe(count);
    await expect.poll(() => page.getByRole('table').locator('.price-strip svg rect').count(), { timeout: 60_000 }).toBeGreaterThan(0);

    for (const { name, width, height } of VIEWPORTS) {
      await page.setViewportSize({ width, height });
      await page.reload();
      await rows.first().waitFor({ timeout: BOOT });
      await expect.poll(() => page.getByRole('table').locator('.price-strip svg rect').count(), { timeout: 60_000 }).toBeGreaterThan(0);
      if (width < 500) expect(await pageOverflow(page)).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `sample-live-comparison-${name}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it("prices 64483 with its badge and band over the whole market, then where we bill it", async () => {
    const { page } = browser;
    await page.goto(routeUrl(server.url, 'live-comparison?services=64483&competitors=aetna&overpaying=0'));
    await unitRow(page).waitFor({ timeout: BOOT });
    const text = squash(await unitRow(page).innerText());
    // the table rounds to the dollar
    expect(text).toContain('Medium confidence $504 467.8% of Medicare Aetna $282 261.7% of Medicare');
    const reasons = "Medium confidence: 468 % of Medicare (Anthem Blue Cross); providers' prices spread 2.1x (p90 / p10) (Aetna)";
    expect(await unitRow(page).getByRole('note', { name: reasons }).count()).toBe(1);
    const strip = unitRow(page).locator('.price-strip');
    await expect.poll(() => strip.getAttribute('aria-label'), { timeout: 60_000 }).toMatch(/market band \$275 to \$440/);

    await page.getByRole('checkbox', { name: 'Where we bill it', exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('billed')).toBe('1');
    await expect.poll(async () => squash(await unitRow(page).innerText()), { timeout: 60_000 }).toContain('$505 ');
    expect(squash(await unitRow(page).innerText())).toContain('Aetna $564 ');
    await expect.poll(() => strip.getAttribute('aria-label'), { timeout: 60_000 }).toMatch(/market band \$440 to \$635/);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'sample-live-comparison-billed-64483');
  });
});
