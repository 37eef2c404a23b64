/**
 * "At shared providers" (docs/methodology.md, Per comparison unit) on the /api: `shared_providers=1` on
 * service-pricing, regional-comparison, overpayment-trend, regional-services and rate-rows, over the
 * fixture dataset (test/fixtures/api, converted by the real converter: its price_stats `shared`
 * rows), every expected figure worked out by hand from the fixture's MRFs below.
 *
 * Providers: A = 1111111112 (CA), B = 2222222228 (CA), C = 3333333334 (NY), D = 4444444440 (NY),
 * T = TIN:123456789 (no NPI, no state). Valid dollar rates (every one is valid), one unit per code
 * except 99213 (professional and a `both` unit):
 *   ref 2025-02   99213 prof: A 100, B 120, C 140; 99213 both: D 90; 70450 inst: A 500, C 700;
 *                 80053 prof: B 30, C 40; G0008 prof: T 25
 *   ref 2025-01   99213 prof: A 95; 70450 inst: A 480
 *   alpha 2025-02 99213 prof: A 90, C 110; 70450 inst: A 400, B 450, C 520; 99283 prof: C 200; G0008 prof: A 20
 *   beta 2025-01  99213 prof: D 130; 70450 inst: C 600; G0008 prof: B 10
 * At M = 2025-02 (ref 2025-02, alpha 2025-02, beta 2025-01), shared providers per unit:
 *   99213 prof:  ref at A, C (alpha has them; B nobody) -> median(100, 140) = 120 [2]
 *                alpha at A, C (ref has them) -> median(90, 110) = 100 [2]; beta at D: ref has no 99213 prof there -> none
 *   70450 inst:  ref at A (alpha), C (alpha, beta) -> median(500, 700) = 600 [2]
 *                alpha at A, C (not B) -> median(400, 520) = 460 [2]; beta at C -> 600 [1]
 *   99213 both (ref D; beta's D row is professional: another unit), 80053 (no competitor), 99283 (no
 *   reference rate), G0008 (ref T, alpha A, beta B: no common provider): no shared price.
 * Whole market at 2025-02, for contrast: 99213 ref 120 [3], alpha 100 [2], beta 130 [1];
 *   70450 ref 600 [2], alpha 450 [3], beta 600 [1].
 * At M = 2025-01 (ref 2025-01, beta 2025-01; alpha has no snapshot yet): ref A vs beta D (99213)
 *   and C (70450): nothing shared.
 * Claims (no class column): 99213 CA 60, NY 40 (ALL 100) to its professional unit; 70450 CA 10 to
 * its institutional unit. min_providers 2 (`loose`: the same catalog with 1).
 */
import { describe, expect, it } from 'vitest';
import type {
  Alert,
  ApiErrorBody,
  LiveServicePricingRecord,
  RateRowsResult,
  RegionalComparison,
  RegionalServiceRow,
  ServicePricingResult,
  TrendPoint,
} from '../../contract/api';
import { bootStrictAndLoose, byUnit, okBody, unitName, type BootedFixture } from './fixture-dataset';

const A = '1111111112';
const B = '2222222228';
const C = '3333333334';
const D = '4444444440';
const T = 'TIN:123456789';

const fx = bootStrictAndLoose();

function ok<T>(path: string, query: Record<string, string> = {}, at: BootedFixture = fx.strict): Promise<T> {
  return okBody<T>(at, path, query);
}

const pricing = (query: Record<string, string> = {}, at: BootedFixture = fx.strict) => ok<ServicePricingResult>('/api/service-pricing', query, at);
const unit = unitName;
/** The figures of a record that the option changes. */
const figures = (x: LiveServicePricingRecord) => ({
  reference_price: x.reference_price, reference_providers: x.reference_providers, competitor_prices: x.competitor_prices,
  competitor_providers: x.competitor_providers, market_average: x.market_average, thin: x.thin,
});

