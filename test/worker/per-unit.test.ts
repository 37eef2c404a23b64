/**
 * The /api figures per comparison unit (docs/methodology.md, Per comparison unit, Dashboard figures, Live
 * search, Alerts) over a small dataset written straight into DuckDB (no converter): the tables a
 * format-3 dataset holds (price_stats market rows only: `scope` 'market', `month` NULL), with prices
 * chosen so every expected figure is worked out by hand below.
 *
 * Insurers: ref (reference), a, b. min_providers 2. Claims national only (claims_by_state false).
 * price_stats, state ALL (providers in brackets), 2025-02 | 2025-01:
 *   71250 professional/26/facility      ref 80 [3], a 60 [2], b 70 [1]   | ref 60 [3], a 60 [2], b 70 [1]
 *   71250 professional/global/non-fac   ref 300 [1], a 200 [2], b 250 [2] | ref 200 [1], a 200 [2], b 250 [2]
 *   71250 institutional/global/facility ref 500 [4], a 400 [3]            | ref 400 [4], a 400 [3]
 *   71250 both/global/non-facility      ref 90 [2], a 100 [2]             | same
 *   99214 professional/global/non-fac   ref 150 [5], a 120 [4], b 130 [3] | ref 150 [5], a 100 [4], b 100 [3]
 *   99214 professional/global/facility  ref 100 [2], a 100 [1]            | ref 80 [2], a 100 [1]
 *   80053 both/global/non-facility      ref 12 [3], a 10 [3], b 14 [2]    | same
 * and state CA, 2025-02: 99214 professional/global/non-fac ref 160 [2], a 120 [2];
 *                        71250 institutional/global/facility ref 500 [1], a 400 [1].
 * Medicare (national): 99214 professional/global/non-facility 130 (PFS: work 1.5, PE 1.6, MP 0.1).
 * Claims: 71250 professional 50, institutional 20; 99214 professional 100; 80053 professional 30, institutional 10.
 */
import { memoryContext } from './memory-context';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '../../contract/rules/alert-rules';
import type { LiveServicePricingRecord, PriceDetail, RateRowsResult, RegionalComparison, RegionalServiceRow, ServicePricingResult, TrendPoint } from '../../contract/api';
import type { DatasetManifest } from '../../contract/files/dataset';
import type { ApiContext } from '../../workers/context';
import { dispatch } from '../../workers/api/registry';
import type { Database } from '../../workers/db/database';
import { openNodeDatabase } from '../../workers/db/open-node';
import { prepareDerivedTables } from '../../workers/db/prepare-tables';
import { SqlFragment } from '../../workers/db/sql';

type Cell = string | number | null;

function table(db: Database, name: string, columns: string, rows: Cell[][]): void {
  db.exec(new SqlFragment(`CREATE TABLE ${name} (${columns})`, []));
  if (rows.length === 0) return;
  const lit = (v: Cell): string => (v === null ? 'NULL' : typeof v === 'number' ? String(v) : `'${v}'`);
  db.exec(new SqlFragment(`INSERT INTO ${name} VALUES ${rows.map((r) => `(${r.map(lit).join(', ')})`).join(', ')}`, []));
}

const P = 'professional';
const I = 'institutional';
const B = 'both';
const NF = 'non-facility';
const F = 'facility';

/** (insurer, code, class, component, setting, state, median, providers) of one month. */
type Stat = [string, string, string, string, string, string, number, number];

