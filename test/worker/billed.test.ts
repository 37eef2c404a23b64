/**
 * "Where we bill it" (docs/methodology.md, Per comparison unit) end to end: the fixture of
 * test/fixtures/api converted by the real converter with the claims below, written here by hand
 * with `npi` and `tin` columns, then `billed=1` (and with `shared_providers=1`) on the /api. Every
 * expected figure is worked out by hand from the fixture's MRFs (shared-providers.test.ts lists
 * their rates).
 *
 * Providers: A = 1111111112 (CA, TIN 11-1111111), B = 2222222228 (CA), C = 3333333334 (NY),
 * D = 4444444440 (NY, TIN 44-4444444), T = TIN:123456789 (a group without an NPI, TIN 12-3456789).
 * Billing providers from the claims: 99213 professional: A (by NPI) and D (by its TIN); 70450
 * institutional: A (C's row has 0 claims: no claim, not a billing provider); G0008 professional: T
 * (by TIN); 80053 professional: B. Ghost rates: the reference's 99213 at B (120) and C (140), alpha's
 * at C (110), 70450 at B and C, 99283 at C: providers that bill nothing of the code.
 *
 * At M = 2025-02 (ref 2025-02, alpha 2025-02, beta 2025-01):
 *   99213 prof  whole market: ref 120 [3], alpha 100 [2], beta 130 [1], market average 115
 *               where we bill it: ref A 100 [1], alpha A 90 [1], beta D 130 [1], market average 110
 *               both options: ref A 100 [1] (alpha at A), alpha 90 [1]; beta at D: the reference has
 *               no 99213 professional row at D (its D row is a `both` unit) -> market average 90
 *   99213 both  billed: ref D 90 [1] (a `both` unit takes a billing provider of either class)
 *   70450 inst  billed: ref A 500 [1], alpha A 400 [1], beta (C) none -> market average 400
 *   G0008 prof  billed: ref T 25 [1]; alpha (A) and beta (B) do not bill it -> no competitor price
 *   80053 prof  billed: ref B 30 [1] (the two identical rows count once)
 *   99283 prof  alpha at C only: no billed price
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApiErrorBody, LiveServicePricingRecord, RateRowsResult, RegionalServiceRow, ServicePricingResult } from '../../contract/api';
import { BILLED_UNAVAILABLE, type DatasetManifest } from '../../contract/files/dataset';
import { bootStrictAndLoose, byUnit, convertFixture, okBody, unitName, type BootedFixture } from './fixture-dataset';

const A = '1111111112';

/** The reference insurer's claims by provider (see the module comment). */
const CLAIMS = [
  'billing_code,claims_count,state,billing_class,npi,tin',
  `99213,50,CA,professional,${A},`,
  '99213,10,CA,professional,,',
  '99213,40,NY,professional,,44-4444444',
  `70450,10,CA,institutional,${A},`,
  '70450,0,NY,institutional,3333333334,',
  '80053,5,NY,professional,2222222228,',
  'G0008,20,CA,professional,,12-3456789',
].join('\n');

const fx = bootStrictAndLoose({ claims: CLAIMS });
const plain = bootStrictAndLoose();

const pricing = (query: Record<string, string>, at: BootedFixture = fx.loose) =>
  okBody<ServicePricingResult>(at, '/api/service-pricing', { only_overpaying: 'false', ...query });
const unit = unitName;
const figures = (x: LiveServicePricingRecord) => ({
  reference_price: x.reference_price, reference_providers: x.reference_providers, competitor_prices: x.competitor_prices,
  competitor_providers: x.competitor_providers, market_average: x.market_average,
});

