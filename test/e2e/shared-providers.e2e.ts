// "At shared providers" (docs/methodology.md, Per comparison unit) on the live comparison and the live
// dashboard in Debian's Chromium, at 1280x800 and 390x844: the switch, `shared_providers=1` in the
// URL and in the /api requests, a reload keeping it, the note near the figures, and the figures.
// Dataset: the live screens' fixture (test/fixtures/live, README has the whole-market figures),
// converted by the real converter with `min_providers: 1` (serveLiveFixture in live-table.ts).
// February, at shared providers (a provider counts where the other side has a rate of the unit):
//   70551 inst: ref NY1 700; alpha NY1 600, gamma NY1 640; beta's only rate is at CA2, where ref has
//     none: no price. Market (600 + 640) / 2 = 620 (whole market 580): +$80, +12.9 %, savings 8,000.
//   85025 prof: ref CA1 10; alpha CA1 12, gamma CA1 13; beta CA2 none: 12.5 -> -2.5, -20 %.
//   99213 and the fillers 20001-20027: every provider is shared, figures as the whole market's
//     (99213 +13.04 %, filler k: k / 2 %).
//   Average Overpayment (1,000 x 13.0435 + 100 x 12.9032 - 500 x 20) / 1,600 = 4,333.80 / 1,600
//     = +2.7 % (whole market +2.2 %); Top Overpaid Service 20027 at +13.5 % (whole market 70551).
//   The /api requests are answered in the page by the fetch interceptor (no network request): an
//   init script records the URLs the app's fetch wrapper is called with.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { RunningServer } from '../../scripts/server/index';
import { launchBrowser, screenshot, type Browser } from './browser';
import { apiCalls, BOOT, kpiCards, pageOverflow, recordApiCalls, serveLiveFixture, squash } from './live-table';
import { VIEWPORTS, routeUrl, signIn } from './screens-helpers';

const HELP = 'Prices only at providers that the reference insurer and at least one competitor both have rates with';

let server: RunningServer;
let browser: Browser;

const url = (path: string) => routeUrl(server.url, path);

/** The text of the elements an element's aria-describedby names. */
const description = (el: Locator): Promise<string> =>
  el.evaluate((e) => (e.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' '));

const sharedParam = (u: string): string | null => new URL(u, 'http://x').searchParams.get('shared_providers');