const FEB: Stat[] = [
  ['ref', '71250', P, '26', F, 'ALL', 80, 3], ['a', '71250', P, '26', F, 'ALL', 60, 2], ['b', '71250', P, '26', F, 'ALL', 70, 1],
  ['ref', '71250', P, 'global', NF, 'ALL', 300, 1], ['a', '71250', P, 'global', NF, 'ALL', 200, 2], ['b', '71250', P, 'global', NF, 'ALL', 250, 2],
  ['ref', '71250', I, 'global', F, 'ALL', 500, 4], ['a', '71250', I, 'global', F, 'ALL', 400, 3],
  ['ref', '71250', B, 'global', NF, 'ALL', 90, 2], ['a', '71250', B, 'global', NF, 'ALL', 100, 2],
  ['ref', '99214', P, 'global', NF, 'ALL', 150, 5], ['a', '99214', P, 'global', NF, 'ALL', 120, 4], ['b', '99214', P, 'global', NF, 'ALL', 130, 3],
  ['ref', '99214', P, 'global', F, 'ALL', 100, 2], ['a', '99214', P, 'global', F, 'ALL', 100, 1],
  ['ref', '80053', B, 'global', NF, 'ALL', 12, 3], ['a', '80053', B, 'global', NF, 'ALL', 10, 3], ['b', '80053', B, 'global', NF, 'ALL', 14, 2],
  ['ref', '99214', P, 'global', NF, 'CA', 160, 2], ['a', '99214', P, 'global', NF, 'CA', 120, 2],
  ['ref', '71250', I, 'global', F, 'CA', 500, 1], ['a', '71250', I, 'global', F, 'CA', 400, 1],
];

const JAN: Stat[] = [
  ['ref', '71250', P, '26', F, 'ALL', 60, 3], ['a', '71250', P, '26', F, 'ALL', 60, 2], ['b', '71250', P, '26', F, 'ALL', 70, 1],
  ['ref', '71250', P, 'global', NF, 'ALL', 200, 1], ['a', '71250', P, 'global', NF, 'ALL', 200, 2], ['b', '71250', P, 'global', NF, 'ALL', 250, 2],
  ['ref', '71250', I, 'global', F, 'ALL', 400, 4], ['a', '71250', I, 'global', F, 'ALL', 400, 3],
  ['ref', '71250', B, 'global', NF, 'ALL', 90, 2], ['a', '71250', B, 'global', NF, 'ALL', 100, 2],
  ['ref', '99214', P, 'global', NF, 'ALL', 150, 5], ['a', '99214', P, 'global', NF, 'ALL', 100, 4], ['b', '99214', P, 'global', NF, 'ALL', 100, 3],
  ['ref', '99214', P, 'global', F, 'ALL', 80, 2], ['a', '99214', P, 'global', F, 'ALL', 100, 1],
  ['ref', '80053', B, 'global', NF, 'ALL', 12, 3], ['a', '80053', B, 'global', NF, 'ALL', 10, 3], ['b', '80053', B, 'global', NF, 'ALL', 14, 2],
];

const medicareOf = (code: string, cls: string, component: string, setting: string): number | null =>
  code === '99214' && cls === P && component === 'global' && setting === NF ? 130 : null;

// Rate rows of 99214 (ref and a, 2025-02) at P1 = 1111111112 (CA, GPCIs 1.1 / 1.2 / 0.9) and
// P2 = 2222222228 (NY, no GPCI): (insurer, source, class, type, rate, group, POS, modifiers, medicare, validation).
type Rate = [string, number, string, string, number, string, string, string, number | null, string | null];
const RATES: Rate[] = [
  ['ref', 0, P, 'negotiated', 150, '0:1', '11', '', 130, null],
  ['ref', 1, P, 'negotiated', 150, '1:1', '11', '', 130, null], // the same row from a second file: once
  ['ref', 0, P, 'negotiated', 170, '0:2', '11', '', 130, null],
  ['ref', 0, P, 'negotiated', 2000, '0:2', '11', '', 130, 'above_benchmark'],
  ['ref', 0, P, 'negotiated', 90, '0:1', '21,22', '', null, null], // facility
  ['ref', 0, P, 'negotiated', 60, '0:1', '11', '26', null, null], // component 26
  ['a', 2, P, 'negotiated', 120, '2:1', '11', '', 130, null],
  ['a', 2, P, 'negotiated', 110, '2:2', '', '', 130, null], // no place of service: non-facility
  ['a', 2, P, 'percentage', 80, '2:2', '', '', null, null],
];

