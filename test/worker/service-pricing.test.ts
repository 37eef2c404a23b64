/**
 * GET /api/service-pricing over the fixture dataset (test/fixtures/api, converted by the real
 * converter), every figure computed by hand from the fixture files: one record per comparison unit
 * (docs/methodology.md, Per comparison unit).
 *
 * Dollar rates in the fixture (provider: A, B = CA; C, D = NY; T = TIN-only, no state). Every row
 * has place of service 11 (or none, institutional) and no modifier, so each unit is global and
 * non-facility (professional, both) or facility (institutional):
 *   ref 2025-02   99213 prof: A 100, B 120, C 140; both: D 90 (a unit of its own)
 *                 70450 inst: A 500, C 700 (+ A per diem 1500, C percentage 50: not dollar rates)
 *                 80053 prof: B 30, C 40 (+ B 30 again in a second in_network item: identical, once)
 *                 G0008 prof: T 25            MS-DRG 470 inst: A 15000 (not a service)
 *   ref 2025-01   99213 prof: A 95            70450 inst: A 480
 *   alpha 2025-02 99213 prof: A 90, C 110     70450 inst: A 400, B 450, C 520
 *                 99283 prof: C 200           G0008 prof: A 20
 *   beta 2025-01  99213 prof: D 130           70450 inst: C 600      G0008 prof: B 10
 *   (beta has no 2025-02 file: at M = 2025-02 it contributes 2025-01.)
 * Medicare (reference-data, 2025): 99213 PFS non-facility 2.75 RVU x 32.3465; 70450 OPPS 106.34;
 * 80053 CLFS; 99283 PFS 2.11 RVU; G0008 none (PFS status X, no CLFS line). Every rate lies within
 * 0.3-30 x its benchmark: all valid.
 * Claims (ref, no class column): 99213 CA 60, NY 40 (ALL 100); 70450 CA 10; 80053 NY 5; G0008 CA 20.
 * The converter gives a code's count to the professional class, and to the institutional one too
 * when the OPPS pays the code (70450, G0008) or the code has no professional unit (70450).
 *
 * National units at 2025-02 [providers]:
 *   99213 professional: ref median(100, 120, 140) = 120 [3]; alpha median(90, 110) = 100 [2]; beta 130 [1]
 *   99213 both:         ref 90 [1]                                   -> thin (reference on 1 provider)
 *   70450 institutional: ref median(500, 700) = 600 [2]; alpha median(400, 450, 520) = 450 [3]; beta 600 [1]
 *   80053 professional: ref median(30, 40) = 35 [2]
 *   G0008 professional: ref 25 [1]; alpha 20 [1]; beta 10 [1]      -> thin (reference on 1 provider)
 *   99283 professional: alpha 200 [1]                              -> thin (competitors on 1 provider)
 * min_providers is 2 (the default); `loose` is the same catalog with `validation.min_providers: 1`.
 */
import { describe, expect, it } from 'vitest';
import type { LiveServicePricingRecord, ServicePricingResult } from '../../contract/api';
import { bootStrictAndLoose, okBody, type BootedFixture } from './fixture-dataset';

const fx = bootStrictAndLoose();

function pricing(query: Record<string, string> = {}, at: BootedFixture = fx.strict): Promise<ServicePricingResult> {
  return okBody<ServicePricingResult>(at, '/api/service-pricing', query);
}

/** A record's unit: the code, and `both` for the 99213 both unit (every other unit is its code's only one). */
const unit = (x: LiveServicePricingRecord): string => (x.billing_class === 'both' ? `${x.service_code} both` : x.service_code);
const units = (r: ServicePricingResult): string[] => r.records.map(unit);
const byUnit = (r: ServicePricingResult, name: string): LiveServicePricingRecord => {
  const rec = r.records.find((x) => unit(x) === name);
  if (!rec) throw new Error(`no record ${name}`);
  return rec;
};

