/**
 * The live screens' pure parts: the comparison's URL state (every filter in the URL, defaults left
 * out), the API parameters it means, the default competitors and the live-search selection rules
 * (docs/screens.md: Live comparison, Live search), the comparison's search calls (typed ahead, 5 + 5
 * unified, 10 separate), the RFC 4180 CSV writer, the dashboard KPIs (docs/methodology.md) and axis fitting.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LiveInsurer, LiveServicePricingRecord } from '../../contract/api';
import { csvField, toCsv } from '../../src/live/components/csv';
import { dashboardKpis, fitDomain, topOverpaid } from '../../src/live/components/dashboard-figures';
import { searchProvidersOnly, searchServicesOnly, searchUnified } from '../../src/live/components/LiveSearchPanel';
import {
  DEFAULT_STATE, defaultCompetitors, exportFileName, parseLiveComparison, pricingParams, withChange, writeLiveComparison,
} from '../../src/live/url-state/live-comparison-state';
import { canSearch, parseLiveSearch, withService, writeLiveSearch } from '../../src/live/url-state/live-search-state';

const ins = (id: string, isReference = false): LiveInsurer => ({ id, name: id, group: id, shortName: id, marketShare: 10, isReference });

describe('live comparison URL state', () => {
  it('round-trips every filter and leaves defaults out', () => {
    expect(writeLiveComparison(new URLSearchParams(), DEFAULT_STATE).toString()).toBe('');
    const s = { ...DEFAULT_STATE, page: 2, limit: 100 as const, category: 'Lab' as const, competitors: ['alpha'], professional: false,
      overpayingOnly: false, sort: 'savings' as const, services: ['99213', '85025'], providers: ['1234567893', 'TIN:123456789'], mode: 'separate' as const };
    const url = writeLiveComparison(new URLSearchParams('other=1'), s);
    expect(url.get('other')).toBe('1');
    expect(url.get('page')).toBe('3');
    expect(url.get('class')).toBe('institutional');
    expect(parseLiveComparison(url)).toEqual(s);
  });

  it('falls back to defaults on bad values; an empty competitors key means none', () => {
    const s = parseLiveComparison(new URLSearchParams('page=0&limit=7&category=&sort=x&class=none&competitors='));
    expect([s.page, s.limit, s.category, s.sort, s.professional, s.institutional, s.competitors]).toEqual([0, 50, null, 'overpayment', false, false, []]);
  });

  it('a filter change goes back to page 1; a page change keeps it', () => {
    const on3 = { ...DEFAULT_STATE, page: 2 };
    expect(withChange(on3, { limit: 25 }).page).toBe(0);
    expect(withChange(on3, { category: 'Lab' }).page).toBe(0);
    expect(withChange(on3, { page: 3 }).page).toBe(3);
  });

  it('sends every filter to the API: offset = page x limit', () => {
    const s = { ...DEFAULT_STATE, page: 2, limit: 25 as const, institutional: false, providers: ['1234567893'] };
    expect(pricingParams(s, ['alpha'])).toEqual({
      limit: 25, offset: 50, sort: 'overpayment', only_overpaying: true, billing_class: 'professional', competitors: ['alpha'], providers: ['1234567893'],
    });
    expect(pricingParams({ ...s, professional: false }, [])).toBeNull();
  });

  it('preselects every insurer but the reference; only the first when the reference is missing', () => {
    expect(defaultCompetitors([ins('ref', true), ins('a'), ins('b')])).toEqual(['a', 'b']);
    expect(defaultCompetitors([ins('a'), ins('b')])).toEqual(['a']);
  });

  it('names an export after its filters', () => {
    expect(exportFileName('live-comparison', [['category', 'Office visit'], ['class', null], ['page', '2-of-50']]))
      .toBe('live-comparison_category-office-visit_page-2-of-50.csv');
  });
});

describe('live search state', () => {
  it('a new service clears provider and insurer; Search needs all three', () => {
    const s = { service: '99213', provider: '1234567893', insurer: 'alpha', run: true };
    expect(canSearch(s)).toBe(true);
    expect(withService(s, '70551')).toEqual({ service: '70551', provider: null, insurer: null, run: false });
    expect(withService(s, '99213')).toBe(s);
    expect(canSearch(withService(s, '70551'))).toBe(false);
    expect(parseLiveSearch(writeLiveSearch(new URLSearchParams(), s))).toEqual(s);
  });
});

describe("live comparison's search", () => {
  const service = (i: number) => ({ id: `7055${i}`, name: `MRI ${i}`, billing_code_type: 'CPT', category: 'Radiology' });
  const provider = (i: number) => ({ id: `100000000${i}`, name: `MRI Center ${i}`, npi: `100000000${i}`, state: 'CA' });
  /** Answers services-search and providers with as many items as asked (`limit`) of 12 and 40 matches; records the URLs. */
  function stubWorker(failing: string | null = null): string[] {
    const urls: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      urls.push(url);
      const u = new URL(url, 'http://x');
      const limit = Number(u.searchParams.get('limit'));
      const body = u.pathname === failing ? { message: 'down', error: { code: 'internal', message: 'down' } }
        : u.pathname === '/api/services-search' ? { items: Array.from({ length: limit }, (_, i) => service(i)), total: 12 }
          : { items: Array.from({ length: limit }, (_, i) => provider(i)), total: 40 };
      return new Response(JSON.stringify(body), { status: u.pathname === failing ? 500 : 200, headers: { 'content-type': 'application/json' } });
    });
    return urls;
  }
  afterEach(() => vi.unstubAllGlobals());

  it('types services and providers ahead against the worker: 5 of each in the unified box, services first', async () => {
    const urls = stubWorker();
    const r = await searchUnified('mri');
    expect(urls.sort()).toEqual(['/api/providers?q=mri&limit=5', '/api/services-search?q=mri&limit=5']);
    expect(r.options.map((h) => h.kind)).toEqual([...Array(5).fill('service'), ...Array(5).fill('provider')]);
    expect(r.total).toBe(52);
  });

  it('asks 10 in each separate box, and keeps the other kind when one search fails', async () => {
    const urls = stubWorker();
    expect((await searchServicesOnly('mri')).options).toHaveLength(10);
    expect((await searchProvidersOnly('mri')).total).toBe(40);
    expect(urls).toEqual(['/api/services-search?q=mri&limit=10', '/api/providers?q=mri&limit=10']);
    vi.unstubAllGlobals();
    stubWorker('/api/services-search');
    const r = await searchUnified('mri');
    expect([r.options.length, r.total]).toEqual([5, 40]);
  });
});