let db: Database;
let ctx: ApiContext;

const manifest = {
  format: 'compete-dataset', format_version: 3, created_at: '2025-03-01T00:00:00Z', converter_version: 'test', catalog_sha256: '',
  reference_insurer: 'ref', snapshots: ['2025-01', '2025-02'],
  insurers: [
    { id: 'ref', name: 'Reference', short_name: 'Ref', market_share: 0.3, member_count: 1, regions: [] },
    { id: 'a', name: 'Alpha', short_name: 'A', market_share: 0.3, member_count: 1, regions: [] },
    { id: 'b', name: 'Beta', short_name: 'B', market_share: 0.3, member_count: 1, regions: [] },
  ],
  tables: {},
  sources: [
    { insurer_id: 'ref', snapshot: '2025-02', url: 'ref-1.json' }, { insurer_id: 'ref', snapshot: '2025-02', url: 'ref-2.json' },
    { insurer_id: 'a', snapshot: '2025-02', url: 'a.json' }, { insurer_id: 'b', snapshot: '2025-02', url: 'b.json' },
    { insurer_id: 'ref', snapshot: '2025-01', url: 'ref-0.json' }, { insurer_id: 'a', snapshot: '2025-01', url: 'a-0.json' },
    { insurer_id: 'b', snapshot: '2025-01', url: 'b-0.json' },
  ],
  claims_by_state: false,
  validation: { min_ratio: 0.3, max_ratio: 30, source_min_ratio: 0.1, outlier_factor: 10, min_providers: 2 },
  medicare: { year: 2025, conversion_factor: 32.3465, files: [], notices: [], cpt_descriptors: true },
  headline: { snapshot: '2025-02', avg_overpayment_unvalidated: null, avg_overpayment_validated: null },
} as unknown as DatasetManifest;