describe('service-pricing with shared_providers', () => {
  it('takes every price at shared providers, and only the units priced there', async () => {
    const market = await pricing({ only_overpaying: 'false' });
    const shared = await pricing({ only_overpaying: 'false', shared_providers: '1' });
    expect(market.records.map(unit).sort()).toEqual(
      ['70450 institutional', '80053 professional', '99213 both', '99213 professional', '99283 professional', 'G0008 professional']);
    expect(shared.records.map(unit).sort()).toEqual(['70450 institutional', '99213 professional']);

    expect(figures(byUnit(market, '99213 professional'))).toEqual({
      reference_price: 120, reference_providers: 3, competitor_prices: { alpha: 100, beta: 130 },
      competitor_providers: { alpha: 2, beta: 1 }, market_average: 115, thin: false,
    });
    const visit = byUnit(shared, '99213 professional');
    expect(figures(visit)).toEqual({
      reference_price: 120, reference_providers: 2, competitor_prices: { alpha: 100 },
      competitor_providers: { alpha: 2 }, market_average: 100, thin: false,
    });
    expect(visit).toMatchObject({ overpayment: 20, reference_variance: 20, claims_volume: 100, potential_savings: 2000 });

    expect(figures(byUnit(market, '70450 institutional'))).toMatchObject({ competitor_prices: { alpha: 450, beta: 600 }, market_average: 525 });
    const ct = byUnit(shared, '70450 institutional');
    expect(figures(ct)).toEqual({
      reference_price: 600, reference_providers: 2, competitor_prices: { alpha: 460, beta: 600 },
      competitor_providers: { alpha: 2, beta: 1 }, market_average: 530, thin: false,
    });
    expect(ct).toMatchObject({ overpayment: 70, claims_volume: 10, potential_savings: 700 });
    expect(ct.reference_variance).toBeCloseTo((100 * 70) / 530, 10);
    // % of Medicare follows from the prices (70450 OPPS 106.34).
    expect(ct.competitor_medicare_pct.alpha).toBeCloseTo((100 * 460) / 106.34, 10);

    // The summary cards over the shared prices: both units count (not thin, with a variance).
    expect(shared.summary).toMatchObject({ services_total: 2, services_overpaying: 2, total_potential_savings: 2700, comparing_against: 2 });
    expect(shared.summary.avg_overpayment).toBeCloseTo((20 * 100 + ((100 * 70) / 530) * 10) / 110, 10);
    expect(market.summary.avg_overpayment).toBeCloseTo(((100 * 5) / 115 * 100 + ((100 * 75) / 525) * 10) / 110, 10);
  });

  it('takes the reference price against every competitor of the dataset, whatever the selection', async () => {
    const r = await pricing({ competitors: 'beta', shared_providers: '1' });
    // 70450: ref at A (shared with alpha, not selected) and C -> 600 [2], not C alone (700);
    // beta 600 at C. 99213: ref 120 [2] from alpha's providers; beta has no shared price -> no variance.
    expect(figures(byUnit(r, '70450 institutional'))).toEqual({
      reference_price: 600, reference_providers: 2, competitor_prices: { beta: 600 },
      competitor_providers: { beta: 1 }, market_average: 600, thin: true,
    });
    expect(byUnit(r, '99213 professional')).toMatchObject({ reference_price: 120, reference_providers: 2, market_average: null, reference_variance: null });
    expect(r.summary.services_total).toBe(0);
  });

  it('matches within the chosen state', async () => {
    const r = await pricing({ state: 'CA', shared_providers: 'true' }, fx.loose);
    // CA: 99213 ref A 100 (not B 120), alpha A 90; 70450 ref A 500, alpha A 400 (not B 450).
    expect(r.records.map((x) => [unit(x), x.reference_price, x.market_average, x.reference_providers])).toEqual([
      ['70450 institutional', 500, 400, 1],
      ['99213 professional', 100, 90, 1],
    ]);
    const market = await pricing({ state: 'CA' }, fx.loose);
    expect(byUnit(market, '99213 professional')).toMatchObject({ reference_price: 110, market_average: 90 });
    expect(byUnit(market, '70450 institutional')).toMatchObject({ reference_price: 500, market_average: 425 });
  });

  it('applies the same rule to a selection of providers, from the rate rows', async () => {
    // A and B: 99213 ref A 100 (B has no competitor row), alpha A 90; 70450 ref A 500, alpha A 400.
    const ab = await pricing({ providers: `${A},${B}`, shared_providers: '1' });
    expect(ab.records.map((x) => [unit(x), x.reference_price, x.reference_providers, x.competitor_prices])).toEqual([
      ['70450 institutional', 500, 1, { alpha: 400 }],
      ['99213 professional', 100, 1, { alpha: 90 }],
    ]);
    const abMarket = await pricing({ providers: `${A},${B}`, only_overpaying: 'false' });
    expect(byUnit(abMarket, '99213 professional')).toMatchObject({ reference_price: 110, reference_providers: 2, competitor_prices: { alpha: 90 } });
    expect(byUnit(abMarket, '70450 institutional')).toMatchObject({ reference_price: 500, competitor_prices: { alpha: 425 } });

    // A and C with beta alone selected: the reference's rows count at A too, where alpha (not
    // selected) has a rate: 70450 ref median(500, 700) = 600 [2], beta C 600.
    const ac = await pricing({ providers: `${A},${C}`, competitors: 'beta', shared_providers: '1', only_overpaying: 'false' });
    expect(figures(byUnit(ac, '70450 institutional'))).toEqual({
      reference_price: 600, reference_providers: 2, competitor_prices: { beta: 600 },
      competitor_providers: { beta: 1 }, market_average: 600, thin: true,
    });
    expect(byUnit(ac, '99213 professional')).toMatchObject({ reference_price: 120, reference_providers: 2, market_average: null });

    // Every provider selected: the same prices as the converter's shared rows.
    const all = await pricing({ providers: [A, B, C, D, T].join(','), shared_providers: '1', only_overpaying: 'false' });
    expect(all.records.map((x) => [unit(x), x.reference_price, x.competitor_prices])).toEqual([
      ['70450 institutional', 600, { alpha: 460, beta: 600 }],
      ['99213 professional', 120, { alpha: 100 }],
    ]);
  });

  it('reads 0 and false as off, and refuses anything else', async () => {
    const market = await pricing();
    expect(await pricing({ shared_providers: '0' })).toEqual(market);
    expect(await pricing({ shared_providers: 'false' })).toEqual(market);
    expect(await pricing({ shared_providers: '' })).toEqual(market);
    expect(await pricing({ shared_providers: 'true' })).toEqual(await pricing({ shared_providers: '1' }));
  });
});

