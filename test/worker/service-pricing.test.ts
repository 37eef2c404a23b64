/**
 * GET /api/service-pricing over the fixture dataset (test/fixtures/api, converted by the real
 * converter), every figure computed by hand from the fixture files.
 *
 * Dollar rates in the fixture (provider: A, B = CA; C, D = NY; T = TIN-only, no state):
 *   ref 2025-02   99213 prof: A 100, B 120, C 140; both: D 90
 *                 70450 inst: A 500, C 700 (+ A per diem 1500, C percentage 50: not dollar rates)
 *                 80053 prof: B 30, C 40 (+ B 30 again in a second in_network item: identical, once)
 *                 G0008 prof: T 25            MS-DRG 470 inst: A 15000 (not a service)
 *   ref 2025-01   99213 prof: A 95            70450 inst: A 480
 *   alpha 2025-02 99213 prof: A 90, C 110     70450 inst: A 400, B 450, C 520
 *                 99283 prof: C 200           G0008 prof: A 20
 *   beta 2025-01  99213 prof: D 130           70450 inst: C 600      G0008 prof: B 10
 *   (beta has no 2025-02 file: at M = 2025-02 it contributes 2025-01.)
 * Claims (ref): 99213 CA 60, NY 40 (ALL 100); 70450 CA 10 (ALL 10); 80053 NY 5 (ALL 5); G0008 CA 20 (ALL 20).
 *
 * National medians, class 'all':
 *   ref 99213 = median(90,100,120,140) = (100+120)/2 = 110 (even count)
 *   ref 70450 = median(500,700) = 600; ref 80053 = median(30,40) = 35; ref G0008 = 25
 *   alpha 99213 = median(90,110) = 100; alpha 70450 = median(400,450,520) = 450 (odd); alpha 99283 = 200; alpha G0008 = 20
 *   beta 99213 = 130; beta 70450 = 600; beta G0008 = 10
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveServicePricingRecord, ServicePricingResult } from '../../contract/api';
import { bootFixture, type BootedFixture } from './fixture-dataset';

let f: BootedFixture;

beforeAll(async () => {
  f = await bootFixture();
  expect(f.state.status).toBe('ready');
});
afterAll(async () => f?.dispose());

async function pricing(query: Record<string, string> = {}): Promise<ServicePricingResult> {
  const res = await f.get('/api/service-pricing', query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as ServicePricingResult;
}

const codes = (r: ServicePricingResult): string[] => r.records.map((x) => x.service_code);
const byCode = (r: ServicePricingResult, code: string): LiveServicePricingRecord => {
  const rec = r.records.find((x) => x.service_code === code);
  if (!rec) throw new Error(`no record ${code}`);
  return rec;
};

describe('defaults: latest snapshot, every competitor, both classes, whole market', () => {
  it('prices each service by metrics.md', async () => {
    const r = await pricing();
    expect(r.snapshot).toBe('2025-02');
    expect(r.reference_insurer).toBe('ref');
    expect(r.competitors).toEqual(['alpha', 'beta']);
    expect(r.limit).toBeNull();
    expect(r.offset).toBe(0);
    expect(r.total).toBe(5);
    // 70450: market = (450 + 600) / 2 = 525; overpayment = 600 - 525 = 75;
    // variance = 100 x 75 / 525 = 14.2857...; savings = 75 x 10 = 750.
    expect(byCode(r, '70450')).toEqual({
      service_code: '70450',
      billing_code_type: 'CPT',
      service_name: 'CT head without contrast',
      category: 'Radiology',
      reference_price: 600,
      competitor_prices: { alpha: 450, beta: 600 },
      market_average: 525,
      reference_variance: (100 * 75) / 525,
      overpayment: 75,
      claims_volume: 10,
      potential_savings: 750,
      anthem_price: 600,
      anthem_variance: (100 * 75) / 525,
    });
    // 99213: market = (100 + 130) / 2 = 115; overpayment = 110 - 115 = -5; variance = -500/115; savings 0.
    const visit = byCode(r, '99213');
    expect(visit.reference_price).toBe(110);
    expect(visit.competitor_prices).toEqual({ alpha: 100, beta: 130 });
    expect(visit.market_average).toBe(115);
    expect(visit.overpayment).toBe(-5);
    expect(visit.reference_variance).toBeCloseTo(-500 / 115, 12);
    expect(visit.claims_volume).toBe(100);
    expect(visit.potential_savings).toBe(0);
    // G0008 (HCPCS, ref price from a TIN-only provider): market = (20 + 10) / 2 = 15;
    // overpayment 10; variance = 100 x 10 / 15 = 66.67; savings = 10 x 20 = 200.
    const flu = byCode(r, 'G0008');
    expect([flu.billing_code_type, flu.category, flu.reference_price, flu.market_average]).toEqual(['HCPCS', 'Vaccines', 25, 15]);
    expect(flu.reference_variance).toBeCloseTo(1000 / 15, 12);
    expect(flu.potential_savings).toBe(200);
  });

  it('lists a service without competitor price with no variance, and one without reference price', async () => {
    const r = await pricing();
    // 80053: the duplicate 30 counts once, so median(30, 40) = 35 (not median(30, 30, 40) = 30).
    expect(byCode(r, '80053')).toMatchObject({
      reference_price: 35,
      competitor_prices: {},
      market_average: null,
      reference_variance: null,
      overpayment: null,
      claims_volume: 5,
      potential_savings: 0,
      anthem_price: 35,
      anthem_variance: null,
    });
    // 99283: alpha only; no claims row -> 0.
    expect(byCode(r, '99283')).toMatchObject({
      reference_price: null,
      competitor_prices: { alpha: 200 },
      market_average: 200,
      reference_variance: null,
      overpayment: null,
      claims_volume: 0,
    });
    // MS-DRG 470 is not a service; percentage/per diem rows never enter 70450's median (600 above).
    expect(codes(r)).not.toContain('470');
  });

  it('summarises the whole list', async () => {
    const r = await pricing();
    // Variances with weights: 99213 -500/115 x 100, 70450 1500/21 x 10, G0008 1000/15 x 20;
    // weights 100 + 10 + 20 = 130.
    const expected = ((-500 / 115) * 100 + (7500 / 525) * 10 + (1000 / 15) * 20) / 130; // = 8.0108...
    expect(r.summary.avg_overpayment).toBeCloseTo(expected, 10);
    expect(r.summary.avg_overpayment).toBeCloseTo(8.0108297, 6);
    expect(r.summary).toMatchObject({
      total_potential_savings: 950, // 750 + 200
      services_overpaying: 2, // 70450, G0008
      services_total: 5,
      comparing_against: 2,
    });
  });
});

describe('sorting and paging', () => {
  it('sorts by overpayment descending, nulls last, ties by code', async () => {
    // 75 (70450), 10 (G0008), -5 (99213), then null: 80053 < 99283.
    expect(codes(await pricing())).toEqual(['70450', 'G0008', '99213', '80053', '99283']);
    expect(codes(await pricing({ sort: 'overpayment' }))).toEqual(['70450', 'G0008', '99213', '80053', '99283']);
  });

  it('sorts by variance', async () => {
    // 66.7 (G0008), 14.3 (70450), -4.3 (99213), nulls.
    expect(codes(await pricing({ sort: 'variance' }))).toEqual(['G0008', '70450', '99213', '80053', '99283']);
  });

  it('sorts by savings with ties by service code', async () => {
    // 750 (70450), 200 (G0008), then three zeros by code: 80053, 99213, 99283.
    expect(codes(await pricing({ sort: 'savings' }))).toEqual(['70450', 'G0008', '80053', '99213', '99283']);
  });

  it('pages by offset and limit with the total', async () => {
    const p = await pricing({ limit: '2', offset: '1' });
    expect(codes(p)).toEqual(['G0008', '99213']);
    expect([p.total, p.limit, p.offset]).toEqual([5, 2, 1]);
    expect(codes(await pricing({ limit: '2', offset: '4' }))).toEqual(['99283']);
    const past = await pricing({ limit: '2', offset: '10' });
    expect([past.records.length, past.total]).toEqual([0, 5]);
    expect(codes(await pricing({ limit: '1' }))).toEqual(['70450']);
    // The summary is the same on every page.
    expect(p.summary.services_total).toBe(5);
  });

  it('keeps only overpaying services after the summary', async () => {
    const r = await pricing({ only_overpaying: 'true' });
    expect(codes(r)).toEqual(['70450', 'G0008']);
    expect(r.total).toBe(2);
    expect(r.summary.services_total).toBe(5);
    expect(r.summary.services_overpaying).toBe(2);
    expect((await pricing({ only_overpaying: 'false' })).total).toBe(5);
  });
});

describe('filters', () => {
  it('compares against a subset of competitors', async () => {
    const r = await pricing({ competitors: 'alpha' });
    expect(r.competitors).toEqual(['alpha']);
    // 99213: 110 vs 100 -> +10, 10 %, 10 x 100 = 1000; 70450: 600 vs 450 -> +150, 33.3 %, 1500;
    // G0008: 25 vs 20 -> +5, 25 %, 100; 80053 (ref only) and 99283 (alpha only) listed without variance.
    expect(byCode(r, '99213')).toMatchObject({ competitor_prices: { alpha: 100 }, market_average: 100, overpayment: 10 });
    expect(byCode(r, '99213').reference_variance).toBeCloseTo(10, 12);
    expect(byCode(r, '70450').reference_variance).toBeCloseTo(100 / 3, 12);
    expect(r.summary).toMatchObject({ total_potential_savings: 2600, services_total: 5, services_overpaying: 3, comparing_against: 1 });
    // (10 x 100 + 33.33 x 10 + 25 x 20) / 130 = 1833.33 / 130
    expect(r.summary.avg_overpayment).toBeCloseTo((1000 + 1000 / 3 + 500) / 130, 10);
  });

  it('leaves out a service priced by no one selected', async () => {
    const r = await pricing({ competitors: 'beta' });
    // 99283 has only alpha's price: absent. 70450: 600 vs 600 -> overpayment 0, not overpaying.
    expect(codes(r)).toEqual(['G0008', '70450', '99213', '80053']);
    expect(byCode(r, '70450')).toMatchObject({ overpayment: 0, reference_variance: 0, potential_savings: 0 });
    // G0008: 25 vs 10 -> +15, 150 %, 15 x 20 = 300. 99213: 110 vs 130 -> -20.
    expect(r.summary).toMatchObject({ total_potential_savings: 300, services_total: 4, services_overpaying: 1, comparing_against: 1 });
  });

  it('treats duplicate and empty competitor entries as one selection', async () => {
    const r = await pricing({ competitors: 'alpha,,alpha, beta' });
    expect(r.competitors).toEqual(['alpha', 'beta']);
    expect(r.summary.total_potential_savings).toBe(950);
    expect((await pricing({ competitors: '' })).competitors).toEqual(['alpha', 'beta']);
  });

  it('filters by category', async () => {
    expect(codes(await pricing({ category: 'Office visit' }))).toEqual(['99213']);
    const vac = await pricing({ category: 'Vaccines' });
    expect(codes(vac)).toEqual(['G0008']);
    expect(vac.summary).toMatchObject({ services_total: 1, services_overpaying: 1, total_potential_savings: 200 });
    expect((await pricing({ category: 'Cardiac' })).total).toBe(0);
  });

  it('counts a both-class row in either billing class', async () => {
    // professional: ref 99213 = median(90 both, 100, 120, 140) = 110; 70450 is institutional only.
    const prof = await pricing({ billing_class: 'professional' });
    expect(codes(prof)).toEqual(['G0008', '99213', '80053', '99283']);
    expect(byCode(prof, '99213')).toMatchObject({ reference_price: 110, market_average: 115 });
    // institutional: ref 99213 = the both row alone = 90, no competitor has an institutional 99213.
    const inst = await pricing({ billing_class: 'institutional' });
    expect(codes(inst)).toEqual(['70450', '99213']);
    expect(byCode(inst, '99213')).toMatchObject({ reference_price: 90, market_average: null, reference_variance: null });
    expect(inst.summary).toMatchObject({ services_total: 2, services_overpaying: 1, total_potential_savings: 750 });
    expect(inst.summary.avg_overpayment).toBeCloseTo(7500 / 525, 10);
    expect((await pricing({ billing_class: 'all' })).total).toBe(5);
  });

  it('narrows to a state, with that state\'s claims', async () => {
    const ca = await pricing({ state: 'ca' });
    // CA providers A, B. 99213: ref median(100, 120) = 110; alpha A 90; beta (D, NY) none -> +20, 22.2 %, claims 60.
    // 70450: ref A 500; alpha median(400, 450) = 425 -> +75, 17.6 %, claims 10.
    // 80053: ref B 30, no competitor, no CA claims -> 0. G0008: ref's provider has no state; alpha 20, beta 10.
    // 99283: alpha's provider C is in NY: absent.
    expect(codes(ca)).toEqual(['70450', '99213', '80053', 'G0008']);
    expect(byCode(ca, '99213')).toMatchObject({ reference_price: 110, market_average: 90, overpayment: 20, claims_volume: 60, potential_savings: 1200 });
    expect(byCode(ca, '70450')).toMatchObject({ reference_price: 500, market_average: 425, claims_volume: 10, potential_savings: 750 });
    expect(byCode(ca, '80053')).toMatchObject({ reference_price: 30, claims_volume: 0 });
    expect(byCode(ca, 'G0008')).toMatchObject({ reference_price: null, market_average: 15, reference_variance: null });
    // (2000/90 x 60 + 7500/425 x 10) / 70 = 21.57
    expect(ca.summary.avg_overpayment).toBeCloseTo(((2000 / 90) * 60 + (7500 / 425) * 10) / 70, 10);
    expect(ca.summary.total_potential_savings).toBe(1950);
  });

  it('weighs by a state\'s own claims even where they are zero', async () => {
    const ny = await pricing({ state: 'NY' });
    // 99213: ref median(140, 90) = 115; alpha 110; beta 130 -> market 120, -5, claims 40.
    // 70450: ref 700; alpha 520; beta 600 -> market 560, +140, 25 %, but NY has no 70450 claims: savings 0.
    expect(byCode(ny, '99213')).toMatchObject({ reference_price: 115, market_average: 120, claims_volume: 40 });
    expect(byCode(ny, '70450')).toMatchObject({ overpayment: 140, reference_variance: 25, claims_volume: 0, potential_savings: 0 });
    // Weighted: (-500/120 x 40 + 25 x 0) / 40 = -4.1667.
    expect(ny.summary.avg_overpayment).toBeCloseTo(-500 / 120, 10);
    // Radiology alone in NY: every weight is 0, so the plain mean: 25.
    expect((await pricing({ state: 'NY', category: 'Radiology' })).summary.avg_overpayment).toBe(25);
  });

  it('answers an empty list for a state without rates', async () => {
    const tx = await pricing({ state: 'TX' });
    expect(tx.records).toEqual([]);
    expect(tx.summary).toEqual({ total_potential_savings: 0, avg_overpayment: null, services_overpaying: 0, services_total: 0, comparing_against: 2 });
  });

  it('uses each insurer\'s latest snapshot at or before the month asked', async () => {
    // M = 2025-01: ref 2025-01, beta 2025-01, alpha has none (absent).
    const jan = await pricing({ snapshot: '2025-01' });
    expect(jan.snapshot).toBe('2025-01');
    expect(jan.competitors).toEqual(['alpha', 'beta']);
    // 99213: 95 vs 130 -> -35; 70450: 480 vs 600 -> -120; G0008: beta 10 only.
    expect(codes(jan)).toEqual(['99213', '70450', 'G0008']);
    expect(byCode(jan, '99213')).toMatchObject({ reference_price: 95, competitor_prices: { beta: 130 }, overpayment: -35 });
    // (-3500/130 x 100 + -20 x 10) / 110
    expect(jan.summary.avg_overpayment).toBeCloseTo(((-3500 / 130) * 100 - 200) / 110, 10);
    expect(jan.summary).toMatchObject({ services_overpaying: 0, services_total: 3, comparing_against: 2 });
    // The explicit latest month equals the default.
    expect(await pricing({ snapshot: '2025-02' })).toEqual(await pricing());
  });
});