beforeAll(async () => {
  db = await openNodeDatabase();
  const stats = [...FEB.map((s) => ['2025-02', ...s] as const), ...JAN.map((s) => ['2025-01', ...s] as const)];
  table(db, 'price_stats', 'snapshot VARCHAR, insurer_id VARCHAR, billing_code VARCHAR, billing_class VARCHAR, component VARCHAR, setting VARCHAR, state VARCHAR, median_rate DOUBLE, rate_count INTEGER, provider_count INTEGER, medicare_rate DOUBLE, scope VARCHAR, month VARCHAR, p10 DOUBLE, p25 DOUBLE, p75 DOUBLE, p90 DOUBLE, derived BOOLEAN',
    stats.map(([m, i, c, cls, comp, set, st, med, n]) => [m, i, c, cls, comp, set, st, med, n, n, medicareOf(c, cls, comp, set), 'market', null, null, null, null, null, null]));
  table(db, 'services', 'billing_code VARCHAR, billing_code_type VARCHAR, name VARCHAR, category VARCHAR, description VARCHAR, keywords VARCHAR, published_name VARCHAR', [
    ['71250', 'CPT', 'CT thorax without contrast', 'Radiology', '', '', 'CT CHEST'],
    ['80053', 'CPT', 'Comprehensive metabolic panel', 'Lab', '', '', null],
    ['99214', 'CPT', 'Office visit established 30 min', 'Office visit', '', '', 'zzVisit'],
  ]);
  table(db, 'claims_volume', 'billing_code VARCHAR, state VARCHAR, billing_class VARCHAR, claims_count BIGINT', [
    ['71250', 'ALL', P, 50], ['71250', 'ALL', I, 20], ['99214', 'ALL', P, 100], ['80053', 'ALL', P, 30], ['80053', 'ALL', I, 10],
  ]);
  table(db, 'providers', 'provider_id VARCHAR, npi VARCHAR, name VARCHAR, entity_type VARCHAR, state VARCHAR, postal_code VARCHAR, taxonomy_code VARCHAR, medicare_locality VARCHAR, gpci_work DOUBLE, gpci_pe DOUBLE, gpci_mp DOUBLE', [
    ['1111111112', '1111111112', 'ANNA SMITH', '1', 'CA', '94110', '', '01112-05', 1.1, 1.2, 0.9],
    ['2222222228', '2222222228', 'BAY CLINIC', '2', 'NY', '99999', '', null, null, null, null],
  ]);
  table(db, 'provider_groups', 'provider_group_key VARCHAR, source_id INTEGER, provider_group_id VARCHAR, provider_id VARCHAR, npi VARCHAR, tin_type VARCHAR, tin_value VARCHAR', [
    ['0:1', 0, '1', '1111111112', '1111111112', 'ein', '1'], ['0:2', 0, '2', '2222222228', '2222222228', 'ein', '2'],
    ['1:1', 1, '1', '1111111112', '1111111112', 'ein', '1'],
    ['2:1', 2, '1', '1111111112', '1111111112', 'ein', '1'], ['2:2', 2, '2', '2222222228', '2222222228', 'ein', '2'],
  ]);
  table(db, 'rates', 'billing_code VARCHAR, billing_code_type VARCHAR, snapshot VARCHAR, insurer_id VARCHAR, source_id INTEGER, billing_class VARCHAR, negotiated_type VARCHAR, negotiated_rate DOUBLE, provider_group_key VARCHAR, service_codes VARCHAR, modifiers VARCHAR, expiration_date VARCHAR, setting VARCHAR, negotiation_arrangement VARCHAR, additional_information VARCHAR, medicare_rate DOUBLE, validation VARCHAR',
    RATES.map(([i, src, cls, type, rate, g, pos, mod, mr, v]) => ['99214', 'CPT', '2025-02', i, src, cls, type, rate, g, pos, mod, null, null, 'ffs', null, mr, v]));
  table(db, 'medicare_benchmarks', 'billing_code VARCHAR, billing_class VARCHAR, component VARCHAR, setting VARCHAR, medicare_rate DOUBLE, source VARCHAR, work_rvu DOUBLE, pe_rvu DOUBLE, mp_rvu DOUBLE', [
    ['99214', P, 'global', NF, 130, 'pfs', 1.5, 1.6, 0.1],
  ]);
  prepareDerivedTables(db);
  ctx = memoryContext(db, 'per-unit', manifest);
});
afterAll(() => db?.close());

async function get<T>(path: string, query: Record<string, string> = {}): Promise<T> {
  const res = await dispatch({ method: 'GET', path, query }, ctx);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as T;
}

const unitOf = (r: Pick<LiveServicePricingRecord, 'service_code' | 'billing_class' | 'component' | 'setting'>): string =>
  `${r.service_code} ${r.billing_class}/${r.component}/${r.setting}`;