describe('dashboard endpoints with shared_providers', () => {
  it('regional-comparison: per state, over that state\'s shared prices', async () => {
    // min_providers 2: every shared price in CA and NY rests on one provider.
    expect(await ok<RegionalComparison[]>('/api/regional-comparison', { shared_providers: '1' })).toEqual([]);
    const r = await ok<RegionalComparison[]>('/api/regional-comparison', { shared_providers: '1' }, fx.loose);
    // CA: 99213 A 100 vs 90 = 11.11 % (claims 60), 70450 A 500 vs 400 = 25 % (10).
    // NY: 99213 C 140 vs 110 = 27.27 % (40), 70450 C 700 vs (520 + 600) / 2 = 560: 25 % (0 claims in NY).
    expect(r.map((x) => [x.region, x.services, x.claims_count])).toEqual([['CA', 2, 70], ['NY', 2, 40]]);
    expect(r[0]!.anthem_avg_overpayment).toBeCloseTo(((1000 / 90) * 60 + 25 * 10) / 70, 10);
    expect(r[1]!.anthem_avg_overpayment).toBeCloseTo(3000 / 110, 10);
    // The whole market: CA (2000/90 x 60 + 7500/425 x 10) / 70, NY 2000/120.
    const market = await ok<RegionalComparison[]>('/api/regional-comparison', {}, fx.loose);
    expect(market[0]!.anthem_avg_overpayment).toBeCloseTo(((2000 / 90) * 60 + (7500 / 425) * 10) / 70, 10);
    expect(market[1]!.anthem_avg_overpayment).toBeCloseTo(2000 / 120, 10);
  });

  it('overpayment-trend: each month at the providers shared in that month', async () => {
    const strict = await ok<TrendPoint[]>('/api/overpayment-trend', { shared_providers: '1' });
    expect(strict.map((p) => p.month)).toEqual(['2025-02']);
    expect(strict[0]!.value).toBeCloseTo((20 * 100 + ((100 * 70) / 530) * 10) / 110, 10);
    // 2025-01 has no shared price at all, even with min_providers 1 (the market has one then);
    // 2025-02 has no G0008 at shared providers (the market's 1000/15 % with 20 claims).
    const t = await ok<TrendPoint[]>('/api/overpayment-trend', { shared_providers: '1' }, fx.loose);
    expect(t.map((p) => p.month)).toEqual(['2025-02']);
    expect(t[0]!.value).toBeCloseTo((20 * 100 + ((100 * 70) / 530) * 10) / 110, 10);
    const market = await ok<TrendPoint[]>('/api/overpayment-trend', {}, fx.loose);
    expect(market.map((p) => p.month)).toEqual(['2025-01', '2025-02']);
    expect(market[1]!.value).toBeCloseTo(((500 / 115) * 100 + (7500 / 525) * 10 + (1000 / 15) * 20) / 130, 10);
  });

  it('regional-services: the modal rows of a state at shared providers', async () => {
    const r = await ok<RegionalServiceRow[]>('/api/regional-services', { state: 'NY', shared_providers: '1' });
    expect(r.map((x) => [x.service_code, x.your_price, x.market_avg, x.thin])).toEqual([
      ['99213', 140, 110, true],
      ['70450', 700, 560, true],
    ]);
    const market = await ok<RegionalServiceRow[]>('/api/regional-services', { state: 'NY' });
    expect(market.find((x) => x.service_code === '99213' && x.billing_class === 'professional')).toMatchObject({ your_price: 140, market_avg: 120 });
  });

  it('leaves the alerts as they are', async () => {
    const res = await fx.strict.get('/api/alerts', { shared_providers: '1' });
    expect(res.status).toBe(200);
    expect(res.body as Alert[]).toEqual(await ok<Alert[]>('/api/alerts'));
  });
});