describe('service-pricing where we bill it', () => {
  it('takes every price at billing providers only: the ghost rates leave the medians and the market average moves', async () => {
    const market = await pricing({});
    const billed = await pricing({ billed: '1' });
    expect(figures(byUnit(market, '99213 professional'))).toEqual({
      reference_price: 120, reference_providers: 3, competitor_prices: { alpha: 100, beta: 130 },
      competitor_providers: { alpha: 2, beta: 1 }, market_average: 115,
    });
    const visit = byUnit(billed, '99213 professional');
    expect(figures(visit)).toEqual({
      reference_price: 100, reference_providers: 1, competitor_prices: { alpha: 90, beta: 130 },
      competitor_providers: { alpha: 1, beta: 1 }, market_average: 110,
    });
    expect(visit.reference_variance).toBeCloseTo((100 * (100 - 110)) / 110, 10);
    expect(visit).toMatchObject({ overpayment: -10, potential_savings: 0, claims_volume: 100 });

    expect(figures(byUnit(billed, '70450 institutional'))).toEqual({
      reference_price: 500, reference_providers: 1, competitor_prices: { alpha: 400 }, competitor_providers: { alpha: 1 }, market_average: 400,
    });
    expect(byUnit(billed, '70450 institutional')).toMatchObject({ overpayment: 100, reference_variance: 25, claims_volume: 10, potential_savings: 1000 });
    expect(figures(byUnit(billed, '99213 both'))).toMatchObject({ reference_price: 90, reference_providers: 1, market_average: null });
    expect(figures(byUnit(billed, 'G0008 professional'))).toMatchObject({ reference_price: 25, competitor_prices: {}, market_average: null });
    expect(figures(byUnit(billed, '80053 professional'))).toMatchObject({ reference_price: 30, reference_providers: 1 });
    expect(billed.records.map(unit)).not.toContain('99283 professional');

    // the summary cards over the billed prices (min_providers 1): 99213 -9.09 % (100 claims), 70450 +25 % (10 claims)
    expect(billed.summary).toMatchObject({ services_total: 2, services_overpaying: 1, total_potential_savings: 1000 });
    expect(billed.summary.avg_overpayment).toBeCloseTo(((100 * -10) / 110 * 100 + 25 * 10) / 110, 10);
  });

  it('with shared providers too, keeps the providers that are both', async () => {
    const both = await pricing({ billed: '1', shared_providers: '1' });
    expect(both.records.map(unit).sort()).toEqual(['70450 institutional', '99213 professional']);
    expect(figures(byUnit(both, '99213 professional'))).toEqual({
      reference_price: 100, reference_providers: 1, competitor_prices: { alpha: 90 }, competitor_providers: { alpha: 1 }, market_average: 90,
    });
    expect(figures(byUnit(both, '70450 institutional'))).toEqual({
      reference_price: 500, reference_providers: 1, competitor_prices: { alpha: 400 }, competitor_providers: { alpha: 1 }, market_average: 400,
    });
  });

  it('matches within a state, and over a provider selection from the rate rows', async () => {
    const ca = await pricing({ billed: '1', state: 'CA' });
    // CA: A and B; beta's D is in NY
    expect(figures(byUnit(ca, '99213 professional'))).toEqual({
      reference_price: 100, reference_providers: 1, competitor_prices: { alpha: 90 }, competitor_providers: { alpha: 1 }, market_average: 90,
    });
    const selected = await pricing({ billed: '1', providers: `${A},2222222228` });
    expect(figures(byUnit(selected, '99213 professional'))).toEqual({
      reference_price: 100, reference_providers: 1, competitor_prices: { alpha: 90 }, competitor_providers: { alpha: 1 }, market_average: 90,
    });
    expect(figures(byUnit(selected, '80053 professional'))).toMatchObject({ reference_price: 30, reference_providers: 1 });
  });

  it('leaves thin what rests on one provider (min_providers 2), and the figures of the other options unchanged', async () => {
    const strict = await pricing({ billed: '1' }, fx.strict);
    expect(byUnit(strict, '99213 professional').thin).toBe(true);
    expect(strict.summary.services_total).toBe(0);
    // the provider columns add detail only: every figure without the option is the plain fixture's
    for (const q of [{}, { shared_providers: '1' }] as Array<Record<string, string>>) {
      const withProviders = await pricing(q, fx.strict);
      const without = await pricing(q, plain.strict);
      expect(withProviders.records.map(figures)).toEqual(without.records.map(figures));
    }
  });
});