describe('defaults: latest snapshot, every competitor, every unit, whole market', () => {
  it('prices each comparison unit by docs/methodology.md', async () => {
    const r = await pricing();
    expect(r.snapshot).toBe('2025-02');
    expect(r.reference_insurer).toBe('ref');
    expect(r.competitors).toEqual(['alpha', 'beta']);
    expect(r.limit).toBeNull();
    expect(r.offset).toBe(0);
    expect(r.total).toBe(6);
    // 70450: market = (450 + 600) / 2 = 525; overpayment = 600 - 525 = 75;
    // variance = 100 x 75 / 525 = 14.2857...; claims 10 (institutional); savings = 75 x 10 = 750.
    const ct = byUnit(r, '70450');
    expect(ct).toMatchObject({
      service_code: '70450',
      billing_code_type: 'CPT',
      service_name: 'CT head without contrast',
      category: 'Radiology',
      billing_class: 'institutional',
      component: 'global',
      setting: 'facility',
      reference_price: 600,
      competitor_prices: { alpha: 450, beta: 600 },
      market_average: 525,
      reference_variance: (100 * 75) / 525,
      overpayment: 75,
      claims_volume: 10,
      potential_savings: 750,
      anthem_price: 600,
      anthem_variance: (100 * 75) / 525,
      reference_providers: 2,
      competitor_providers: { alpha: 3, beta: 1 },
      thin: false,
      thin_reason: null,
      medicare_rate: 106.34,
    });
    // % of Medicare: 600 / 106.34, 450 / 106.34, 600 / 106.34; beside the market their mean.
    expect(ct.reference_medicare_pct).toBeCloseTo((100 * 600) / 106.34, 10);
    expect(ct.competitor_medicare_pct.alpha).toBeCloseTo((100 * 450) / 106.34, 10);
    expect(ct.market_medicare_pct).toBeCloseTo(((100 * 450) / 106.34 + (100 * 600) / 106.34) / 2, 10);
    // 99213 professional: market = (100 + 130) / 2 = 115; overpayment = 120 - 115 = 5; variance = 500 / 115; claims 100.
    const visit = byUnit(r, '99213');
    expect(visit).toMatchObject({
      billing_class: 'professional', component: 'global', setting: 'non-facility',
      reference_price: 120, competitor_prices: { alpha: 100, beta: 130 }, market_average: 115, overpayment: 5,
      claims_volume: 100, potential_savings: 500, reference_providers: 3, competitor_providers: { alpha: 2, beta: 1 }, thin: false,
    });
    expect(visit.reference_variance).toBeCloseTo(500 / 115, 12);
    expect(visit.medicare_rate).toBeCloseTo(2.75 * 32.3465, 2);
    expect(visit.reference_medicare_pct).toBeCloseTo((100 * 120) / visit.medicare_rate!, 10);
    // 99213 both: D's 90 alone, no competitor; the claims went to the professional unit.
    expect(byUnit(r, '99213 both')).toMatchObject({
      setting: 'non-facility', reference_price: 90, market_average: null, reference_variance: null, claims_volume: 0,
      reference_providers: 1, thin: true, thin_reason: 'reference price rests on 1 provider',
    });
    // G0008 (HCPCS, ref price from a TIN-only provider): market = (20 + 10) / 2 = 15; overpayment 10;
    // variance = 100 x 10 / 15 = 66.67; savings = 10 x 20 = 200; thin: the reference price rests on T alone.
    const flu = byUnit(r, 'G0008');
    expect([flu.billing_code_type, flu.category, flu.reference_price, flu.market_average, flu.potential_savings]).toEqual(['HCPCS', 'Vaccines', 25, 15, 200]);
    expect(flu.reference_variance).toBeCloseTo(1000 / 15, 12);
    expect([flu.thin, flu.thin_reason, flu.medicare_rate, flu.reference_medicare_pct, flu.market_medicare_pct]).toEqual([
      true, 'reference price rests on 1 provider', null, null, null,
    ]);
  });

  it('lists a unit without competitor price with no variance, and one without reference price', async () => {
    const r = await pricing();
    // 80053: the duplicate 30 counts once, so median(30, 40) = 35 (not median(30, 30, 40) = 30).
    expect(byUnit(r, '80053')).toMatchObject({
      reference_price: 35,
      competitor_prices: {},
      market_average: null,
      reference_variance: null,
      overpayment: null,
      claims_volume: 5,
      potential_savings: 0,
      anthem_price: 35,
      anthem_variance: null,
      reference_providers: 2,
      competitor_providers: {},
      thin: false,
    });
    // 99283: alpha only; no claims row -> 0; the competitor price rests on C alone.
    expect(byUnit(r, '99283')).toMatchObject({
      reference_price: null,
      competitor_prices: { alpha: 200 },
      market_average: 200,
      reference_variance: null,
      overpayment: null,
      claims_volume: 0,
      reference_providers: 0,
      thin: true,
      thin_reason: 'competitor prices rest on 1 provider together',
    });
    // MS-DRG 470 is not a service; percentage/per diem rows never enter 70450's median (600 above).
    expect(units(r)).not.toContain('470');
  });

  it('summarises the units with a variance that are not thin', async () => {
    const r = await pricing();
    // 99213 (500/115 %, 100 claims) and 70450 (7500/525 %, 10); G0008 is thin, the others have no variance.
    expect(r.summary.avg_overpayment).toBeCloseTo(((500 / 115) * 100 + (7500 / 525) * 10) / 110, 10);
    expect(r.summary).toMatchObject({
      total_potential_savings: 1250, // 500 + 750 (G0008's 200 is thin)
      services_overpaying: 2,
      services_total: 2,
      comparing_against: 2,
    });
  });
});

