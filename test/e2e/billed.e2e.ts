// "Where we bill it" (docs/methodology.md, Per comparison unit) on the live comparison and the live
// dashboard in Debian's Chromium, at 1280x800 and 390x844: the switch, `billed=1` in the URL and in
// the /api requests, the note, the figures, axe; and the switch disabled, with its reason, on a
// dataset whose claims name no providers. The same dataset names Beta and Gamma products of one company
// ('BG Health', docs/methodology.md, Products): the comparison lists them under it.
// Dataset: the live screens' fixture (test/fixtures/live, README has the whole-market figures) with
// the reference insurer's claims by provider written here: 99213 and 85025 billed at CA1
// (1234567893), 70551 at NY1 (1234567919); the same counts as the fixture's claims.
// February, where we bill it:
//   99213 prof (CA1): ref 120; alpha 100, beta 90, gamma (NY1 only) none -> 95: +$25, +26.3 %, savings 25,000.
//   70551 inst (NY1): ref 700; alpha 600, gamma 640, beta (CA2) none -> 620: +$80, +12.9 %, savings 8,000.
//   85025 prof (CA1): ref 10; alpha 12, gamma 13, beta (CA2) none -> 12.5: -$2.5, -20 %.
//   The fillers 20001-20027 have no claims, so no billing provider: not listed.
//   Average Overpayment (1,000 x 26.3158 + 100 x 12.9032 - 500 x 20) / 1,600 = 17,606.1 / 1,600
//     = +11.0 % (whole market +2.2 %); Top Overpaid Service 99213 at +26.3 %.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { RunningServer } from '../../scripts/server/index';
import { axeViolations } from './axe';
import { launchBrowser, screenshot, type Browser } from './browser';
import { apiCalls, BOOT, kpiCards, pageOverflow, recordApiCalls, serveLiveFixture, squash } from './live-table';
import { VIEWPORTS, routeUrl, signIn } from './screens-helpers';

const HELP = "Prices only at providers with at least one claim of the service in the reference insurer's claims";
const CLAIMS = 'billing_code,claims_count,npi\n99213,1000,1234567893\n70551,100,1234567919\n85025,500,1234567893\n';

let billed: RunningServer;
let plain: RunningServer;
let browser: Browser;

const billedParam = (u: string): string | null => new URL(u, 'http://x').searchParams.get('billed');
const row = (page: Page, code: string) => page.getByRole('row').filter({ has: page.getByText(code, { exact: true }) });

beforeAll(async () => {
  [billed, plain] = await Promise.all([serveLiveFixture(inject('distDir'), { claims: CLAIMS, groups: { beta: 'BG Health', gamma: 'BG Health' } }), serveLiveFixture(inject('distDir'))]);
  browser = await launchBrowser();
  await recordApiCalls(browser.page);
});

afterAll(async () => {
  await browser?.close();
  await billed?.close();
  await plain?.close();
});