describe('service pricing: one record per comparison unit', () => {
  it('prices each unit with its support, thin mark and claims of the main unit', async () => {
    const r = await get<ServicePricingResult>('/api/service-pricing', { sort: 'variance' });
    // Variances: 71250 26 = 100 x (80 - 65) / 65 = 23.08; 71250 global = 100 x (300 - 225) / 225 = 33.33;
    // 71250 inst = 25; 71250 both = -10; 99214 non-fac = 100 x (150 - 125) / 125 = 20; 99214 fac = 0; 80053 = 0.
    // Ties (0): by code, then the unit.
    expect(r.records.map(unitOf)).toEqual([
      '71250 professional/global/non-facility',
      '71250 institutional/global/facility',
      '71250 professional/26/facility',
      '99214 professional/global/non-facility',
      '80053 both/global/non-facility',
      '99214 professional/global/facility',
      '71250 both/global/non-facility',
    ]);
    const by = (code: string, cls: string, comp: string, set: string) =>
      r.records.find((x) => unitOf(x) === `${code} ${cls}/${comp}/${set}`)!;
    expect(by('71250', P, '26', F)).toMatchObject({
      reference_price: 80, competitor_prices: { a: 60, b: 70 }, market_average: 65, overpayment: 15,
      reference_providers: 3, competitor_providers: { a: 2, b: 1 }, thin: false, thin_reason: null,
      // professional class of 71250: the 26 unit rests on 3 providers, the global one on 1 -> 50 claims here.
      claims_volume: 50, potential_savings: 750, published_name: 'CT CHEST', service_name: 'CT thorax without contrast',
    });
    expect(by('71250', P, '26', F).reference_variance).toBeCloseTo((100 * 15) / 65, 10);
    expect(by('71250', P, 'global', NF)).toMatchObject({
      reference_price: 300, market_average: 225, reference_providers: 1, thin: true,
      thin_reason: 'reference price rests on 1 provider', claims_volume: 0, potential_savings: 0,
    });
    expect(by('71250', I, 'global', F)).toMatchObject({ reference_variance: 25, claims_volume: 20, potential_savings: 2000, thin: false });
    // The both unit: 71250 has professional units, so it is in no class for claims.
    expect(by('71250', B, 'global', NF)).toMatchObject({ reference_variance: -10, claims_volume: 0, thin: false });
    expect(by('99214', P, 'global', F)).toMatchObject({
      reference_variance: 0, competitor_providers: { a: 1 }, thin: true, thin_reason: 'competitor prices rest on 1 provider together',
    });
    // 80053 has no professional unit: its both unit takes the professional count (30); the institutional 10 has no unit.
    expect(by('80053', B, 'global', NF)).toMatchObject({ market_average: 12, reference_variance: 0, claims_volume: 30, published_name: null });
  });

  it('reads % of Medicare beside each price', async () => {
    const r = await get<ServicePricingResult>('/api/service-pricing', { services: '99214' });
    const visit = r.records.find((x) => x.setting === NF)!;
    // 150 / 130, 120 / 130, 130 / 130; market: mean of the competitors' = (92.31 + 100) / 2 = 96.15.
    expect(visit.medicare_rate).toBe(130);
    expect(visit.reference_medicare_pct).toBeCloseTo((100 * 150) / 130, 10);
    expect(visit.competitor_medicare_pct.a).toBeCloseTo((100 * 120) / 130, 10);
    expect(visit.competitor_medicare_pct.b).toBeCloseTo(100, 10);
    expect(visit.market_medicare_pct).toBeCloseTo(((100 * 120) / 130 + 100) / 2, 10);
    const facility = r.records.find((x) => x.setting === F)!;
    expect([facility.medicare_rate, facility.reference_medicare_pct, facility.competitor_medicare_pct, facility.market_medicare_pct]).toEqual([null, null, {}, null]);
  });

  it('sums the cards over units with a variance that are not thin', async () => {
    const r = await get<ServicePricingResult>('/api/service-pricing');
    // Counted: 71250 26 (23.08 %, 50 claims), 71250 inst (25 %, 20), 71250 both (-10 %, 0), 99214 non-fac (20 %, 100),
    // 80053 (0 %, 30). Left out as thin: 71250 global (33.3 %), 99214 facility.
    const avg = (((100 * 15) / 65) * 50 + 25 * 20 - 10 * 0 + 20 * 100 + 0 * 30) / (50 + 20 + 0 + 100 + 30);
    expect(r.summary.avg_overpayment).toBeCloseTo(avg, 10);
    expect(r.summary).toMatchObject({
      services_total: 5,
      services_overpaying: 3, // 71250 26, 71250 inst, 99214 non-fac
      total_potential_savings: 750 + 2000 + 2500,
      comparing_against: 2,
    });
    expect(r.total).toBe(7); // thin units are listed
  });

  it('applies the billing-class chips to units, claims staying with their main unit', async () => {
    const prof = await get<ServicePricingResult>('/api/service-pricing', { billing_class: P, sort: 'savings' });
    // Professional chip: professional and both units. Savings: 99214 2,500, 71250 26 750, then zeros by code and unit.
    expect(prof.records.map(unitOf)).toEqual([
      '99214 professional/global/non-facility',
      '71250 professional/26/facility',
      '71250 professional/global/non-facility',
      '71250 both/global/non-facility',
      '80053 both/global/non-facility',
      '99214 professional/global/facility',
    ]);
    const inst = await get<ServicePricingResult>('/api/service-pricing', { billing_class: I });
    expect(inst.records.map(unitOf).sort()).toEqual(['71250 both/global/non-facility', '71250 institutional/global/facility', '80053 both/global/non-facility']);
    // 80053's both unit keeps the professional claims under the Institutional chip.
    expect(inst.records.find((x) => x.service_code === '80053')!.claims_volume).toBe(30);
    // Institutional cards: 71250 inst 25 % (20), both -10 % (0), 80053 0 % (30) -> (500 + 0 + 0) / 50 = 10.
    expect(inst.summary).toMatchObject({ services_total: 3, services_overpaying: 1, avg_overpayment: 10, total_potential_savings: 2000 });
  });
});