describe('sorting and paging', () => {
  it('sorts by overpayment descending, nulls last, ties by code then unit', async () => {
    // 75 (70450), 10 (G0008), 5 (99213), then null: 80053, 99213 both, 99283.
    const order = ['70450', 'G0008', '99213', '80053', '99213 both', '99283'];
    expect(units(await pricing())).toEqual(order);
    expect(units(await pricing({ sort: 'overpayment' }))).toEqual(order);
  });

  it('sorts by variance', async () => {
    // 66.7 (G0008), 14.3 (70450), 4.3 (99213), nulls.
    expect(units(await pricing({ sort: 'variance' }))).toEqual(['G0008', '70450', '99213', '80053', '99213 both', '99283']);
  });

  it('sorts by savings with ties by service code and unit', async () => {
    // 750 (70450), 500 (99213), 200 (G0008), then three zeros by code: 80053, 99213 both, 99283.
    expect(units(await pricing({ sort: 'savings' }))).toEqual(['70450', '99213', 'G0008', '80053', '99213 both', '99283']);
  });

  it('pages by offset and limit with the total', async () => {
    const p = await pricing({ limit: '2', offset: '1' });
    expect(units(p)).toEqual(['G0008', '99213']);
    expect([p.total, p.limit, p.offset]).toEqual([6, 2, 1]);
    expect(units(await pricing({ limit: '2', offset: '4' }))).toEqual(['99213 both', '99283']);
    const past = await pricing({ limit: '2', offset: '10' });
    expect([past.records.length, past.total]).toEqual([0, 6]);
    expect(units(await pricing({ limit: '1' }))).toEqual(['70450']);
    // The summary is the same on every page.
    expect(p.summary.services_total).toBe(2);
  });

  it('keeps only overpaying units after the summary, thin ones too', async () => {
    const r = await pricing({ only_overpaying: 'true' });
    expect(units(r)).toEqual(['70450', 'G0008', '99213']);
    expect(r.total).toBe(3);
    expect(r.summary.services_total).toBe(2);
    expect(r.summary.services_overpaying).toBe(2);
    expect((await pricing({ only_overpaying: 'false' })).total).toBe(6);
  });
});