describe('live comparison: Where we bill it', () => {
  it('switches the prices, the URL and the request, says so, and axe finds nothing, at both widths', async () => {
    const { page } = browser;
    // the two servers share the host, so the session cookie of the one a test reads is set again
    await signIn(page, billed.url);
    await page.goto(routeUrl(billed.url, 'live-comparison?services=99213,70551'));
    await row(page, '99213').waitFor({ timeout: BOOT });
    const box = page.getByRole('checkbox', { name: 'Where we bill it', exact: true });
    expect(await box.isChecked()).toBe(false);
    expect(await box.isDisabled()).toBe(false);
    expect(await page.locator('label.check', { has: box }).getAttribute('title')).toBe(HELP);
    expect(squash(await row(page, '99213').innerText())).toContain('+$15 +13.0%');

    await box.click();
    await expect.poll(() => new URL(page.url()).searchParams.get('billed')).toBe('1');
    await expect.poll(async () => squash(await row(page, '99213').innerText()), { timeout: 60_000 }).toContain('Above market: +$25 +26.3% above market 1,000 $25,000');
    expect(squash(await row(page, '70551').innerText())).toContain('Above market: +$80 +12.9% above market 100 $8,000');
    expect(squash(await row(page, '99213').innerText())).not.toContain('Gamma');
    const calls = (await apiCalls(page)).filter((u) => u.includes('/api/service-pricing'));
    expect(billedParam(calls.at(-1)!)).toBe('true');
    const note = page.getByRole('note').filter({ hasText: 'Prices where we bill it:' });
    expect(squash(await note.innerText())).toBe(`Prices where we bill it: ${HELP}. How`);

    for (const { name, width, height } of VIEWPORTS) {
      await page.setViewportSize({ width, height });
      await page.reload();
      await expect.poll(async () => squash(await row(page, '99213').innerText()), { timeout: BOOT }).toContain('+$25 +26.3%');
      expect(await page.getByRole('checkbox', { name: 'Where we bill it', exact: true }).isChecked()).toBe(true);
      expect(await note.isVisible()).toBe(true);
      if (width < 500) expect(await pageOverflow(page)).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `live-comparison-billed-${name}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // the rate rows behind the reference price: CA1's row only
    await row(page, '99213').getByRole('button', { name: /^Sources of / }).click();
    const dialog = page.getByRole('dialog', { name: /Rate rows behind the prices/ });
    await dialog.getByText('Reference Health', { exact: false }).first().waitFor({ timeout: 60_000 });
    expect(squash(await dialog.innerText())).toContain('where we bill it only');
    const medians = (await dialog.getByRole('region', { name: 'Prices and their files' }).getByRole('row').allInnerTexts()).map(squash).slice(1);
    expect(medians.map((r) => r.split(' #')[0])).toEqual(['Reference Health $120 1 1 0', 'Alpha Care $100 1 1 0', 'BG Health · Beta Health Plan $90 1 1 0']);
    await page.keyboard.press('Escape');
  });

  it('is disabled, with its reason, when the claims name no providers', async () => {
    const { page } = browser;
    await signIn(page, plain.url);
    // asked in the URL, the option stays off: the prices are the whole market's, and no request carries it
    await page.goto(routeUrl(plain.url, 'live-comparison?billed=1&services=99213'));
    await expect.poll(async () => squash(await row(page, '99213').innerText()), { timeout: BOOT }).toContain('+$15 +13.0%');
    expect((await apiCalls(page)).filter((u) => u.includes('/api/service-pricing')).map(billedParam)).not.toContain('true');
    expect(await page.getByRole('note').filter({ hasText: 'where we bill it' }).count()).toBe(0);
    const box = page.getByRole('checkbox', { name: 'Where we bill it', exact: true });
    await expect.poll(() => box.isDisabled(), { timeout: BOOT }).toBe(true);
    const label = page.locator('label.check', { has: box });
    expect(await label.getAttribute('title')).toContain('Unavailable: the claims input names no providers (no npi or tin column)');
    expect(await page.locator('.live-shared-switch__reason').innerText()).toBe('(needs claims by provider)');
    expect(await box.evaluate((e) => document.getElementById(e.getAttribute('aria-describedby') ?? '')?.textContent ?? ''))
      .toContain('Unavailable: the claims input names no providers');
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe('Data Coverage where we bill it', () => {
  it("shows each product's share of valid rates at billing providers, and names products under their company", async () => {
    const { page } = browser;
    await signIn(page, billed.url);
    await page.goto(routeUrl(billed.url, 'data-coverage'));
    const table = page.getByRole('table', { name: 'Coverage per insurer and snapshot' });
    await table.waitFor({ timeout: BOOT });
    const header = (await table.locator('thead th').allInnerTexts()).map(squash);
    expect(header.at(-1)).toBe('AT BILLING PROVIDERS');
    const cells = async (name: string): Promise<string[]> => (await table.getByRole('row').filter({ hasText: name }).allInnerTexts()).map(squash);
    // February: the reference's valid rates are 99213 at CA1 and NY1, 70551 at NY1, 85025 at CA1 and the 27 fillers at CA1 (31);
    // at billing providers 99213 at CA1, 70551 at NY1 and 85025 at CA1 (3): 9.7 %. January: 99213 at CA1 and NY1, billed at CA1: 50 %.
    expect(await cells('Reference Health')).toEqual([expect.stringMatching(/2025-01 .* 50\.0%$/), expect.stringMatching(/2025-02 .* 9\.7%$/)]);
    expect(await cells('BG Health · Beta Health Plan')).toHaveLength(2);
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe('products under their company', () => {
  it("lists a company's products together under its name, each with its full name as tooltip, at both widths", async () => {
    const { page } = browser;
    await signIn(page, billed.url);
    await page.goto(routeUrl(billed.url, 'live-comparison'));
    const group = page.getByRole('group', { name: 'BG Health' });
    await group.waitFor({ timeout: BOOT });
    expect(await group.getByRole('checkbox').count()).toBe(2);
    expect(await group.locator('label.check span[title]').evaluateAll((els) => els.map((e) => e.getAttribute('title'))))
      .toEqual(['BG Health · Beta Health Plan', 'BG Health · Gamma Mutual']);
    expect(await page.getByRole('group', { name: 'Compare against' }).getByRole('checkbox').count()).toBe(3);
    // unchecking one product of the group changes only that competitor
    await group.getByRole('checkbox').first().click();
    await expect.poll(() => new URL(page.url()).searchParams.get('competitors')).toBe('alpha,gamma');
    for (const { name, width, height } of VIEWPORTS) {
      await page.setViewportSize({ width, height });
      await group.waitFor();
      // the results fade while a new selection loads: axe reads them once it is in
      await page.locator('.lc-results[aria-busy="false"]').waitFor({ timeout: BOOT });
      if (width < 500) expect(await pageOverflow(page)).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await group.scrollIntoViewIfNeeded();
      await screenshot(page, `live-comparison-products-${name}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});

describe('live dashboard: Where we bill it', () => {
  it('switches every figure but the alerts, keeps it in the URL, and axe finds nothing, at both widths', async () => {
    const { page } = browser;
    await signIn(page, billed.url);
    await page.goto(routeUrl(billed.url, 'live-dashboard'));
    await kpiCards(page).waitFor({ timeout: BOOT });
    expect(squash(await kpiCards(page).innerText()).toLowerCase()).toContain('average overpayment +2.2%');
    await page.getByRole('checkbox', { name: 'Where we bill it', exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('billed')).toBe('1');
    await expect.poll(async () => squash(await kpiCards(page).innerText()).toLowerCase(), { timeout: 60_000 }).toContain('average overpayment +11.0%');
    expect(squash(await kpiCards(page).innerText()).toLowerCase()).toContain('cpt 99213 · professional · global · non-facility · +26.3% against market');
    for (const { name, width, height } of VIEWPORTS) {
      await page.setViewportSize({ width, height });
      await page.reload();
      await expect.poll(async () => squash(await kpiCards(page).innerText()).toLowerCase(), { timeout: BOOT }).toContain('average overpayment +11.0%');
      const calls = await apiCalls(page);
      for (const path of ['/api/dashboard-figures', '/api/regional-comparison', '/api/overpayment-trend']) {
        const asked = calls.filter((u) => u.includes(path)).map(billedParam);
        expect(asked.length > 0 && asked.every((v) => v === 'true'), `${path}: ${asked.join(', ')}`).toBe(true);
      }
      expect(calls.filter((u) => u.includes('/api/alerts')).map(billedParam)).not.toContain('true');
      if (width < 500) expect(await pageOverflow(page)).toBe(0);
      await page.getByRole('img', { name: /Overpayment Trend Over Time/ }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `live-dashboard-billed-${name}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.locator('details.live-top-links summary').click();
    expect(await page.locator('details.live-top-links a').first().getAttribute('href')).toBe('/live-comparison?services=99213&billed=1');
  });
});
