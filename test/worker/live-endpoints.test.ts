/**
 * Dashboard and live-search endpoints over the fixture dataset (test/fixtures/api, converted by the
 * real converter); expected figures from the MRFs by hand (see the header of service-pricing.test.ts;
 * providers A = 1111111112 ANNA SMITH CA, B = 2222222228 BAY CLINIC LLC CA, C = 3333333334 HUDSON
 * HOSPITAL NY, D = 4444444440 DAVID JONES NY, T = TIN:123456789 without NPI nor registry entry).
 * Medicare localities (reference-data: ZIP5 -> carrier, locality -> GPCI 2025): A (94010) and B
 * (94110) 01112-05 San Francisco, GPCI work 1.088, PE 1.419, MP 0.445; C (10001) and D (10002)
 * 13202-01 Manhattan, 1.065, 1.166, 1.656. `loose` is the catalog with `validation.min_providers: 1`.
 */
import { describe, expect, it } from 'vitest';
import type {
  ApiErrorBody,
  DatasetInfo,
  InsurerListItem,
  PriceDetail,
  ProvidersForService,
  RegionalComparison,
  RegionalServiceRow,
  ServiceListItem,
  ServicesSearch,
  ServicePricingResult,
  TrendPoint,
} from '../../contract/api';
import { bootStrictAndLoose, okBody, type BootedFixture } from './fixture-dataset';

const fx = bootStrictAndLoose();

function ok<T>(path: string, query: Record<string, string> = {}, at: BootedFixture = fx.strict): Promise<T> {
  return okBody<T>(at, path, query);
}

describe('dashboard endpoints', () => {
  it('regional-comparison: Average Overpayment per state with that state\'s claims, thin units left out', async () => {
    // min_providers 2: in CA and NY every unit with a variance has a price on one provider: no state.
    expect(await ok<RegionalComparison[]>('/api/regional-comparison')).toEqual([]);
    const r = await ok<RegionalComparison[]>('/api/regional-comparison', {}, fx.loose);
    // CA: 99213 110 vs 90 = 22.22 % (claims 60), 70450 500 vs 425 = 17.65 % (10): (2000/90*60 + 7500/425*10) / 70.
    // NY: 99213 professional C 140 vs (110 + 130) / 2 = 120: 16.67 % (40), 70450 700 vs 560 = 25 % (0 claims in NY):
    // 2000/120 (the both unit, D 90, has no competitor).
    expect(r.map((x) => [x.region, x.services, x.claims_count])).toEqual([['CA', 2, 70], ['NY', 2, 40]]);
    expect(r[0]!.anthem_avg_overpayment).toBeCloseTo(((2000 / 90) * 60 + (7500 / 425) * 10) / 70, 10);
    expect(r[1]!.anthem_avg_overpayment).toBeCloseTo(2000 / 120, 10);
  });

  it('regional-services: the modal rows of one state', async () => {
    const r = await ok<RegionalServiceRow[]>('/api/regional-services', { state: 'ca' });
    // 99213: alpha's 90 rests on A alone; 70450 ref's 500 on A alone, 80053 ref's 30 on B alone: thin.
    expect(r.map((x) => [x.service_code, x.billing_class, x.setting, x.your_price, x.market_avg, x.thin])).toEqual([
      ['99213', 'professional', 'non-facility', 110, 90, true],
      ['70450', 'institutional', 'facility', 500, 425, true],
      ['80053', 'professional', 'non-facility', 30, null, true],
      ['G0008', 'professional', 'non-facility', null, 15, false],
    ]);
    expect(r[0]!.overpayment_pct).toBeCloseTo(2000 / 90, 10);
    expect(await ok<RegionalServiceRow[]>('/api/regional-services', { state: 'TX' })).toEqual([]);
  });

  it('overpayment-trend: each month with each insurer\'s latest snapshot', async () => {
    // min_providers 2: every 2025-01 price rests on one provider, so that month has no unit to count.
    const strict = await ok<TrendPoint[]>('/api/overpayment-trend');
    expect(strict.map((p) => p.month)).toEqual(['2025-02']);
    // 2025-02: the Average Overpayment of service-pricing's summary (99213 and 70450; G0008 is thin).
    expect(strict[0]!.value).toBeCloseTo(((500 / 115) * 100 + (7500 / 525) * 10) / 110, 10);
    const t = await ok<TrendPoint[]>('/api/overpayment-trend', {}, fx.loose);
    expect(t.map((p) => p.month)).toEqual(['2025-01', '2025-02']);
    // 2025-01: 99213 95 vs 130 (claims 100), 70450 480 vs 600 = -20 % (10).
    expect(t[0]!.value).toBeCloseTo(((-3500 / 130) * 100 - 200) / 110, 10);
    // 2025-02: 99213 500/115 % (100), 70450 7500/525 % (10), G0008 1000/15 % (20).
    expect(t[1]!.value).toBeCloseTo(((500 / 115) * 100 + (7500 / 525) * 10 + (1000 / 15) * 20) / 130, 10);
  });
});