describe('filters', () => {
  it('compares against a subset of competitors', async () => {
    const r = await pricing({ competitors: 'alpha' });
    expect(r.competitors).toEqual(['alpha']);
    // 99213: 120 vs 100 -> +20, 20 %, 20 x 100 = 2000; 70450: 600 vs 450 -> +150, 33.3 %, 1500;
    // G0008: 25 vs 20 -> +5, 25 %, 100, thin; 80053, 99213 both (ref only) and 99283 (alpha only) without variance.
    expect(byUnit(r, '99213')).toMatchObject({ competitor_prices: { alpha: 100 }, market_average: 100, overpayment: 20, thin: false });
    expect(byUnit(r, '99213').reference_variance).toBeCloseTo(20, 12);
    expect(byUnit(r, '70450').reference_variance).toBeCloseTo(100 / 3, 12);
    expect(byUnit(r, 'G0008')).toMatchObject({ overpayment: 5, potential_savings: 100, thin: true });
    expect(r.summary).toMatchObject({ total_potential_savings: 3500, services_total: 2, services_overpaying: 2, comparing_against: 1 });
    // (20 x 100 + 33.33 x 10) / 110
    expect(r.summary.avg_overpayment).toBeCloseTo((2000 + 1000 / 3) / 110, 10);
  });

  it('leaves out a unit priced by no one selected; one competitor on one provider makes a unit thin', async () => {
    const r = await pricing({ competitors: 'beta' });
    // 99283 has only alpha's price: absent. Beta's prices each rest on one provider: every unit with a variance is thin.
    // G0008: 25 vs 10 -> +15; 70450: 600 vs 600 -> 0; 99213: 120 vs 130 -> -10.
    expect(units(r)).toEqual(['G0008', '70450', '99213', '80053', '99213 both']);
    expect(byUnit(r, '70450')).toMatchObject({ overpayment: 0, reference_variance: 0, potential_savings: 0, thin: true });
    expect(byUnit(r, '99213').thin_reason).toBe('competitor prices rest on 1 provider together');
    expect(r.summary).toEqual({ total_potential_savings: 0, avg_overpayment: null, services_total: 0, services_overpaying: 0, comparing_against: 1 });
    // With min_providers 1 nothing is thin: G0008 15 x 20 = 300.
    const l = await pricing({ competitors: 'beta' }, fx.loose);
    expect(l.summary).toMatchObject({ total_potential_savings: 300, services_total: 3, services_overpaying: 1, comparing_against: 1 });
  });

  it('treats duplicate and empty competitor entries as one selection', async () => {
    const r = await pricing({ competitors: 'alpha,,alpha, beta' });
    expect(r.competitors).toEqual(['alpha', 'beta']);
    expect(r.summary.total_potential_savings).toBe(1250);
    expect((await pricing({ competitors: '' })).competitors).toEqual(['alpha', 'beta']);
  });

  it('filters by category', async () => {
    expect(units(await pricing({ category: 'Office visit' }))).toEqual(['99213', '99213 both']);
    const vac = await pricing({ category: 'Vaccines' });
    expect(units(vac)).toEqual(['G0008']);
    expect(vac.summary).toMatchObject({ services_total: 0, services_overpaying: 0, total_potential_savings: 0 });
    expect((await pricing({ category: 'Vaccines' }, fx.loose)).summary).toMatchObject({ services_total: 1, services_overpaying: 1, total_potential_savings: 200 });
    expect((await pricing({ category: 'Cardiac' })).total).toBe(0);
  });

  it('shows a both unit under either billing-class chip', async () => {
    // Professional chip: professional and both units; 70450 is institutional only.
    const prof = await pricing({ billing_class: 'professional' });
    expect(units(prof)).toEqual(['G0008', '99213', '80053', '99213 both', '99283']);
    expect(byUnit(prof, '99213')).toMatchObject({ reference_price: 120, market_average: 115 });
    // Institutional chip: institutional and both units: 70450 and 99213's both unit (90, no competitor).
    const inst = await pricing({ billing_class: 'institutional' });
    expect(units(inst)).toEqual(['70450', '99213 both']);
    expect(byUnit(inst, '99213 both')).toMatchObject({ reference_price: 90, market_average: null, reference_variance: null });
    expect(inst.summary).toMatchObject({ services_total: 1, services_overpaying: 1, total_potential_savings: 750 });
    expect(inst.summary.avg_overpayment).toBeCloseTo(7500 / 525, 10);
    expect((await pricing({ billing_class: 'all' })).total).toBe(6);
  });

  it('narrows to a state, with that state\'s claims', async () => {
    const ca = await pricing({ state: 'ca' });
    // CA providers A, B. 99213: ref median(100, 120) = 110 [2]; alpha A 90 [1]; beta (D, NY) none -> +20, 22.2 %, claims 60.
    // 70450: ref A 500 [1]; alpha median(400, 450) = 425 [2] -> +75, 17.6 %, claims 10.
    // 80053: ref B 30, no competitor, no CA claims -> 0. G0008: ref's provider has no state; alpha 20, beta 10.
    // 99283 and the both unit: C and D are in NY: absent.
    expect(units(ca)).toEqual(['70450', '99213', '80053', 'G0008']);
    expect(byUnit(ca, '99213')).toMatchObject({ reference_price: 110, market_average: 90, overpayment: 20, claims_volume: 60, potential_savings: 1200, thin: true });
    expect(byUnit(ca, '70450')).toMatchObject({ reference_price: 500, market_average: 425, claims_volume: 10, potential_savings: 750, thin: true });
    expect(byUnit(ca, '80053')).toMatchObject({ reference_price: 30, claims_volume: 0 });
    expect(byUnit(ca, 'G0008')).toMatchObject({ reference_price: null, market_average: 15, reference_variance: null, thin: false });
    // Every unit with a variance rests on one provider somewhere: no card figure.
    expect(ca.summary).toMatchObject({ avg_overpayment: null, services_total: 0, total_potential_savings: 0 });
    // With min_providers 1: (2000/90 x 60 + 7500/425 x 10) / 70 = 21.57
    const l = await pricing({ state: 'CA' }, fx.loose);
    expect(l.summary.avg_overpayment).toBeCloseTo(((2000 / 90) * 60 + (7500 / 425) * 10) / 70, 10);
    expect(l.summary.total_potential_savings).toBe(1950);
  });

  it('weighs by a state\'s own claims even where they are zero', async () => {
    const ny = await pricing({ state: 'NY' }, fx.loose);
    // 99213: ref C 140; alpha C 110; beta D 130 -> market 120, +20, 16.7 %, claims 40 (the both unit: D 90, no competitor).
    // 70450: ref 700; alpha 520; beta 600 -> market 560, +140, 25 %, but NY has no 70450 claims: savings 0.
    expect(byUnit(ny, '99213')).toMatchObject({ reference_price: 140, market_average: 120, claims_volume: 40 });
    expect(byUnit(ny, '99213 both')).toMatchObject({ reference_price: 90, market_average: null, claims_volume: 0 });
    expect(byUnit(ny, '70450')).toMatchObject({ overpayment: 140, reference_variance: 25, claims_volume: 0, potential_savings: 0 });
    // Weighted: (2000/120 x 40 + 25 x 0) / 40 = 16.67.
    expect(ny.summary.avg_overpayment).toBeCloseTo(2000 / 120, 10);
    // Radiology alone in NY: every weight is 0, so the plain mean: 25.
    expect((await pricing({ state: 'NY', category: 'Radiology' }, fx.loose)).summary.avg_overpayment).toBe(25);
  });

  it('answers an empty list for a state without rates', async () => {
    const tx = await pricing({ state: 'TX' });
    expect(tx.records).toEqual([]);
    expect(tx.summary).toEqual({ total_potential_savings: 0, avg_overpayment: null, services_overpaying: 0, services_total: 0, comparing_against: 2 });
  });

  it('uses each insurer\'s latest snapshot at or before the month asked', async () => {
    // M = 2025-01: ref 2025-01, beta 2025-01, alpha has none (absent).
    const jan = await pricing({ snapshot: '2025-01' }, fx.loose);
    expect(jan.snapshot).toBe('2025-01');
    expect(jan.competitors).toEqual(['alpha', 'beta']);
    // 99213: 95 vs 130 -> -35; 70450: 480 vs 600 -> -120; G0008: beta 10 only.
    expect(units(jan)).toEqual(['99213', '70450', 'G0008']);
    expect(byUnit(jan, '99213')).toMatchObject({ reference_price: 95, competitor_prices: { beta: 130 }, overpayment: -35 });
    // (-3500/130 x 100 + -20 x 10) / 110
    expect(jan.summary.avg_overpayment).toBeCloseTo(((-3500 / 130) * 100 - 200) / 110, 10);
    expect(jan.summary).toMatchObject({ services_overpaying: 0, services_total: 2, comparing_against: 2 });
    // With min_providers 2 every January price rests on one provider.
    expect((await pricing({ snapshot: '2025-01' })).summary.services_total).toBe(0);
    // The explicit latest month equals the default.
    expect(await pricing({ snapshot: '2025-02' })).toEqual(await pricing());
  });
});

describe('pages', () => {
  // A page prices its codes again with the competitors' lists (workers/api/service-pricing.ts): its
  // records must be those of the answer with every unit, lists included.
  const SELECTIONS: Array<Record<string, string>> = [
    {},
    { sort: 'savings', only_overpaying: 'true' },
    { sort: 'variance', billing_class: 'professional' },
    { state: 'NY' },
    { competitors: 'alpha' },
    { shared_providers: '1' },
    { snapshot: '2025-01' },
  ];
  it.each(SELECTIONS)('equal the whole answer, page by page (%o)', async (query) => {
    for (const at of [fx.strict, fx.loose]) {
      const whole = await okBody<ServicePricingResult>(at, '/api/service-pricing', query);
      expect(whole.records.length).toBeGreaterThan(0);
      for (let offset = 0; offset < whole.records.length; offset += 2) {
        const page = await okBody<ServicePricingResult>(at, '/api/service-pricing', { ...query, limit: '2', offset: String(offset) });
        expect(page.records).toEqual(whole.records.slice(offset, offset + 2));
        expect({ ...page.summary, total: page.total }).toEqual({ ...whole.summary, total: whole.total });
      }
    }
  });
});