describe('dashboard figures leave thin units out', () => {
  it('regional comparison and services per state', async () => {
    // CA: 99214 non-fac 160 vs 120 = 33.33 % [2 and 2: not thin], 71250 inst 500 vs 400 [1 and 1: thin].
    const regions = await get<RegionalComparison[]>('/api/regional-comparison');
    expect(regions.map((x) => [x.region, x.services, x.claims_count])).toEqual([['CA', 1, 100]]);
    expect(regions[0]!.anthem_avg_overpayment).toBeCloseTo(100 / 3, 10);
    const rows = await get<RegionalServiceRow[]>('/api/regional-services', { state: 'CA' });
    expect(rows.map((x) => [x.service_code, x.billing_class, x.component, x.setting, x.your_price, x.market_avg, x.thin])).toEqual([
      ['99214', P, 'global', NF, 160, 120, false],
      ['71250', I, 'global', F, 500, 400, true],
    ]);
  });

  it('overpayment trend per month', async () => {
    const t = await get<TrendPoint[]>('/api/overpayment-trend');
    // 2025-01 counted: 71250 26 60 vs 65 (-7.69 %, 50), inst 400 vs 400 (0, 20), both -10 % (0), 99214 non-fac
    // 150 vs 100 (+50 %, 100), 80053 0 % (30); thin: 71250 global (1 provider), 99214 facility.
    expect(t.map((x) => x.month)).toEqual(['2025-01', '2025-02']);
    expect(t[0]!.value).toBeCloseTo((((-100 * 5) / 65) * 50 + 0 * 20 + 50 * 100 + 0 * 30) / 200, 10);
    expect(t[1]!.value).toBeCloseTo((((100 * 15) / 65) * 50 + 25 * 20 + 20 * 100) / 200, 10);
  });
});