describe('rate-rows with shared_providers: the rows behind a shared price', () => {
  const rows = (insurer: string, query: Record<string, string> = {}) => ok<RateRowsResult>('/api/rate-rows', {
    service_id: '70450', insurer_id: insurer, billing_class: 'institutional', component: 'global', setting: 'facility', ...query,
  });

  it('keeps the rows at providers the other side has', async () => {
    const alpha = await rows('alpha', { shared_providers: '1' });
    expect(alpha).toMatchObject({ shared_providers: true, median: 460, rate_count: 2, provider_count: 2 });
    expect(alpha.rows.map((r) => [r.provider_id, r.negotiated_rate])).toEqual([[A, 400], [C, 520]]);
    expect(await rows('alpha')).toMatchObject({ shared_providers: false, median: 450, rate_count: 3 });
    // The reference: at A and C (alpha, beta); its per diem and percentage rows at A and C are not dollars.
    const ref = await rows('ref', { shared_providers: '1' });
    expect(ref).toMatchObject({ median: 600, rate_count: 2, other_rows: 2 });
    // beta at M = 2025-02: C, where the reference has a rate.
    expect(await rows('beta', { shared_providers: '1' })).toMatchObject({ median: 600, provider_count: 1 });
    // 99213 ref: A and C (alpha), not B.
    const visit = await ok<RateRowsResult>('/api/rate-rows', {
      service_id: '99213', insurer_id: 'ref', billing_class: 'professional', component: 'global', setting: 'non-facility', shared_providers: '1',
    });
    expect(visit.rows.map((r) => r.provider_id)).toEqual([A, C]);
    expect(visit.median).toBe(120);
  });
});

describe('bad shared_providers values', () => {
  const routes: Array<[string, Record<string, string>]> = [
    ['/api/service-pricing', {}],
    ['/api/dashboard-figures', {}],
    ['/api/regional-comparison', {}],
    ['/api/overpayment-trend', {}],
    ['/api/regional-services', { state: 'CA' }],
    ['/api/rate-rows', { service_id: '99213', insurer_id: 'ref' }],
  ];
  it.each(routes)('%s answers 400 invalid shared_providers', async (path, query) => {
    for (const value of ['maybe', 'yes', '2', "1' OR 1=1 --"]) {
      const res = await fx.strict.get(path, { ...query, shared_providers: value });
      const message = `invalid shared_providers: ${value}`;
      expect(res.status).toBe(400);
      expect(res.body as ApiErrorBody).toEqual({ message, error: { code: 'bad_request', message } });
    }
  });
});