beforeAll(async () => {
  server = await serveLiveFixture(inject('distDir'));
  browser = await launchBrowser();
  const { page } = browser;
  await recordApiCalls(page);
  await signIn(page, server.url);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('live comparison: At shared providers', () => {
  const row = (page: Page, code: string) => page.getByRole('row').filter({ has: page.getByText(code, { exact: true }) });

  it('switches the prices, the URL and the request, keeps them on reload, and says so, at both widths', async () => {
    const { page } = browser;
    await page.goto(url('live-comparison?services=70551'));
    await row(page, '70551').waitFor({ timeout: BOOT });
    const box = page.getByRole('checkbox', { name: 'At shared providers', exact: true });
    expect(await box.isChecked()).toBe(false);
    expect(await page.locator('label.check', { has: box }).getAttribute('title')).toBe(HELP);
    expect(await description(box)).toBe(HELP);
    expect(await page.getByRole('note').filter({ hasText: 'at shared providers' }).count()).toBe(0);
    // Whole market: 700 vs (600 + 500 + 640) / 3 = 580, +$120.
    expect(squash(await row(page, '70551').innerText())).toContain('Above market: +$120 +20.7% above market 100 $12,000');
    expect((await apiCalls(page)).filter((u) => u.includes('/api/service-pricing')).map(sharedParam)).not.toContain('true');

    await box.click();
    await expect.poll(() => new URL(page.url()).searchParams.get('shared_providers')).toBe('1');
    await expect.poll(async () => squash(await row(page, '70551').innerText()), { timeout: 60_000 })
      .toContain('Above market: +$80 +12.9% above market 100 $8,000');
    const text = squash(await row(page, '70551').innerText());
    expect(text).toMatch(/Alpha \$600 .*Gamma \$640 .*\$620 /);
    expect(text).not.toContain('Beta');
    const calls = (await apiCalls(page)).filter((u) => u.includes('/api/service-pricing'));
    expect(sharedParam(calls.at(-1)!)).toBe('true');
    const note = page.getByRole('note').filter({ hasText: 'Prices at shared providers:' });
    expect(squash(await note.innerText())).toBe(`Prices at shared providers: ${HELP}. How`);
    expect(await page.getByText('1 services shown · 1 match these filters · at shared providers').count()).toBe(1);

    for (const { name, width, height } of VIEWPORTS) {
      await page.setViewportSize({ width, height });
      await page.reload();
      await row(page, '70551').waitFor({ timeout: BOOT });
      await expect.poll(async () => squash(await row(page, '70551').innerText())).toContain('+$80 +12.9%');
      expect(await page.getByRole('checkbox', { name: 'At shared providers', exact: true }).isChecked()).toBe(true);
      expect(await note.isVisible()).toBe(true);
      const switchBox = await page.locator('label.check', { has: box }).boundingBox();
      expect(switchBox && switchBox.x >= 0 && switchBox.x + switchBox.width <= width).toBe(true);
      const asked = (await apiCalls(page)).filter((u) => u.includes('/api/service-pricing')).map(sharedParam);
      expect(asked.length > 0 && asked.every((v) => v === 'true'), asked.join(', ')).toBe(true);
      if (width < 500) expect(await pageOverflow(page), 'nothing wider than the phone outside the table').toBe(0);
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `live-comparison-shared-${name}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('exports a CSV named shared-providers, and traces a price to the rows at shared providers', async () => {
    const { page } = browser;
    await page.goto(url('live-comparison?services=70551&shared_providers=1'));
    await expect.poll(async () => squash(await row(page, '70551').innerText()), { timeout: BOOT }).toContain('+$80');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('live-comparison_services-70551_shared-providers_page-1-of-50.csv');
    const lines = (await readFile((await download.path())!, 'utf8')).trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('beta_price_usd');
    // ref 700; alpha 600, beta none, gamma 640; mean 620; overpayment 80.
    const cells = lines[1]!.split(',');
    const col = (name: string) => cells[lines[0]!.split(',').indexOf(name)];
    expect([col('ref_price_usd'), col('alpha_price_usd'), col('beta_price_usd'), col('gamma_price_usd'), col('selected_avg_usd'), col('overpayment_usd')])
      .toEqual(['700', '600', '', '640', '620', '80']);

    await row(page, '70551').getByRole('button', { name: /^Sources of / }).click();
    const dialog = page.getByRole('dialog', { name: /Rate rows behind the prices/ });
    await dialog.getByText('Alpha Care', { exact: false }).first().waitFor({ timeout: 60_000 });
    expect(squash(await dialog.innerText())).toContain('at shared providers only');
    const medians = (await dialog.getByRole('region', { name: 'Prices and their files' }).getByRole('row').allInnerTexts()).map(squash).slice(1);
    expect(medians.map((r) => r.split(' #')[0])).toEqual(['Reference Health $700 1 1 0', 'Alpha Care $600 1 1 0', 'Gamma Mutual $640 1 1 0']);
    await page.keyboard.press('Escape');
  });
});

describe('live dashboard: At shared providers', () => {
  const cards = kpiCards;

  it('switches every figure but the alerts, keeps it in the URL, and says so, at both widths', async () => {
    const { page } = browser;
    await page.goto(url('live-dashboard'));
    await cards(page).waitFor({ timeout: BOOT });
    const box = page.getByRole('checkbox', { name: 'At shared providers', exact: true });
    expect(await box.isChecked()).toBe(false);
    expect(await page.locator('label.check', { has: box }).getAttribute('title')).toBe(HELP);
    expect(await description(box)).toBe(HELP);
    expect(squash(await cards(page).innerText()).toLowerCase()).toContain('average overpayment +2.2%');

    await box.click();
    await expect.poll(() => new URL(page.url()).searchParams.get('shared_providers')).toBe('1');
    await expect.poll(async () => squash(await cards(page).innerText()).toLowerCase(), { timeout: 60_000 }).toContain('average overpayment +2.7%');
    expect(squash(await cards(page).innerText()).toLowerCase()).toContain('cpt 20027 · professional · global · non-facility · +13.5% against market');
    const note = page.getByRole('note').filter({ hasText: 'Figures at shared providers:' });
    expect(squash(await note.innerText())).toBe(`Figures at shared providers: ${HELP}. The alerts stay over every provider. How`);

    for (const { name, width, height } of VIEWPORTS) {
      await page.setViewportSize({ width, height });
      await page.reload();
      await cards(page).waitFor({ timeout: BOOT });
      expect(squash(await cards(page).innerText()).toLowerCase()).toContain('average overpayment +2.7%');
      expect(await page.getByRole('checkbox', { name: 'At shared providers', exact: true }).isChecked()).toBe(true);
      expect(await note.isVisible()).toBe(true);
      const calls = await apiCalls(page);
      for (const path of ['/api/dashboard-figures', '/api/regional-comparison', '/api/overpayment-trend']) {
        const asked = calls.filter((u) => u.includes(path)).map(sharedParam);
        expect(asked.length, path).toBeGreaterThan(0);
        expect(asked.every((v) => v === 'true'), `${path}: ${asked.join(', ')}`).toBe(true);
      }
      const alerts = calls.filter((u) => u.includes('/api/alerts'));
      expect(alerts.length).toBeGreaterThan(0);
      expect(alerts.map(sharedParam)).not.toContain('true');
      // The panel asks for its first page only, once, never the full list.
      expect(alerts.map((u) => new URL(u, 'http://x')).map((u) => u.pathname + u.search)).toEqual(['/api/alerts-page?offset=0&limit=20']);
      if (width < 500) expect(await pageOverflow(page)).toBe(0);
      await page.getByRole('img', { name: /Overpayment Trend Over Time/ }).waitFor();
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `live-dashboard-shared-${name}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it("opens a state's modal at shared providers, and a bar's comparison with the option on", async () => {
    const { page } = browser;
    // CA: 85025 ref CA1 10 vs (12 + 13) / 2 = 12.5 (beta's CA2 14 is not shared) -> -20.0 %.
    await page.goto(url('live-dashboard?shared_providers=1&state=CA'));
    const dialog = page.getByRole('dialog', { name: 'California (West) - Service Price Comparison' });
    await dialog.getByRole('table').waitFor({ timeout: BOOT });
    expect(await dialog.getByText('Prices at shared providers only.', { exact: false }).count()).toBe(1);
    const r85025 = squash(await dialog.getByRole('row').filter({ has: page.getByText('85025', { exact: true }) }).innerText());
    expect(r85025).toMatch(/\$10 \$13 [-−]20\.0%/);
    expect(sharedParam((await apiCalls(page)).find((u) => u.includes('/api/regional-services'))!)).toBe('true');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('shared_providers')).toBe('1');

    await page.locator('details.live-top-links summary').click();
    const link = page.locator('details.live-top-links a').first();
    expect(await link.getAttribute('href')).toBe('/live-comparison?services=20027&shared_providers=1');
  });
});