describe('alerts per unit', () => {
  it('raises only supported alerts, ordered by severity, then dollar impact', async () => {
    const a = await get<Alert[]>('/api/alerts');
    // All:  99214 non-fac market 100 -> 125 = +25 % high, impact 25 x 100 = 2,500; outlier 20 % low, (150 - 125) x 100 = 2,500.
    //       71250 inst spike 400 -> 500 = +25 % high, 100 x 20 = 2,000; outlier 25 % low, (500 - 400) x 20 = 2,000.
    //       71250 26 spike 60 -> 80 = +33 % high, 20 x 50 = 1,000 (market 65 -> 65: no shift); outlier
    //       100 x 15 / 65 = 23.1 % low, (80 - 65) x 50 = 750 (ref on 3, competitors on 2 + 1: not thin).
    //       99214 facility spike 80 -> 100 = +25 % high, 20 x 0 claims = 0 (ref on 2 providers both months).
    //       Not raised: 71250 global spike +50 % (ref on 1 provider) and its outlier (thin); 99214 facility
    //       market (a on 1 provider).
    // CA:   99214 non-fac outlier 33.3 % medium, (160 - 120) x 100 = 4,000 (no January figures: no spike, no shift);
    //       71250 inst outlier 25 %: thin, not raised.
    expect(a.map((x) => [x.severity, x.type, x.region, x.serviceCode, x.billingClass, x.component, x.setting])).toEqual([
      ['high', 'market_shift', 'All', '99214', P, 'global', NF],
      ['high', 'price_spike', 'All', '71250', I, 'global', F],
      ['high', 'price_spike', 'All', '71250', P, '26', F],
      ['high', 'price_spike', 'All', '99214', P, 'global', F],
      ['medium', 'outlier', 'CA', '99214', P, 'global', NF],
      ['low', 'outlier', 'All', '99214', P, 'global', NF],
      ['low', 'outlier', 'All', '71250', I, 'global', F],
      ['low', 'outlier', 'All', '71250', P, '26', F],
    ]);
  });

  it('carries a per-service acknowledgement over to every unit of the same type, code, region and snapshot', async () => {
    // The id of the previous scheme for ('price_spike', '71250', 'All', '2025-02'): FNV-1a 64 of 'price_spike|71250|All|2025-02'.
    let h = 0xcbf29ce484222325n;
    for (const c of new TextEncoder().encode('price_spike|71250|All|2025-02')) h = ((h ^ BigInt(c)) * 0x100000001b3n) & 0xffffffffffffffffn;
    await ctx.acks.put([[h.toString(16).padStart(16, '0'), { by: 'Dana', at: '2025-02-10T00:00:00.000Z' }]]);
    const a = await get<Alert[]>('/api/alerts');
    expect(a.filter((x) => x.acknowledged).map((x) => [x.type, x.serviceCode, x.billingClass, x.component, x.acknowledgedBy])).toEqual([
      ['price_spike', '71250', I, 'global', 'Dana'],
      ['price_spike', '71250', P, '26', 'Dana'],
    ]);
  });
});

describe('provider selection: medians from the valid rate rows of the selected providers', () => {
  it('groups the rows by unit, skips failed rows, and lowers min_providers to the number selected', async () => {
    const two = await get<ServicePricingResult>('/api/service-pricing', { providers: '1111111112,2222222228', services: '99214' });
    // Non-facility: ref median(150, 170) = 160 (2000 failed validation; 150 twice is one row); a median(120, 110) = 115.
    // Facility (POS 21,22): ref 90 at one provider; 26: ref 60 at one provider: thin, no competitor.
    expect(two.records.map((x) => [unitOf(x), x.reference_price, x.market_average, x.reference_providers, x.thin])).toEqual([
      ['99214 professional/global/non-facility', 160, 115, 2, false],
      ['99214 professional/global/facility', 90, null, 1, true],
      ['99214 professional/26/non-facility', 60, null, 1, true],
    ]);
    expect(two.records[0]!.medicare_rate).toBe(130);
    expect(two.records[0]!.claims_volume).toBe(100);
    // One provider selected: min_providers becomes 1, so a price on one provider is not thin.
    const one = await get<ServicePricingResult>('/api/service-pricing', { providers: '1111111112', services: '99214' });
    expect(one.records.map((x) => [unitOf(x), x.reference_price, x.market_average, x.thin])).toEqual([
      ['99214 professional/global/non-facility', 150, 120, false],
      ['99214 professional/global/facility', 90, null, false],
      ['99214 professional/26/non-facility', 60, null, false],
    ]);
  });
});