describe('live search', () => {
  it('service-names lists CPT/HCPCS services by code', async () => {
    const s = await ok<ServiceListItem[]>('/api/service-names');
    expect(s.map((x) => x.id)).toEqual(['70450', '80053', '99213', '99283', 'G0008']);
    expect(s[4]).toEqual({ id: 'G0008', name: 'Flu vaccine administration', billing_code_type: 'HCPCS', category: 'Vaccines' });
  });

  it('services-search: the converted services table, matched on name, description and keywords', async () => {
    // Names of test/fixtures/api/services.csv, by name: Comprehensive, CT head, Emergency, Flu, Office.
    const all = await ok<ServicesSearch>('/api/services-search');
    expect([all.items.map((x) => x.id), all.total]).toEqual([['80053', '70450', '99283', 'G0008', '99213'], 5]);
    const names = await ok<ServiceListItem[]>('/api/service-names');
    expect(all.items.find((x) => x.id === 'G0008')).toEqual(names.find((x) => x.id === 'G0008'));
    // 'visit' is inside two names (no prefix): by name, one a page, the total 2.
    expect(await ok<ServicesSearch>('/api/services-search', { q: 'Visit', limit: '1' })).toEqual({ items: [names.find((x) => x.id === '99283')], total: 2 });
    expect((await ok<ServicesSearch>('/api/services-search', { q: 'tomography' })).items.map((x) => x.id)).toEqual(['70450']); // description
    expect((await ok<ServicesSearch>('/api/services-search', { q: 'shot' })).items.map((x) => x.id)).toEqual(['G0008']); // keywords
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
    expect(await ok<InsurerListItem[]>('/api/insurers-for-service', { service_id: '99283' })).toEqual([{ id: 'alpha', name: 'Alpha Insurance', group: 'Alpha Insurance' }]);
    const g = await ok<InsurerListItem[]>('/api/insurers-for-service', { service_id: 'G0008' });
    expect(g.map((x) => x.id)).toEqual(['ref', 'alpha', 'beta']);
  });

  it('service-price-details: each distinct row, percentage and per diem kept but never in the averages', async () => {
    const d = await ok<PriceDetail[]>('/api/service-price-details', { service_id: '70450', provider_id: '3333333334', insurer_id: 'ref' });
    // ref at C: negotiated 700, percentage 50. Reference Price = 700; Market = mean(alpha 520, beta 600) = 560.
    // % of Medicare: an institutional unit has an OPPS (national) benchmark, 106.34: 700 / 106.34.
    expect(d.map((x) => [x.negotiated_type, x.price, x.price_unit, x.referencePrice, x.marketAverage, x.medicare_basis, x.validation])).toEqual([
      ['negotiated', 700, 'usd', 700, 560, 'national', null],
      ['percentage', 50, 'percent', 700, 560, null, null],
    ]);
    expect(d[0]!.medicare_pct).toBeCloseTo((100 * 700) / 106.34, 10);
    expect(d[1]!.medicare_pct).toBeNull();
    expect([d[0]!.component, d[0]!.setting]).toEqual(['global', 'facility']);
    expect(d[0]).toMatchObject({ serviceName: 'CT head without contrast', providerName: 'HUDSON HOSPITAL', insurerName: 'Reference Health', billing_class: 'institutional', snapshot: '2025-02' });
    const perDiem = await ok<PriceDetail[]>('/api/service-price-details', { service_id: '70450', provider_id: '1111111112', insurer_id: 'ref' });
    // ref at A: 500 and per diem 1500; reference 500 (not 1000), market alpha A 400.
    expect(perDiem.map((x) => [x.price, x.price_unit, x.referencePrice, x.marketAverage])).toEqual([
      [500, 'usd', 500, 400],
      [1500, 'usd_per_day', 500, 400],
    ]);
    // A provider without NPI, and a competitor's view with no reference price there.
    const tin = await ok<PriceDetail[]>('/api/service-price-details', { service_id: 'G0008', provider_id: 'TIN:123456789', insurer_id: 'ref' });
    // G0008 has no benchmark (PFS status X, no CLFS line).
    expect(tin.map((x) => [x.providerName, x.price, x.referencePrice, x.marketAverage, x.medicare_pct, x.medicare_basis])).toEqual([
      ['TIN:123456789', 25, 25, null, null, null],
    ]);
    const alpha = await ok<PriceDetail[]>('/api/service-price-details', { service_id: '99283', provider_id: '3333333334', insurer_id: 'alpha' });
    expect(alpha.map((x) => [x.price, x.referencePrice, x.marketAverage, x.service_codes, x.medicare_basis])).toEqual([[200, null, 200, '11', 'locality']]);
    // 99283 non-facility at C (Manhattan): (1.60 x 1.065 + 0.35 x 1.166 + 0.16 x 1.656) x 32.3465 = 76.8896 -> 76.89.
    expect(alpha[0]!.medicare_pct).toBeCloseTo((100 * 200) / 76.89, 10);
    // 99213 at A (San Francisco): (1.30 x 1.088 + 1.35 x 1.419 + 0.10 x 0.445) x 32.3465 = 109.1549 -> 109.15;
    // Reference Price over the professional unit only (A 100), not the both row of D.
    const visit = await ok<PriceDetail[]>('/api/service-price-details', { service_id: '99213', provider_id: '1111111112', insurer_id: 'ref' });
    expect(visit.map((x) => [x.price, x.billing_class, x.referencePrice, x.marketAverage, x.medicare_basis])).toEqual([[100, 'professional', 100, 90, 'locality']]);
    expect(visit[0]!.medicare_pct).toBeCloseTo((100 * 100) / 109.15, 10);
  });
});