describe('CSV (RFC 4180)', () => {
  it('quotes commas, quotes and line breaks, and defuses formulas', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvField(-5)).toBe('-5');
    expect(csvField(null)).toBe('');
    expect(toCsv(['a', 'b'], [[1, 'x,y'], [null, 2.5]])).toBe('a,b\r\n1,"x,y"\r\n,2.5\r\n');
  });
});

describe('dashboard figures', () => {
  const rec = (code: string, variance: number | null, claims: number): LiveServicePricingRecord => ({
    service_code: code, billing_code_type: 'CPT', service_name: code, category: 'Lab', reference_price: 1, competitor_prices: {},
    market_average: 1, reference_variance: variance, overpayment: variance, claims_volume: claims, potential_savings: 0,
    anthem_price: 1, anthem_variance: variance, published_name: null, billing_class: 'professional', component: 'global',
    setting: 'non-facility', medicare_rate: null, reference_medicare_pct: null, competitor_medicare_pct: {}, market_medicare_pct: null,
    reference_providers: 2, competitor_providers: {}, thin: false, thin_reason: null, confidence: 'high', confidence_reasons: [],
  });

  it('computes the three KPIs by docs/methodology.md', () => {
    const k = dashboardKpis([rec('a', 10, 100), rec('b', -20, 300), rec('c', 30, 0), rec('d', null, 50)]);
    // Claims-weighted: (10 x 100 - 20 x 300 + 30 x 0) / 400 = -12.5; top c (30); above market 2 of 3.
    expect(k.averageOverpayment).toBe(-12.5);
    expect(k.top?.service_code).toBe('c');
    expect(k.claimsAboveMarket).toBeCloseTo(200 / 3, 12);
    expect(topOverpaid([rec('a', 10, 0), rec('b', 30, 0), rec('c', null, 0)]).map((r) => r.service_code)).toEqual(['b', 'a']);
  });

  it('fits axes to the data with room at the edges', () => {
    expect(fitDomain([20.69, 13.5, 10], true)).toEqual([0, 25]);
    expect(fitDomain([-8.7, 2.23], false)).toEqual([-10, 5]);
    expect(fitDomain([], true)).toEqual([0, 10]);
    expect(fitDomain([20], true)).toEqual([0, 25]);
  });
});
