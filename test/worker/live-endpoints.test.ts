/**
 * Dashboard and live-search endpoints over the fixture dataset (test/fixtures/api, converted by the
 * real converter); expected figures from the MRFs by hand (see the header of service-pricing.test.ts;
 * providers A = 1111111112 ANNA SMITH CA, B = 2222222228 BAY CLINIC LLC CA, C = 3333333334 HUDSON
 * HOSPITAL NY, D = 4444444440 DAVID JONES NY, T = TIN:123456789 without NPI nor registry entry).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ApiErrorBody,
  DatasetInfo,
  InsurerListItem,
  PriceDetail,
  ProvidersForService,
  RegionalComparison,
  RegionalServiceRow,
  ServiceListItem,
  ServicePricingResult,
  TrendPoint,
} from '../../contract/api';
import { bootFixture, type BootedFixture } from './fixture-dataset';

let f: BootedFixture;

beforeAll(async () => {
  f = await bootFixture();
});
afterAll(async () => f?.dispose());

async function ok<T>(path: string, query: Record<string, string> = {}): Promise<T> {
  const res = await f.get(path, query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as T;
}

describe('dashboard endpoints', () => {
  it('regional-comparison: Average Overpayment per state with that state\'s claims', async () => {
    const r = await ok<RegionalComparison[]>('/api/regional-comparison');
    // CA: 99213 110 vs 90 = 22.22 % (claims 60), 70450 500 vs 425 = 17.65 % (10): (2000/90*60 + 7500/425*10) / 70.
    // NY: 99213 115 vs 120 = -4.17 % (40), 70450 700 vs 560 = 25 % (0 claims in NY): -500/120.
    expect(r.map((x) => [x.region, x.services, x.claims_count])).toEqual([['CA', 2, 70], ['NY', 2, 40]]);
    expect(r[0]!.anthem_avg_overpayment).toBeCloseTo(((2000 / 90) * 60 + (7500 / 425) * 10) / 70, 10);
    expect(r[1]!.anthem_avg_overpayment).toBeCloseTo(-500 / 120, 10);
  });

  it('regional-services: the modal rows of one state', async () => {
    const r = await ok<RegionalServiceRow[]>('/api/regional-services', { state: 'ca' });
    expect(r.map((x) => [x.service_code, x.your_price, x.market_avg])).toEqual([
      ['99213', 110, 90],
      ['70450', 500, 425],
      ['80053', 30, null],
      ['G0008', null, 15],
    ]);
    expect(r[0]!.overpayment_pct).toBeCloseTo(2000 / 90, 10);
    expect(await ok<RegionalServiceRow[]>('/api/regional-services', { state: 'TX' })).toEqual([]);
  });

  it('overpayment-trend: each month with each insurer\'s latest snapshot', async () => {
    const t = await ok<TrendPoint[]>('/api/overpayment-trend');
    expect(t.map((p) => p.month)).toEqual(['2025-01', '2025-02']);
    // 2025-01: 99213 95 vs 130 (claims 100), 70450 480 vs 600 = -20 % (10).
    expect(t[0]!.value).toBeCloseTo(((-3500 / 130) * 100 - 200) / 110, 10);
    // 2025-02: the Average Overpayment of service-pricing's summary.
    expect(t[1]!.value).toBeCloseTo(((-500 / 115) * 100 + (7500 / 525) * 10 + (1000 / 15) * 20) / 130, 10);
  });
});

describe('live search', () => {
  it('service-names lists CPT/HCPCS services by code', async () => {
    const s = await ok<ServiceListItem[]>('/api/service-names');
    expect(s.map((x) => x.id)).toEqual(['70450', '80053', '99213', '99283', 'G0008']);
    expect(s[4]).toEqual({ id: 'G0008', name: 'Flu vaccine administration', billing_code_type: 'HCPCS', category: 'Vaccines' });
  });

  it('providers-for-service: every provider with any row (dollar or not), paged with the total', async () => {
    const all = await ok<ProvidersForService>('/api/providers-for-service', { service_id: 'G0008' });
    // ref T (no NPI: named by its id), alpha A, beta B.
    expect(all).toEqual({
      total: 3,
      items: [
        { id: '1111111112', name: 'ANNA SMITH', npi: '1111111112', state: 'CA' },
        { id: '2222222228', name: 'BAY CLINIC LLC', npi: '2222222228', state: 'CA' },
        { id: 'TIN:123456789', name: 'TIN:123456789', npi: null, state: null },
      ],
    });
    // 70450 providers: A, B, C; 'h' matches HUDSON HOSPITAL (prefix) and ANNA SMITH (substring).
    const typed = await ok<ProvidersForService>('/api/providers-for-service', { service_id: '70450', q: 'H', limit: '1' });
    expect(typed).toEqual({ total: 2, items: [{ id: '3333333334', name: 'HUDSON HOSPITAL', npi: '3333333334', state: 'NY' }] });
    const none = await ok<ProvidersForService>('/api/providers-for-service', { service_id: '70450', q: "' OR 1=1 --" });
    expect(none).toEqual({ total: 0, items: [] });
  });

  it('insurers-for-service: the reference first, then by name', async () => {
    expect(await ok<InsurerListItem[]>('/api/insurers-for-service', { service_id: '99283' })).toEqual([{ id: 'alpha', name: 'Alpha Insurance' }]);
    const g = await ok<InsurerListItem[]>('/api/insurers-for-service', { service_id: 'G0008' });
    expect(g.map((x) => x.id)).toEqual(['ref', 'alpha', 'beta']);
  });

  it('service-price-details: each distinct row, percentage and per diem kept but never in the averages', async () => {
    const d = await ok<PriceDetail[]>('/api/service-price-details', { service_id: '70450', provider_id: '3333333334', insurer_id: 'ref' });
    // ref at C: negotiated 700, percentage 50. Reference Price = 700; Market = mean(alpha 520, beta 600) = 560.
    expect(d.map((x) => [x.negotiated_type, x.price, x.price_unit, x.referencePrice, x.marketAverage])).toEqual([
      ['negotiated', 700, 'usd', 700, 560],
      ['percentage', 50, 'percent', 700, 560],
    ]);
    expect(d[0]).toMatchObject({ serviceName: 'CT head without contrast', providerName: 'HUDSON HOSPITAL', insurerName: 'Reference Health', billing_class: 'institutional', snapshot: '2025-02' });
    const perDiem = await ok<PriceDetail[]>('/api/service-price-details', { service_id: '70450', provider_id: '1111111112', insurer_id: 'ref' });
    // ref at A: 500 and per diem 1500; reference 500 (not 1000), market alpha A 400.
    expect(perDiem.map((x) => [x.price, x.price_unit, x.referencePrice, x.marketAverage])).toEqual([
      [500, 'usd', 500, 400],
      [1500, 'usd_per_day', 500, 400],
    ]);
    // A provider without NPI, and a competitor's view with no reference price there.
    const tin = await ok<PriceDetail[]>('/api/service-price-details', { service_id: 'G0008', provider_id: 'TIN:123456789', insurer_id: 'ref' });
    expect(tin.map((x) => [x.providerName, x.price, x.referencePrice, x.marketAverage])).toEqual([['TIN:123456789', 25, 25, null]]);
    const alpha = await ok<PriceDetail[]>('/api/service-price-details', { service_id: '99283', provider_id: '3333333334', insurer_id: 'alpha' });
    expect(alpha.map((x) => [x.price, x.referencePrice, x.marketAverage, x.service_codes])).toEqual([[200, null, 200, '11']]);
  });
});

describe('service-pricing with a provider selection', () => {
  it('computes medians from those providers\' rate rows', async () => {
    const r = await ok<ServicePricingResult>('/api/service-pricing', { providers: '1111111112,3333333334' });
    const by = (c: string) => r.records.find((x) => x.service_code === c)!;
    // A and C. 99213: ref median(100, 140) = 120, alpha median(90, 110) = 100, beta (D) none -> +20, 20 %.
    expect(by('99213')).toMatchObject({ reference_price: 120, competitor_prices: { alpha: 100 }, market_average: 100, overpayment: 20 });
    // 70450: ref median(500, 700) = 600 (per diem 1500 and percentage 50 left out); alpha median(400, 520) = 460; beta C 600.
    expect(by('70450')).toMatchObject({ reference_price: 600, competitor_prices: { alpha: 460, beta: 600 }, market_average: 530 });
    // 80053: ref C 40 (B's 30 not selected); G0008: ref T not selected -> only alpha A 20.
    expect(by('80053').reference_price).toBe(40);
    expect(by('G0008')).toMatchObject({ reference_price: null, competitor_prices: { alpha: 20 } });
    // With a state: CA keeps A only: 99213 ref 100 vs alpha 90.
    const ca = await ok<ServicePricingResult>('/api/service-pricing', { providers: '1111111112,3333333334', state: 'CA', services: '99213' });
    expect(ca.records.map((x) => [x.service_code, x.reference_price, x.market_average])).toEqual([['99213', 100, 90]]);
  });

  it('pages the selection and sums the summary over the whole filtered set', async () => {
    // A and C, national: 70450 +70 (100 x 70 / 530 = 13.2075 %, claims 10, savings 700); 99213 +20
    // (20 %, claims 100, savings 2,000); 80053, 99283, G0008 without an overpayment (nulls last, by code).
    const query = { providers: '1111111112,3333333334', sort: 'overpayment', limit: '1', offset: '1' };
    const page = await ok<ServicePricingResult>('/api/service-pricing', query);
    expect(page.records.map((x) => x.service_code)).toEqual(['99213']);
    expect([page.total, page.offset, page.limit]).toEqual([5, 1, 1]);
    expect(page.summary).toMatchObject({ total_potential_savings: 2700, services_overpaying: 2, services_total: 5, comparing_against: 2 });
    // (20 x 100 + 7000/530 x 10) / 110 = 19.3825
    expect(page.summary.avg_overpayment).toBeCloseTo((20 * 100 + (7000 / 530) * 10) / 110, 10);
    const last = await ok<ServicePricingResult>('/api/service-pricing', { ...query, limit: '2', offset: '3' });
    expect(last.records.map((x) => x.service_code)).toEqual(['99283', 'G0008']);
    expect(last.summary).toEqual(page.summary);
    const only = await ok<ServicePricingResult>('/api/service-pricing', { ...query, only_overpaying: 'true', limit: '10', offset: '0' });
    expect(only.records.map((x) => x.service_code)).toEqual(['70450', '99213']);
    expect([only.total, only.summary.services_total]).toEqual([2, 5]);
  });
});

describe('errors and injection on the new parameters', () => {
  const cases: Array<[string, Record<string, string>, string]> = [
    ['/api/regional-services', {}, 'invalid state: '],
    ['/api/regional-services', { state: "CA' --" }, "invalid state: CA' --"],
    ['/api/regional-comparison', { snapshot: "2025-02' OR 1=1" }, "invalid snapshot: 2025-02' OR 1=1"],
    ['/api/providers-for-service', {}, 'invalid service_id: '],
    ['/api/providers-for-service', { service_id: "99213' OR '1'='1" }, "invalid service_id: 99213' OR '1'='1"],
    ['/api/providers-for-service', { service_id: '99213', limit: '0' }, 'invalid limit: 0'],
    ['/api/insurers-for-service', { service_id: '1; DROP TABLE rates' }, 'invalid service_id: 1; DROP TABLE rates'],
    ['/api/service-price-details', { service_id: '99213', provider_id: "1' OR 1=1", insurer_id: 'ref' }, "invalid provider_id: 1' OR 1=1"],
    ['/api/service-price-details', { service_id: '99213', provider_id: '1111111112', insurer_id: "ref' --" }, "invalid insurer_id: ref' --"],
    ['/api/service-pricing', { providers: "1111111112,' OR 1=1 --" }, "invalid providers: ' OR 1=1 --"],
    ['/api/service-pricing', { services: "99213,x'); DROP TABLE services; --" }, "invalid services: x'); DROP TABLE services; --"],
  ];
  it.each(cases)('%s %j -> 400', async (path, query, message) => {
    const res = await f.get(path, query);
    expect(res.status).toBe(400);
    expect(res.body as ApiErrorBody).toEqual({ message, error: { code: 'bad_request', message } });
  });

  it('answers an unknown provider with an empty list, and keeps every table', async () => {
    expect(await ok<PriceDetail[]>('/api/service-price-details', { service_id: '99213', provider_id: '999', insurer_id: 'ref' })).toEqual([]);
    expect((await ok<ServicePricingResult>('/api/service-pricing')).total).toBe(5);
    expect((await ok<ServiceListItem[]>('/api/service-names')).length).toBe(5);
  });

  it('says which dataset answers', async () => {
    const d = await ok<DatasetInfo>('/api/dataset');
    expect(d).toMatchObject({ origin: 'local', snapshots: ['2025-01', '2025-02'], reference_insurer: 'ref', insurers: 3, rate_rows: 25 });
  });
});