describe('service-pricing with a provider selection', () => {
  it('computes medians from those providers\' rate rows, per unit', async () => {
    const r = await ok<ServicePricingResult>('/api/service-pricing', { providers: '1111111112,3333333334' });
    const by = (c: string) => r.records.find((x) => x.service_code === c)!;
    // A and C. 99213: ref median(100, 140) = 120, alpha median(90, 110) = 100, beta (D) none -> +20, 20 %.
    expect(by('99213')).toMatchObject({ reference_price: 120, competitor_prices: { alpha: 100 }, market_average: 100, overpayment: 20 });
    // 70450: ref median(500, 700) = 600 (per diem 1500 and percentage 50 left out); alpha median(400, 520) = 460; beta C 600.
    expect(by('70450')).toMatchObject({ reference_price: 600, competitor_prices: { alpha: 460, beta: 600 }, market_average: 530 });
    // 80053: ref C 40 (B's 30 not selected); G0008: ref T not selected -> only alpha A 20.
    expect(by('80053')).toMatchObject({ reference_price: 40, reference_providers: 1, thin: true });
    expect(by('G0008')).toMatchObject({ reference_price: null, competitor_prices: { alpha: 20 }, thin: true });
    // Two providers selected: min_providers stays 2; 99213 and 70450 rest on 2 on each side.
    expect([by('99213').thin, by('70450').thin, by('70450').competitor_providers]).toEqual([false, false, { alpha: 2, beta: 1 }]);
    // D's both row is not selected: no both unit.
    expect(r.records.filter((x) => x.billing_class === 'both')).toEqual([]);
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
    // The cards count 99213 and 70450 (80053, 99283 and G0008 are thin and have no variance).
    expect(page.summary).toMatchObject({ total_potential_savings: 2700, services_overpaying: 2, services_total: 2, comparing_against: 2 });
    // (20 x 100 + 7000/530 x 10) / 110 = 19.3825
    expect(page.summary.avg_overpayment).toBeCloseTo((20 * 100 + (7000 / 530) * 10) / 110, 10);
    const last = await ok<ServicePricingResult>('/api/service-pricing', { ...query, limit: '2', offset: '3' });
    expect(last.records.map((x) => x.service_code)).toEqual(['99283', 'G0008']);
    expect(last.summary).toEqual(page.summary);
    const only = await ok<ServicePricingResult>('/api/service-pricing', { ...query, only_overpaying: 'true', limit: '10', offset: '0' });
    expect(only.records.map((x) => x.service_code)).toEqual(['70450', '99213']);
    expect([only.total, only.summary.services_total]).toEqual([2, 2]);
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
    const res = await fx.strict.get(path, query);
    expect(res.status).toBe(400);
    expect(res.body as ApiErrorBody).toEqual({ message, error: { code: 'bad_request', message } });
  });

  it('answers an unknown provider with an empty list, and keeps every table', async () => {
    expect(await ok<PriceDetail[]>('/api/service-price-details', { service_id: '99213', provider_id: '999', insurer_id: 'ref' })).toEqual([]);
    expect((await ok<ServicePricingResult>('/api/service-pricing')).total).toBe(6);
    expect((await ok<ServiceListItem[]>('/api/service-names')).length).toBe(5);
  });

  it('says which dataset answers', async () => {
    const d = await ok<DatasetInfo>('/api/dataset');
    expect(d).toMatchObject({ origin: 'local', snapshots: ['2025-01', '2025-02'], reference_insurer: 'ref', insurers: 3, rate_rows: 25 });
  });
});