describe('the other endpoints where we bill it', () => {
  it('rate rows: only the rows at billing providers', async () => {
    const rows = await okBody<RateRowsResult>(fx.loose, '/api/rate-rows', {
      service_id: '99213', insurer_id: 'ref', billing_class: 'professional', component: 'global', setting: 'non-facility', billed: '1',
    });
    expect(rows).toMatchObject({ billed: true, median: 100, rate_count: 1, provider_count: 1 });
    expect(rows.rows.map((r) => [r.provider_id, r.negotiated_rate])).toEqual([[A, 100]]);
    const all = await okBody<RateRowsResult>(fx.loose, '/api/rate-rows', {
      service_id: '99213', insurer_id: 'ref', billing_class: 'professional', component: 'global', setting: 'non-facility',
    });
    expect(all).toMatchObject({ billed: false, median: 120, rate_count: 3 });
    const g = await okBody<RateRowsResult>(fx.loose, '/api/rate-rows', { service_id: 'G0008', insurer_id: 'ref', billed: '1' });
    expect(g.rows.map((r) => r.provider_id)).toEqual(['TIN:123456789']);
  });

  it("the dashboard's state rows and its trend", async () => {
    const ca = await okBody<RegionalServiceRow[]>(fx.loose, '/api/regional-services', { state: 'CA', billed: '1' });
    const visit = ca.find((r) => r.service_code === '99213' && r.billing_class === 'professional');
    expect(visit).toMatchObject({ your_price: 100, market_avg: 90 });
    const trend = await okBody<Array<{ month: string; value: number }>>(fx.loose, '/api/overpayment-trend', { billed: '1' });
    const feb = trend.find((t) => t.month === '2025-02');
    expect(feb?.value).toBeCloseTo(((100 * -10) / 110 * 100 + 25 * 10) / 110, 10);
    const figures2 = await okBody<{ kpis: { withVariance: number } }>(fx.loose, '/api/dashboard-figures', { billed: '1' });
    expect(figures2.kpis.withVariance).toBe(2);
  });

  it('refuses billed=1 when the claims name no providers, with the reason', async () => {
    const res = await plain.strict.get('/api/service-pricing', { billed: '1' });
    expect(res.status).toBe(400);
    expect((res.body as ApiErrorBody).message).toBe(`billed: ${BILLED_UNAVAILABLE}`);
  });
});

describe('the manifest where we bill it', () => {
  it('says the claims name providers, and per product and snapshot the share of valid rate rows at billing providers', async () => {
    const m = JSON.parse(await readFile(join(fx.strict.dir, 'manifest.json'), 'utf8')) as DatasetManifest;
    expect(m.claims_by_provider).toBe(true);
    // valid rate rows of services, one per provider: ref 2025-02 99213 A, B, C + D (both) + 70450 A, C + 80053 B, C + G0008 T
    expect(m.billing_coverage).toEqual([
      { insurer_id: 'alpha', snapshot: '2025-02', valid_rate_rows: 7, billed_rate_rows: 2 },
      { insurer_id: 'beta', snapshot: '2025-01', valid_rate_rows: 3, billed_rate_rows: 1 },
      { insurer_id: 'ref', snapshot: '2025-01', valid_rate_rows: 2, billed_rate_rows: 2 },
      { insurer_id: 'ref', snapshot: '2025-02', valid_rate_rows: 9, billed_rate_rows: 5 },
    ]);
    expect(m.tables.billing_providers.rows).toBe(5);
    const without = JSON.parse(await readFile(join(plain.strict.dir, 'manifest.json'), 'utf8')) as DatasetManifest;
    expect(without).toMatchObject({ claims_by_provider: false, billing_coverage: [] });
  });
});

describe('claims by provider, strict', () => {
  const roots: string[] = [];
  afterAll(async () => {
    for (const r of roots) await rm(r, { recursive: true, force: true });
  });
  /** The conversion's error, or null when it converts. */
  const convertWith = (claims: string): Promise<unknown> =>
    convertFixture({ claims }).then((r) => {
      roots.push(r.root);
      return null;
    }, (e: unknown) => e);
  it.each([
    ['99213,5,123456789,', "line 3, column 'npi': '123456789' is not an NPI (10 digits) or nothing"],
    ['99213,5,,12-34567', "line 3, column 'tin': '12-34567' is not a TIN (9 digits, hyphens allowed) or nothing"],
    ['99213,5,,12-345678A', "line 3, column 'tin': '12-345678A' is not a TIN (9 digits, hyphens allowed) or nothing"],
  ])('stops at a bad value: %s', async (bad, message) => {
    const e = await convertWith(['billing_code,claims_count,npi,tin', `99213,5,${A},`, bad].join('\n'));
    expect(e).toBeInstanceOf(Error);
    expect((e as Error).message).toContain(message);
  });
});