describe('one provider shown: % of Medicare at its locality, validation', () => {
  // Locality amount at P1: (1.5 x 1.1 + 1.6 x 1.2 + 0.1 x 0.9) x 32.3465 = 3.66 x 32.3465 = 118.388... -> 118.39 USD.
  const LOCAL = 118.39;

  it('service-price-details: per row its unit, reference and market over that unit', async () => {
    const p1 = await get<PriceDetail[]>('/api/service-price-details', { service_id: '99214', provider_id: '1111111112', insurer_id: 'ref' });
    expect(p1.map((d) => [d.price, d.component, d.setting, d.referencePrice, d.marketAverage, d.medicare_basis, d.validation])).toEqual([
      [150, 'global', NF, 150, 120, 'locality', null],
      [60, '26', NF, 60, null, null, null], // ordered by class, type, place of service ('11' < '21,22'), modifiers, price
      [90, 'global', F, 90, null, null, null],
    ]);
    expect(p1[0]!.medicare_pct).toBeCloseTo((100 * 150) / LOCAL, 10);
    const p2 = await get<PriceDetail[]>('/api/service-price-details', { service_id: '99214', provider_id: '2222222228', insurer_id: 'ref' });
    // P2 has no GPCI: national 130. The failed 2000 is shown with its reason and left out of Reference Price (170).
    expect(p2.map((d) => [d.price, d.referencePrice, d.marketAverage, d.medicare_basis, d.validation])).toEqual([
      [170, 170, 110, 'national', null],
      [2000, 170, 110, 'national', 'above_benchmark'],
    ]);
    expect(p2[1]!.medicare_pct).toBeCloseTo((100 * 2000) / 130, 10);
    const alpha = await get<PriceDetail[]>('/api/service-price-details', { service_id: '99214', provider_id: '2222222228', insurer_id: 'a' });
    expect(alpha.map((d) => [d.negotiated_type, d.price_unit, d.medicare_pct, d.medicare_basis, d.validation])).toEqual([
      ['negotiated', 'usd', (100 * 110) / 130, 'national', null],
      ['percentage', 'percent', null, null, null],
    ]);
  });

  it('rate-rows: the rows of one unit, failed ones listed outside the median', async () => {
    const unit = await get<RateRowsResult>('/api/rate-rows', { service_id: '99214', insurer_id: 'ref', billing_class: P, component: 'global', setting: NF });
    expect(unit.rows.map((x) => [x.provider_id, x.negotiated_rate, x.validation, x.medicare_basis])).toEqual([
      ['1111111112', 150, null, 'locality'],
      ['2222222228', 170, null, 'national'],
      ['2222222228', 2000, 'above_benchmark', 'national'],
    ]);
    expect(unit.rows[0]!.source_ids).toEqual([0, 1]);
    expect(unit.rows[0]!.medicare_pct).toBeCloseTo((100 * 150) / LOCAL, 10);
    expect([unit.median, unit.rate_count, unit.provider_count, unit.failed_rows, unit.component, unit.setting]).toEqual([160, 2, 2, 1, 'global', NF]);
    // The Professional chip (no unit): every professional row; valid 60, 90, 150, 170 -> median 120.
    const chip = await get<RateRowsResult>('/api/rate-rows', { service_id: '99214', insurer_id: 'ref', billing_class: P });
    expect([chip.median, chip.rate_count, chip.failed_rows, chip.component]).toEqual([120, 4, 1, null]);
    // A unit needs its three parts.
    expect((await dispatch({ method: 'GET', path: '/api/rate-rows', query: { service_id: '99214', insurer_id: 'ref', component: 'global' } }, ctx)).status).toBe(400);
    expect((await dispatch({ method: 'GET', path: '/api/rate-rows', query: { service_id: '99214', insurer_id: 'ref', component: 'x', setting: F, billing_class: P } }, ctx)).status).toBe(400);
  });
});
