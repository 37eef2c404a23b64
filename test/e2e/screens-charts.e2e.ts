// The chart functions of src/charts as SVG snapshots (docs/architecture.md: pure functions rows -> SVG,
// tested as snapshots with a pinned time zone). No DOM implementation is installed for Node, so
// they run in Debian's Chromium: Vite bundles src/charts/index.ts as a script, a blank page loads
// it, and each chart's markup is compared with test/e2e/__snapshots__/charts/*.svg.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'vite';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../scripts/server/build-app';
import { OVERPAYMENT_TREND } from '../../src/sample/data/dashboard';
import { topOverpaid } from '../../src/sample/data/dashboard-kpis';
import { AVAILABILITY_TREND, COMMON_SERVICE_COUNTS } from '../../src/sample/data/old-dashboard';
import { SAMPLE_SERVICES } from '../../src/sample/data/services';
import { launchBrowser, type Browser } from './browser';

// Chromium, launched below, inherits the pinned time zone; the files after this one (one module
// graph, vitest.e2e.config.ts) get the machine's back.
const machineTz = process.env.TZ;
process.env.TZ = 'UTC';

let browser: Browser;
let bundle = '';

/** Bundles src/charts (with Plot and contract/rules/format) into one IIFE exposing `CompeteCharts`. */
async function chartsBundle(): Promise<string> {
  const out = await build({
    configFile: false,
    logLevel: 'silent',
    root: PROJECT_ROOT,
    build: {
      write: false,
      minify: false,
      lib: { entry: join(PROJECT_ROOT, 'src/charts/index.ts'), formats: ['iife'], name: 'CompeteCharts', fileName: 'charts' },
    },
  });
  const outputs = (Array.isArray(out) ? out : [out]) as Array<{ output?: Array<{ type: string; code?: string }> }>;
  const chunk = outputs.flatMap((o) => o.output ?? []).find((c) => c.type === 'chunk');
  if (!chunk?.code) throw new Error('vite build produced no chunk for src/charts');
  return chunk.code;
}

beforeAll(async () => {
  [bundle, browser] = await Promise.all([chartsBundle(), launchBrowser()]);
  await browser.page.setContent('<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>');
  await browser.page.addScriptTag({ content: bundle });
});
afterAll(async () => {
  await browser?.close();
  if (machineTz === undefined) delete process.env.TZ;
  else process.env.TZ = machineTz;
});

type ChartName = 'topOverpaidChart' | 'overpaymentTrendChart' | 'commonServicesChart' | 'availabilityTrendChart';

/** Renders one chart in the page at `width` and returns its outer SVG markup. */
async function render(name: ChartName, rows: unknown[], width: number): Promise<string> {
  return browser.page.evaluate(({ name, rows, width }) => {
    const charts = (window as unknown as { CompeteCharts: Record<string, (r: unknown[], o: { width: number }) => Element> }).CompeteCharts;
    const node = charts[name]!(rows, { width });
    document.body.replaceChildren(node);
    return node.outerHTML;
  }, { name, rows, width });
}

const TOP10 = topOverpaid(SAMPLE_SERVICES).map((s) => ({ serviceName: s.serviceName, serviceCode: s.serviceCode, variance: s.anthemVariance }));

describe('chart functions in Chromium', () => {
  it('runs with the time zone pinned to UTC', async () => {
    expect(await browser.page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('UTC');
  });

  it('Top 10 Overpaid Services: 10 bars on a 0-30 % axis', async () => {
    const svg = await render('topOverpaidChart', TOP10, 640);
    expect(svg.match(/<rect /g)?.length).toBe(10);
    expect(svg).toContain('>0%<');
    expect(svg).toContain('>30%<');
    await expect(svg).toMatchFileSnapshot('__snapshots__/charts/top-overpaid-640.svg');
    // A phone's width shows names only (no code prefix).
    const narrow = await render('topOverpaidChart', TOP10, 340);
    expect(narrow).not.toContain(`>${TOP10[0]!.serviceCode} `);
    await expect(narrow).toMatchFileSnapshot('__snapshots__/charts/top-overpaid-340.svg');
  });

  it('Overpayment Trend: the months in the given order on an 8-20 % axis', async () => {
    const svg = await render('overpaymentTrendChart', [...OVERPAYMENT_TREND], 560);
    const months = [...svg.matchAll(/<text[^>]*>(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dez)<\/text>/g)].map((m) => m[1]);
    expect(months).toEqual(['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Sep', 'Oct', 'Nov', 'Dez']);
    expect(svg).toContain('>8%<');
    expect(svg).toContain('>20%<');
    await expect(svg).toMatchFileSnapshot('__snapshots__/charts/overpayment-trend-560.svg');
  });

  it('old dashboard charts', async () => {
    const common = await render('commonServicesChart', [...COMMON_SERVICE_COUNTS], 560);
    expect(common.match(/<rect /g)?.length).toBe(COMMON_SERVICE_COUNTS.length);
    await expect(common).toMatchFileSnapshot('__snapshots__/charts/common-services-560.svg');
    const availability = await render('availabilityTrendChart', [...AVAILABILITY_TREND], 560);
    expect(availability).toContain('>Jul 2022<');
    expect(availability).toContain('>Jan 2024<');
    await expect(availability).toMatchFileSnapshot('__snapshots__/charts/availability-trend-560.svg');
  });
});
