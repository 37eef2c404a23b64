// A comparison unit's confidence on the live comparison (docs/methodology.md, Confidence and
// distribution) in Debian's Chromium, at 1280x800 and 390x844: the badge and its reasons, the
// 'Minimum confidence' filter in the URL and in the /api request, the units it hides leaving the
// table and the summary cards, each row's price strip with the market band, the CSV columns, and axe.
// Dataset: the live screens' fixture (test/fixtures/live, README), Alpha Care alone selected
// (`competitors=alpha`). Every price rests on 1 or 2 providers, so no price is high; the % of Medicare
// of each lies within 75-400 % (99213: 130 and 105 against $88.95; 70551: 700 and 600 against $241.72):
//   99213 prof: Reference Health CA1 120, NY1 140 (2 providers), Alpha Care CA1 100, NY1 110 (2): medium,
//     'rests on 2 providers (Reference Health, Alpha Care)'; 130 vs 105 = +$25, +23.8 %, savings 25,000.
//   70551 inst: NY1 700 and NY1 600, 1 provider each: low, 'rests on 1 provider (Reference Health, Alpha Care)'.
//   85025 and the fillers 20001-20027: one provider each side: low.
// With min_confidence=medium only 99213 is left: cards $25,000, +23.8 %, 1 / 1; with high, none.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { RunningServer } from '../../scripts/server/index';
import { axeViolations } from './axe';
import { launchBrowser, screenshot, type Browser } from './browser';
import { apiCalls, BOOT, pageOverflow, recordApiCalls, serveLiveFixture, squash } from './live-table';
import { VIEWPORTS, routeUrl, signIn } from './screens-helpers';

let server: RunningServer;
let browser: Browser;

const row = (page: Page, code: string) => page.getByRole('row').filter({ has: page.getByText(code, { exact: true }) });
const bodyRows = (page: Page) => page.getByRole('table').getByRole('row').filter({ hasNot: page.getByRole('columnheader') });

beforeAll(async () => {
  server = await serveLiveFixture(inject('distDir'));
  browser = await launchBrowser();
  await recordApiCalls(browser.page);
  await signIn(browser.page, server.url);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("live comparison: a unit's confidence", () => {
  it('shows each unit with its badge, its reasons and its price strip', async () => {
    const { page } = browser;
    await page.goto(routeUrl(server.url, 'live-comparison?competitors=alpha&overpaying=0'));
    await row(page, '99213').waitFor({ timeout: BOOT });
    const medium = row(page, '99213').getByRole('note', { name: 'Medium confidence: rests on 2 providers (Reference Health, Alpha Care)' });
    expect(await medium.innerText()).toBe('Medium confidence');
    expect(await medium.getAttribute('title')).toBe('Medium confidence: rests on 2 providers (Reference Health, Alpha Care)');
    expect(await row(page, '70551').getByRole('note', { name: 'Low confidence: rests on 1 provider (Reference Health, Alpha Care)' }).count()).toBe(1);
    // the strip: Alpha's median as a dot, the reference price as a mark, then the market band (Alpha's provider
    // medians 100 and 110: p25 102.5, p75 107.5) once GET /api/market-band answers, said in words
    const strip = row(page, '99213').locator('.price-strip');
    await expect.poll(() => strip.getAttribute('aria-label'), { timeout: 60_000 })
      .toBe('one competitor median, $105; market band $103 to $108; Reference price $130, above them all');
    expect(await strip.getAttribute('role')).toBe('img');
    // drawn in a coming slice of the page's tasks (src/charts/draw-queue.ts)
    await expect.poll(() => strip.locator('svg rect').count(), { timeout: 10_000 }).toBe(1);
    expect(await strip.locator('svg circle').count()).toBe(1);
    // 85025: 10 against Alpha's 12 at one provider
    expect(await row(page, '85025').locator('.price-strip').getAttribute('aria-label'))
      .toBe('one competitor median, $12; market band $12 to $12; Reference price $10, below them all');
    const bands = (await apiCalls(page)).filter((u) => u.includes('/api/market-band'));
    expect(new URL(bands.at(-1)!, 'http://x').searchParams.get('competitors')).toBe('alpha');
  });

  it("'Minimum confidence' hides the units under it from the table and the cards, in the URL and the request, at both widths", async () => {
    const { page } = browser;
    await page.goto(routeUrl(server.url, 'live-comparison?competitors=alpha'));
    await row(page, '70551').waitFor({ timeout: BOOT });
    const select = page.getByRole('combobox', { name: 'Minimum confidence' });
    expect(await select.inputValue()).toBe('');
    await select.selectOption('medium');
    await expect.poll(() => new URL(page.url()).searchParams.get('min_confidence')).toBe('medium');
    await expect.poll(async () => (await bodyRows(page).allInnerTexts()).length, { timeout: 60_000 }).toBe(1);
    expect(squash(await row(page, '99213').innerText())).toContain('+$25 +23.8%');
    for (const text of ['$25,000', '+23.8%', '1 / 1']) expect(await page.getByText(text, { exact: true }).count(), text).toBeGreaterThan(0);
    const calls = (await apiCalls(page)).filter((u) => u.includes('/api/service-pricing'));
    expect(new URL(calls.at(-1)!, 'http://x').searchParams.get('min_confidence')).toBe('medium');

    for (const { name, width, height } of VIEWPORTS) {
      await page.setViewportSize({ width, height });
      await page.reload();
      await row(page, '99213').waitFor({ timeout: BOOT });
      expect(await page.getByRole('combobox', { name: 'Minimum confidence' }).inputValue()).toBe('medium');
      expect(await row(page, '99213').getByRole('note', { name: /^Medium confidence/ }).isVisible()).toBe(true);
      if (width < 500) expect(await pageOverflow(page)).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `live-comparison-confidence-${name}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('combobox', { name: 'Minimum confidence' }).selectOption('high');
    await expect.poll(() => new URL(page.url()).searchParams.get('min_confidence')).toBe('high');
    await expect.poll(async () => page.getByText('0 / 0', { exact: true }).count(), { timeout: 60_000 }).toBeGreaterThan(0);
    await page.getByRole('combobox', { name: 'Minimum confidence' }).selectOption('');
    await expect.poll(() => new URL(page.url()).searchParams.has('min_confidence')).toBe(false);
    await row(page, '70551').waitFor({ timeout: 60_000 });
  });

  it('exports each unit with its confidence and reasons', async () => {
    const { page } = browser;
    await page.goto(routeUrl(server.url, 'live-comparison?competitors=alpha&services=99213,70551&overpaying=0'));
    await row(page, '70551').waitFor({ timeout: BOOT });
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const lines = (await readFile((await download.path())!, 'utf8')).trimEnd().split('\r\n');
    expect(lines[0]!.endsWith(',thin,thin_reason,confidence,confidence_reasons')).toBe(true);
    expect(lines.slice(1).map((l) => l.replace(/^([^,]+),.*,(low|medium|high),("[^"]*"|[^,]*)$/, '$1 $2 $3')).sort()).toEqual([
      '70551 low "rests on 1 provider (Reference Health, Alpha Care)"',
      '99213 medium "rests on 2 providers (Reference Health, Alpha Care)"',
    ]);
  });
});
