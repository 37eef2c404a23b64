/**
 * The traceability endpoints over the fixture dataset (test/fixtures/api, converted by the real
 * converter): the rate rows behind a median, the coverage page, the provider search. Expected
 * figures by hand from the fixture files (see the header of service-pricing.test.ts; providers
 * A = 1111111112 ANNA SMITH CA, B = 2222222228 BAY CLINIC LLC CA, C = 3333333334 HUDSON HOSPITAL NY,
 * D = 4444444440 DAVID JONES NY, T = TIN:123456789).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoverageResult, ProviderSearchResult, RateRowsResult, ServicePricingResult } from '../../contract/api';
import { medianOf } from '../../workers/api/rate-rows';
import { bootFixture, type BootedFixture } from './fixture-dataset';

let f: BootedFixture;

beforeAll(async () => {
  f = await bootFixture();
  expect(f.state.status).toBe('ready');
});
afterAll(async () => f?.dispose());

async function ok<T>(path: string, query: Record<string, string> = {}): Promise<T> {
  const res = await f.get(path, query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as T;
}

describe('GET /api/rate-rows', () => {
  it('lists the distinct dollar rows behind ref 99213 and their median', async () => {
    const r = await ok<RateRowsResult>('/api/rate-rows', { service_id: '99213', insurer_id: 'ref' });
    // ref 2025-02 99213, every unit: A 100, B 120, C 140 (professional), D 90 (both) -> median (100 + 120) / 2 = 110.
    expect(r.snapshot).toBe('2025-02');
    expect(r.rows.map((x) => [x.provider_id, x.negotiated_rate, x.billing_class, x.component, x.setting, x.validation])).toEqual([
      ['4444444440', 90, 'both', 'global', 'non-facility', null], ['1111111112', 100, 'professional', 'global', 'non-facility', null],
      ['2222222228', 120, 'professional', 'global', 'non-facility', null], ['3333333334', 140, 'professional', 'global', 'non-facility', null],
    ]);
    expect(r.median).toBe(110);
    expect([r.rate_count, r.provider_count, r.other_rows, r.failed_rows, r.component, r.setting]).toEqual([4, 4, 0, 0, null, null]);
    // % of Medicare at each provider's locality (PFS 99213 non-facility: work 1.30, PE 1.35, MP 0.10; a both
    // row is benchmarked as professional): D in Manhattan (1.30 x 1.065 + 1.35 x 1.166 + 0.10 x 1.656) x 32.3465
    // = 101.0569 -> 101.06; A in San Francisco (1.30 x 1.088 + 1.35 x 1.419 + 0.10 x 0.445) x 32.3465 = 109.15.
    expect(r.rows.map((x) => x.medicare_basis)).toEqual(['locality', 'locality', 'locality', 'locality']);
    expect(r.rows[0]!.medicare_pct).toBeCloseTo((100 * 90) / 101.06, 10);
    expect(r.rows[1]!.medicare_pct).toBeCloseTo((100 * 100) / 109.15, 10);
    // The rows behind the reference price of the professional unit: A, B, C -> 120, the price /api/service-pricing shows.
    const unit = await ok<RateRowsResult>('/api/rate-rows', {
      service_id: '99213', insurer_id: 'ref', billing_class: 'professional', component: 'global', setting: 'non-facility',
    });
    expect(unit.rows.map((x) => x.provider_id)).toEqual(['1111111112', '2222222228', '3333333334']);
    expect([unit.median, unit.rate_count, unit.billing_class, unit.component, unit.setting]).toEqual([120, 3, 'professional', 'global', 'non-facility']);
    const pricing = await ok<ServicePricingResult>('/api/service-pricing', { services: '99213' });
    const professional = pricing.records.find((x) => x.billing_class === 'professional')!;
    expect([professional.reference_price, professional.reference_providers]).toEqual([unit.median, unit.provider_count]);
    const both = await ok<RateRowsResult>('/api/rate-rows', { service_id: '99213', insurer_id: 'ref', billing_class: 'both', component: 'global', setting: 'non-facility' });
    expect(both.rows.map((x) => x.negotiated_rate)).toEqual([90]);
    // Every row names its file: ref's 2025-02 file, with its reporting entity.
    expect(r.sources).toHaveLength(1);
    expect(r.sources[0]!.url).toBe('mrf/ref-2025-02.json');
    expect(r.sources[0]!.rows).toBe(4);
    expect(r.sources[0]!.reporting_entity_name).not.toBe('');
    expect(r.rows.every((x) => x.source_ids.includes(r.sources[0]!.source_id))).toBe(true);
  });

  it('counts an identical row published twice once, and keeps non-dollar rows out of the median', async () => {
    // ref 80053: B 30 twice (two in_network items: one row), C 40 -> median 35.
    const lab = await ok<RateRowsResult>('/api/rate-rows', { service_id: '80053', insurer_id: 'ref' });
    expect(lab.rows.map((x) => x.negotiated_rate)).toEqual([30, 40]);
    expect(lab.median).toBe(35);
    // ref 70450: A 500, C 700 dollar rows; A per diem 1500 and C percentage 50 are other rows.
    const ct = await ok<RateRowsResult>('/api/rate-rows', { service_id: '70450', insurer_id: 'ref' });
    expect(ct.rows.map((x) => x.negotiated_rate)).toEqual([500, 700]);
    expect(ct.median).toBe(600);
    expect(ct.other_rows).toBe(2);
    // Institutional: the OPPS amount (106.34), national whatever the provider's locality.
    expect(ct.rows.map((x) => [x.setting, x.medicare_basis])).toEqual([['facility', 'national'], ['facility', 'national']]);
    expect(ct.rows[0]!.medicare_pct).toBeCloseTo((100 * 500) / 106.34, 10);
  });

  it('narrows by state, billing class and month like the medians do', async () => {
    // CA: A 100, B 120 -> 110 (D 90 is NY, C 140 NY).
    const ca = await ok<RateRowsResult>('/api/rate-rows', { service_id: '99213', insurer_id: 'ref', state: 'ca' });
    expect(ca.rows.map((x) => x.provider_id)).toEqual(['1111111112', '2222222228']);
    expect(ca.median).toBe(110);
    // Institutional: only the `both` row of D (90) passes.
    const inst = await ok<RateRowsResult>('/api/rate-rows', { service_id: '99213', insurer_id: 'ref', billing_class: 'institutional' });
    expect(inst.rows.map((x) => x.negotiated_rate)).toEqual([90]);
    // 2025-01: ref 99213 A 95; beta contributes its 2025-01 file at M = 2025-02 (D 130).
    const jan = await ok<RateRowsResult>('/api/rate-rows', { service_id: '99213', insurer_id: 'ref', snapshot: '2025-01' });
    expect([jan.snapshot, jan.median]).toEqual(['2025-01', 95]);
    const beta = await ok<RateRowsResult>('/api/rate-rows', { service_id: '99213', insurer_id: 'beta' });
    expect([beta.snapshot, beta.median]).toEqual(['2025-01', 130]);
    // alpha has no file at or before 2025-01.
    const none = await ok<RateRowsResult>('/api/rate-rows', { service_id: '99213', insurer_id: 'alpha', snapshot: '2025-01' });
    expect([none.snapshot, none.median, none.rows.length]).toEqual([null, null, 0]);
  });

  it('rejects an unknown insurer or service with 400', async () => {
    expect((await f.get('/api/rate-rows', { service_id: '99213', insurer_id: 'nobody' })).status).toBe(400);
    expect((await f.get('/api/rate-rows', { service_id: '00000', insurer_id: 'ref' })).status).toBe(400);
    expect((await f.get('/api/rate-rows', { service_id: '99213', insurer_id: 'ref', state: 'C1' })).status).toBe(400);
    // A unit needs its class, component and setting; `both` is a unit's class, not a chip.
    expect((await f.get('/api/rate-rows', { service_id: '99213', insurer_id: 'ref', component: 'global' })).status).toBe(400);
    expect((await f.get('/api/rate-rows', { service_id: '99213', insurer_id: 'ref', component: 'global', setting: 'facility', billing_class: 'all' })).status).toBe(400);
    expect((await f.get('/api/rate-rows', { service_id: '99213', insurer_id: 'ref', billing_class: 'both' })).status).toBe(400);
  });

  it('medianOf: midpoint of the two middle values when even', () => {
    expect(medianOf([])).toBeNull();
    expect(medianOf([3, 1, 2])).toBe(2);
    expect(medianOf([4, 1, 3, 2])).toBe(2.5);
  });
});

describe('GET /api/coverage', () => {
  it('sums the manifest sources per insurer and snapshot and reads report.json', async () => {
    const c = await ok<CoverageResult>('/api/coverage');
    expect(c.groups.map((g) => [g.insurer_id, g.snapshot, g.files])).toEqual([
      ['alpha', '2025-02', 1], ['beta', '2025-01', 1], ['ref', '2025-01', 1], ['ref', '2025-02', 1],
    ]);
    expect(c.sources.map((s) => s.url)).toEqual(expect.arrayContaining(['mrf/ref-2025-02.json', 'mrf/beta-2025-01.json']));
    const sum = c.groups.reduce((a, g) => a + g.rate_rows, 0);
    expect(sum).toBe(c.counts.rate_rows);
    expect(c.report.available).toBe(true);
    expect(c.report.reason).toBeNull();
    // Every problem of a source's file is counted on that source.
    for (const s of c.sources) expect(Object.values(s.problem_codes).reduce((a, b) => a + b, 0)).toBe(s.problems);
    // Validation: every fixture rate lies within 0.3-30 x its benchmark; the settings and CMS data of the manifest.
    for (const g of c.groups) expect(g.validation).toEqual({ source_not_dollars: 0, below_benchmark: 0, above_benchmark: 0, outlier: 0 });
    expect(c.validation).toMatchObject({ min_ratio: 0.3, max_ratio: 30, min_providers: 2 });
    expect(c.medicare.conversion_factor).toBe(32.3465);
    expect(c.headline.snapshot).toBe('2025-02');
  });
});

describe('GET /api/providers', () => {
  it('finds providers by name or id, prefix first, with the total', async () => {
    const all = await ok<ProviderSearchResult>('/api/providers', { limit: '100' });
    // A, B, C, D and the TIN-only provider T.
    expect(all.total).toBe(5);
    const bay = await ok<ProviderSearchResult>('/api/providers', { q: 'BAY' });
    expect(bay.items.map((p) => p.id)).toEqual(['2222222228']);
    const tin = await ok<ProviderSearchResult>('/api/providers', { q: 'tin:' });
    expect(tin.items.map((p) => p.id)).toEqual(['TIN:123456789']);
    const one = await ok<ProviderSearchResult>('/api/providers', { limit: '1' });
    expect([one.items.length, one.total]).toEqual([1, 5]);
  });
});
