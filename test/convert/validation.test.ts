/**
 * The Medicare benchmark and the validation of docs/methodology.md ("Rows that count", "Per comparison
 * unit", "Medicare benchmark", "Validation") end to end, on the hand-made MRFs of
 * test/fixtures/validation (its README lists every price). Every expected value is worked out by
 * hand below from the fixture, the CMS reference data and the rules; nothing is computed by
 * converter code.
 *
 * Providers (npi-registry.csv): P1 1700000015 CA, P2 ..023 CA, P3 ..031 NY, P4 ..049 NY,
 * P5 ..056 CA, P6 ..064 NY, P7 ..072 CA, P8 ..080 TX, P9 ..098 TX, P10 ..106 TX, P11 ..114 CA,
 * P12 ..122 NY, P13 ..130 TX.
 * ref's provider groups: 1 = {P1, P2}, 2 = {P3}, 3 = {P4}, 4 = {P5}, 5 = {P8}, 6 = {P9}.
 * ref and comp share P1 and P3 (and comp's P6/P7 price several codes ref prices at P2/P4/P5).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { convertCatalog } from '../../scripts/convert/index';
import type { DatasetManifest } from '../../contract/files/dataset';
import { FIXTURES, nf99213, inst99213, nf99214, f99215, g71046, pc71046, inst71046, nf93000, clfs85025, AMOUNTS, variance, median, weightedMean, rows, openDataset } from './validation-fixture';

let tmp: string;
let manifest: DatasetManifest;
let db: DuckDBInstance;
let con: DuckDBConnection;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-validation-'));
  const out = path.join(tmp, 'dataset');
  ({ manifest } = await convertCatalog(path.join(FIXTURES, 'catalog.json'), out, { quiet: true, remoteReferences: false }));
  db = await DuckDBInstance.create(':memory:');
  con = await db.connect();
  await openDataset(con, out, manifest);
});

afterAll(async () => {
  con?.closeSync();
  db?.closeSync();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

// --- the prices of the fixture, with the Medicare amount and the validation the rules give ------
type Price = {
  insurer_id: string;
  billing_code: string;
  billing_class: string;
  modifiers: string;
  service_codes: string;
  negotiated_rate: number;
  medicare_rate: number | null;
  validation: string | null;
  groups: number;
};
const price = (insurer_id: string, billing_code: string, billing_class: string, modifiers: string, service_codes: string,
  negotiated_rate: number, medicare_rate: number | null, validation: string | null = null, groups = 1): Price =>
  ({ insurer_id, billing_code, billing_class, modifiers, service_codes, negotiated_rate, medicare_rate, validation, groups });
const P = 'professional';
const I = 'institutional';

const EXPECTED_PRICES: Price[] = [
  // ref 99213: professional office (POS 11) -> non-facility unit; institutional -> G0463's OPPS rate
  price('ref', '99213', P, '', '11', 100, nf99213), price('ref', '99213', P, '', '11', 110, nf99213),
  price('ref', '99213', P, '', '11', 120, nf99213),
  price('ref', '99213', I, '', '', 150, inst99213), price('ref', '99213', I, '', '', 170, inst99213),
  // ref 99214: 4500 / 125.18 = 35.95 x Medicare > 30 -> above_benchmark; it names groups 2 and 3: two rate rows
  price('ref', '99214', P, '', '11', 150, nf99214), price('ref', '99214', P, '', '11', 170, nf99214),
  price('ref', '99214', P, '', '11', 4500, nf99214, 'above_benchmark', 2),
  // ref 71046: global 1.01 x CF, -26 0.31 x CF, institutional OPPS
  price('ref', '71046', P, '', '11', 40, g71046), price('ref', '71046', P, '', '11', 44, g71046),
  price('ref', '71046', P, '26', '11', 12, pc71046), price('ref', '71046', P, '26', '11', 14, pc71046),
  price('ref', '71046', I, '', '', 100, inst71046), price('ref', '71046', I, '', '', 110, inst71046),
  // ref 99215 only at POS 21 (inpatient hospital): the facility unit, facility total
  price('ref', '99215', P, '', '21', 160, f99215),
  price('ref', '93000', P, '', '11', 20, nf93000),
  price('ref', '85025', I, '', '', 12, clfs85025), price('ref', '85025', I, '', '', 14, clfs85025),
  // S9083 (no benchmark), rows of ref and comp without benchmark that passed check 1, one per provider:
  // ref P1 150, P2 150, P3 155, P4 145, P5 160, P8 148, P9 15000; comp P6 150, P7 152, P10 147, P11 153, P12 149, P13 151
  // (mult's 1.50/1.60 at P1..P8 fail check 1 and stay out) -> 13 rows from 13 providers >= 10, sorted
  // 145 147 148 149 150 150 150 151 152 153 155 160 15000 -> median 150 (7th); 15000 / 150 = 100 > 10 -> outlier;
  // the others are within 145/150 .. 160/150.
  price('ref', 'S9083', P, '', '20', 150, null), price('ref', 'S9083', P, '', '20', 155, null),
  price('ref', 'S9083', P, '', '20', 145, null), price('ref', 'S9083', P, '', '20', 160, null),
  price('ref', 'S9083', P, '', '20', 148, null), price('ref', 'S9083', P, '', '20', 15000, null, 'outlier'),

  price('comp', '99213', P, '', '11', 90, nf99213), price('comp', '99213', P, '', '11', 95, nf99213),
  price('comp', '99213', P, '', '11', 85, nf99213),
  price('comp', '99213', I, '', '', 140, inst99213), price('comp', '99213', I, '', '', 160, inst99213),
  // comp 99214: 25 / 125.18 = 0.1997 x Medicare < 0.3 -> below_benchmark; one group of two NPIs (P7, P13): one rate row
  price('comp', '99214', P, '', '11', 130, nf99214), price('comp', '99214', P, '', '11', 150, nf99214),
  price('comp', '99214', P, '', '11', 25, nf99214, 'below_benchmark'),
  price('comp', '71046', P, '', '11', 36, g71046), price('comp', '71046', P, '', '11', 38, g71046),
  price('comp', '71046', P, '26', '11', 10.5, pc71046), price('comp', '71046', P, '26', '11', 12.5, pc71046),
  price('comp', '71046', I, '', '', 95, inst71046), price('comp', '71046', I, '', '', 97, inst71046),
  price('comp', '99215', P, '', '21', 140, f99215), price('comp', '99215', P, '', '21', 150, f99215),
  price('comp', '93000', P, '', '11', 16, nf93000), price('comp', '93000', P, '', '11', 20, nf93000),
  price('comp', '85025', I, '', '', 10, clfs85025), price('comp', '85025', I, '', '', 11, clfs85025),
  ...[150, 152, 147, 153, 149, 151].map((r) => price('comp', 'S9083', P, '', '20', r, null)),

  // mult: 22 distinct benchmarked prices (99213: 1.00..1.35 and 95; 99214: 1.40..1.70; 71046: 1.75..2.00),
  // ratios 1.40/125.18 = 0.0112 .. 2.00/32.67 = 0.0612, only 95/88.95 = 1.07 above 0.1; sorted, the 11th and 12th of
  // the 22 are 1.20/88.95 = 0.01349 and 1.70/125.18 = 0.01358 -> median 0.0135 < 0.1 -> source_not_dollars:
  // every dollar rate of the file fails, S9083's (no benchmark) and the 95 too.
  ...[1.0, 1.05, 1.1, 1.15, 1.2, 1.25, 1.3, 1.35].map((r) => price('mult', '99213', P, '', '11', r, nf99213, 'source_not_dollars')),
  price('mult', '99213', P, '', '11', 95, nf99213, 'source_not_dollars', 2), // names two groups: {P1}, {P2, P3}
  ...[1.4, 1.45, 1.5, 1.55, 1.6, 1.65, 1.7].map((r) => price('mult', '99214', P, '', '11', r, nf99214, 'source_not_dollars')),
  ...[1.75, 1.8, 1.85, 1.9, 1.95, 2.0].map((r) => price('mult', '71046', P, '', '11', r, g71046, 'source_not_dollars')),
  price('mult', 'S9083', P, '', '20', 1.5, null, 'source_not_dollars'), price('mult', 'S9083', P, '', '20', 1.6, null, 'source_not_dollars'),
];

const priceKey = (p: Price): string =>
  [p.insurer_id, p.billing_code, p.billing_class, p.modifiers, p.service_codes, p.negotiated_rate.toFixed(4)].join('|');
const sortPrices = (ps: Price[]): Price[] => [...ps].sort((a, b) => (priceKey(a) < priceKey(b) ? -1 : priceKey(a) > priceKey(b) ? 1 : 0));

// --- price_stats: the national medians (state ALL) the rules give --------------------------------
type Stat = { insurer_id: string; billing_code: string; billing_class: string; component: string; setting: string;
  median_rate: number; rate_count: number; provider_count: number; medicare_rate: number | null };
const stat = (insurer_id: string, billing_code: string, billing_class: string, component: string, setting: string,
  median_rate: number, rate_count: number, provider_count: number, medicare_rate: number | null): Stat =>
  ({ insurer_id, billing_code, billing_class, component, setting, median_rate, rate_count, provider_count, medicare_rate });
const NF = 'non-facility';
const FAC = 'facility';

// Valid rate rows, one per NPI (a group of several NPIs gives one row per NPI):
const EXPECTED_NATIONAL: Stat[] = [
  // ref
  stat('ref', '71046', I, 'global', FAC, (100 + 110) / 2, 2, 2, inst71046), // P3 100, P5 110
  stat('ref', '71046', P, '26', NF, 12, 3, 3, pc71046), // P1 12, P2 12, P4 14 -> 12
  stat('ref', '71046', P, 'global', NF, (40 + 44) / 2, 2, 2, g71046), // P3 40, P5 44
  stat('ref', '85025', I, 'global', FAC, (12 + 14) / 2, 2, 2, clfs85025), // P3 12, P5 14
  stat('ref', '93000', P, 'global', NF, 20, 1, 1, nf93000), // P4 only: a price on one provider
  stat('ref', '99213', I, 'global', FAC, (150 + 170) / 2, 2, 2, inst99213), // P3 150, P5 170
  stat('ref', '99213', P, 'global', NF, (100 + 110) / 2, 4, 4, nf99213), // P1 100, P2 100, P3 110, P4 120
  stat('ref', '99214', P, 'global', NF, 150, 3, 3, nf99214), // P1 150, P2 150, P5 170; the ghost 4500 (P3, P4) out
  stat('ref', '99215', P, 'global', FAC, 160, 2, 2, f99215), // P1 160, P2 160
  stat('ref', 'S9083', P, 'global', NF, (150 + 150) / 2, 6, 6, null), // 145 148 150 150 155 160; P9's outlier out
  // comp
  stat('comp', '71046', I, 'global', FAC, (95 + 97) / 2, 2, 2, inst71046), // P3 95, P7 97
  stat('comp', '71046', P, '26', NF, (10.5 + 12.5) / 2, 2, 2, pc71046), // P3 10.5, P6 12.5
  stat('comp', '71046', P, 'global', NF, (36 + 38) / 2, 2, 2, g71046), // P1 36, P7 38
  stat('comp', '85025', I, 'global', FAC, (10 + 11) / 2, 2, 2, clfs85025), // P3 10, P7 11
  stat('comp', '93000', P, 'global', NF, (16 + 20) / 2, 2, 2, nf93000), // P1 16, P7 20
  stat('comp', '99213', I, 'global', FAC, (140 + 160) / 2, 2, 2, inst99213), // P3 140, P7 160
  stat('comp', '99213', P, 'global', NF, 90, 3, 3, nf99213), // P6 85, P1 90, P3 95
  stat('comp', '99214', P, 'global', NF, (130 + 150) / 2, 2, 2, nf99214), // P1 130, P6 150; 25 at P7, P13 out
  stat('comp', '99215', P, 'global', FAC, (140 + 150) / 2, 2, 2, f99215), // P3 140, P6 150
  stat('comp', 'S9083', P, 'global', NF, (150 + 151) / 2, 6, 6, null), // 147 149 150 151 152 153
];

describe('the Medicare benchmark and validation of every rate (docs/methodology.md, Medicare benchmark, Validation)', () => {
  it('uses the 2025 amounts of the reference data', () => {
    expect({ nf99213, nf99214, f99215, g71046, pc71046, nf93000 }).toEqual(AMOUNTS);
    expect(manifest.snapshots).toEqual(['2025-03']);
    expect(manifest.sources.map((s) => [s.insurer_id, s.snapshot])).toEqual([['ref', '2025-03'], ['comp', '2025-03'], ['mult', '2025-03']]);
  });

  it('gives each price its unit\'s Medicare amount and the first check it fails', async () => {
    const got = (await rows(con, `SELECT insurer_id, billing_code, billing_class, modifiers, service_codes, negotiated_rate,
        medicare_rate, validation, len(provider_group_ids)::INTEGER AS groups FROM rate_parts`)) as Price[];
    expect(sortPrices(got)).toEqual(sortPrices(EXPECTED_PRICES));
  });

  it('counts each source\'s rate rows and failed rates in rate rows (a price once per provider group it names)', () => {
    // ref: 24 prices, the ghost names two groups -> 25 rate rows; 2 above_benchmark (the ghost's two groups), 1 outlier.
    // comp: 26 prices x 1 group; the 25 names one group of two NPIs -> 1 below_benchmark.
    // mult: 24 prices, the 95 names two groups -> 25 rate rows, every one source_not_dollars.
    expect(manifest.sources.map((s) => [s.insurer_id, s.rate_rows, s.validation])).toEqual([
      ['ref', 25, { source_not_dollars: 0, below_benchmark: 0, above_benchmark: 2, outlier: 1 }],
      ['comp', 26, { source_not_dollars: 0, below_benchmark: 1, above_benchmark: 0, outlier: 0 }],
      ['mult', 25, { source_not_dollars: 25, below_benchmark: 0, above_benchmark: 0, outlier: 0 }],
    ]);
    expect(manifest.sources[2]!.validation.source_not_dollars).toBe(manifest.sources[2]!.rate_rows);
  });

  it('agrees with the rate rows of the dataset: the failed ones stay in `rates`', async () => {
    const got = await rows(con, `SELECT insurer_id, validation, count(*)::INTEGER AS n FROM rates
      WHERE validation IS NOT NULL GROUP BY ALL ORDER BY ALL`);
    expect(got).toEqual([
      { insurer_id: 'comp', validation: 'below_benchmark', n: 1 },
      { insurer_id: 'mult', validation: 'source_not_dollars', n: 25 },
      { insurer_id: 'ref', validation: 'above_benchmark', n: 2 },
      { insurer_id: 'ref', validation: 'outlier', n: 1 },
    ]);
  });

  it('records the median % of Medicare of each source\'s distinct valid benchmarked prices', () => {
    // ref: (code, unit, rate) once each, the ghost left out, S9083 has no benchmark -> 17 percents, the 9th
    const ref = median([
      ...[100, 110, 120].map((r) => (100 * r) / nf99213), ...[150, 170].map((r) => (100 * r) / inst99213),
      ...[150, 170].map((r) => (100 * r) / nf99214), ...[40, 44].map((r) => (100 * r) / g71046),
      ...[12, 14].map((r) => (100 * r) / pc71046), ...[100, 110].map((r) => (100 * r) / inst71046),
      (100 * 160) / f99215, (100 * 20) / nf93000, ...[12, 14].map((r) => (100 * r) / clfs85025),
    ]);
    // comp: the 25 left out -> 18 percents, the midpoint of the 9th and 10th
    const comp = median([
      ...[85, 90, 95].map((r) => (100 * r) / nf99213), ...[140, 160].map((r) => (100 * r) / inst99213),
      ...[130, 150].map((r) => (100 * r) / nf99214), ...[36, 38].map((r) => (100 * r) / g71046),
      ...[10.5, 12.5].map((r) => (100 * r) / pc71046), ...[95, 97].map((r) => (100 * r) / inst71046),
      ...[140, 150].map((r) => (100 * r) / f99215), ...[16, 20].map((r) => (100 * r) / nf93000),
      ...[10, 11].map((r) => (100 * r) / clfs85025),
    ]);
    expect(manifest.sources[0]!.median_medicare_pct).toBeCloseTo(ref, 9);
    expect(manifest.sources[1]!.median_medicare_pct).toBeCloseTo(comp, 9);
  });

  it('gives a source that is not in dollars no median % of Medicare: none of its prices is valid', () => {
    // mult's every rate failed check 1, the 95 (95 / 88.95 = 1.07 x Medicare) too: no valid benchmarked price -> null
    expect(manifest.sources[2]!.median_medicare_pct).toBeNull();
  });

  it('records the default settings', () => {
    expect(manifest.validation).toEqual({ min_ratio: 0.3, max_ratio: 30, source_min_ratio: 0.1, outlier_factor: 10, min_providers: 2 });
  });
});

describe('price_stats over valid rates only, per comparison unit', () => {
  it('has every national median of ref and comp, each unit with its own Medicare amount, and nothing of mult', async () => {
    const got = (await rows(con, `SELECT insurer_id, billing_code, billing_class, component, setting, median_rate, rate_count,
        provider_count, medicare_rate FROM price_stats WHERE state = 'ALL' AND scope = 'market' ORDER BY insurer_id DESC, billing_code, billing_class, component, setting`)) as Stat[];
    expect(got).toEqual(EXPECTED_NATIONAL);
    expect(await rows(con, `SELECT count(*)::INTEGER AS n FROM price_stats WHERE insurer_id = 'mult'`)).toEqual([{ n: 0 }]);
    expect(manifest.sources.every((s) => s.snapshot === '2025-03')).toBe(true);
  });

  it('has per-state medians without the failed rates', async () => {
    const got = await rows(con, `SELECT insurer_id, billing_code, billing_class, state, median_rate, rate_count, provider_count
      FROM price_stats WHERE state <> 'ALL' AND scope = 'market' AND (billing_code = '99214'
        OR billing_code = '99213' AND insurer_id = 'ref' AND billing_class = 'professional'
        OR billing_code = 'S9083' AND state = 'TX')
      ORDER BY insurer_id DESC, billing_code, state`);
    expect(got).toEqual([
      // ref 99213 professional: CA P1 100, P2 100; NY P3 110, P4 120
      { insurer_id: 'ref', billing_code: '99213', billing_class: P, state: 'CA', median_rate: 100, rate_count: 2, provider_count: 2 },
      { insurer_id: 'ref', billing_code: '99213', billing_class: P, state: 'NY', median_rate: (110 + 120) / 2, rate_count: 2, provider_count: 2 },
      // ref 99214: CA P1 150, P2 150, P5 170; NY has only the ghost (P3, P4): no NY row
      { insurer_id: 'ref', billing_code: '99214', billing_class: P, state: 'CA', median_rate: 150, rate_count: 3, provider_count: 3 },
      // ref S9083 TX: P8 148; P9's 15000 is an outlier
      { insurer_id: 'ref', billing_code: 'S9083', billing_class: P, state: 'TX', median_rate: 148, rate_count: 1, provider_count: 1 },
      // comp 99214: CA P1 130 (P7's 25 failed), NY P6 150, TX only P13's 25: no TX row
      { insurer_id: 'comp', billing_code: '99214', billing_class: P, state: 'CA', median_rate: 130, rate_count: 1, provider_count: 1 },
      { insurer_id: 'comp', billing_code: '99214', billing_class: P, state: 'NY', median_rate: 150, rate_count: 1, provider_count: 1 },
      // comp S9083 TX: P10 147, P13 151
      { insurer_id: 'comp', billing_code: 'S9083', billing_class: P, state: 'TX', median_rate: (147 + 151) / 2, rate_count: 2, provider_count: 2 },
    ]);
  });

  it('splits the claims without a billing_class column as the rule says', async () => {
    // each code's count to the professional class; also to the institutional class for 71046 (OPPS pays $88.05) and
    // 85025 (no professional unit); not for 99213 (its own OPPS line pays nothing: G0463 is another code)
    expect(await rows(con, `SELECT billing_code, billing_class, claims_count FROM claims_volume WHERE state = 'ALL' ORDER BY ALL`)).toEqual([
      { billing_code: '71046', billing_class: I, claims_count: 200 },
      { billing_code: '71046', billing_class: P, claims_count: 200 },
      { billing_code: '85025', billing_class: I, claims_count: 60 },
      { billing_code: '85025', billing_class: P, claims_count: 60 },
      { billing_code: '93000', billing_class: P, claims_count: 50 },
      { billing_code: '99213', billing_class: P, claims_count: 400 },
      { billing_code: '99214', billing_class: P, claims_count: 300 },
      { billing_code: '99215', billing_class: P, claims_count: 100 },
      { billing_code: 'S9083', billing_class: P, claims_count: 80 },
    ]);
  });
});

describe('price_stats at shared providers (docs/methodology.md, Per comparison unit, At shared providers)', () => {
  // ref is the reference; its competitors are comp and mult, and mult has no valid rate (source_not_dollars), so the
  // shared providers of a unit are those where both ref and comp have a valid rate. Valid rates per unit and provider:
  //   99213 P NF  ref P1 100, P2 100, P3 110, P4 120   comp P1 90, P3 95, P6 85     -> shared P1 (CA), P3 (NY)
  //   99213 I     ref P3 150, P5 170                    comp P3 140, P7 160          -> P3
  //   99214 P NF  ref P1 150, P2 150, P5 170            comp P1 130, P6 150          -> P1 (the ghost at P3, P4 and comp's 25 are not valid)
  //   71046 I     ref P3 100, P5 110                    comp P3 95, P7 97            -> P3
  //   85025 I     ref P3 12, P5 14                      comp P3 10, P7 11            -> P3
  //   71046 global (ref P3, P5 / comp P1, P7), 71046-26 (P1, P2, P4 / P3, P6), 99215 (P1, P2 / P3, P6), 93000 (P4 / P1, P7)
  //   and S9083 (ref P1..P5, P8 / comp P6, P7, P10..P13) share no provider: no row.
  const row = (insurer_id: string, billing_code: string, billing_class: string, state: string, median_rate: number, n: number, medicare_rate: number) =>
    ({ insurer_id, billing_code, billing_class, state, median_rate, rate_count: n, provider_count: n, medicare_rate, month: '2025-03', snapshot: '2025-03' });
  const EXPECTED_SHARED = [
    row('ref', '71046', I, 'ALL', 100, 1, inst71046), row('ref', '71046', I, 'NY', 100, 1, inst71046),
    row('ref', '85025', I, 'ALL', 12, 1, clfs85025), row('ref', '85025', I, 'NY', 12, 1, clfs85025),
    row('ref', '99213', I, 'ALL', 150, 1, inst99213), row('ref', '99213', I, 'NY', 150, 1, inst99213),
    row('ref', '99213', P, 'ALL', (100 + 110) / 2, 2, nf99213), row('ref', '99213', P, 'CA', 100, 1, nf99213),
    row('ref', '99213', P, 'NY', 110, 1, nf99213),
    row('ref', '99214', P, 'ALL', 150, 1, nf99214), row('ref', '99214', P, 'CA', 150, 1, nf99214),
    row('comp', '71046', I, 'ALL', 95, 1, inst71046), row('comp', '71046', I, 'NY', 95, 1, inst71046),
    row('comp', '85025', I, 'ALL', 10, 1, clfs85025), row('comp', '85025', I, 'NY', 10, 1, clfs85025),
    row('comp', '99213', I, 'ALL', 140, 1, inst99213), row('comp', '99213', I, 'NY', 140, 1, inst99213),
    row('comp', '99213', P, 'ALL', (90 + 95) / 2, 2, nf99213), row('comp', '99213', P, 'CA', 90, 1, nf99213),
    row('comp', '99213', P, 'NY', 95, 1, nf99213),
    row('comp', '99214', P, 'ALL', 130, 1, nf99214), row('comp', '99214', P, 'CA', 130, 1, nf99214),
  ];

  it('has the medians of each side at the providers the other side has valid rates with, per state', async () => {
    const got = await rows(con, `SELECT insurer_id, billing_code, billing_class, state, median_rate, rate_count, provider_count,
        medicare_rate, month, snapshot FROM price_stats WHERE scope = 'shared' AND component = 'global'
      ORDER BY insurer_id DESC, billing_code, billing_class, state`);
    expect(got).toEqual(EXPECTED_SHARED);
    expect(await rows(con, `SELECT count(*)::INTEGER AS n FROM price_stats WHERE scope = 'shared' AND component <> 'global'`)).toEqual([{ n: 0 }]);
    expect(await rows(con, `SELECT count(*)::INTEGER AS n FROM price_stats WHERE scope = 'market' AND month IS NOT NULL`)).toEqual([{ n: 0 }]);
  });
});

describe('the manifest headline, with validation on and off', () => {
  // Weights (claims-volume.csv, no billing_class column): a class's count goes to its main unit, the one whose
  // reference price rests on the most providers:
  //   99213 professional 400 -> its one professional unit; institutional 0 (OPPS does not pay 99213, it has a professional unit)
  //   99214 300, 99215 100 (facility unit, the only one), 93000 50, S9083 80
  //   71046 professional 200 -> the 26 unit (ref on 3 providers) over global (2): global gets 0; institutional 200 (OPPS pays)
  //   85025 60 -> institutional (no professional unit)
  it('validated: valid rates, thin units out, mult has no price', () => {
    const expected = weightedMean([
      [variance(105, 90), 400], // 99213 professional: ref 105 (4 providers) vs comp 90 (3)
      [variance(160, 150), 0], // 99213 institutional
      [variance(150, 140), 300], // 99214
      [variance(42, 37), 0], // 71046 global
      [variance(12, 11.5), 200], // 71046-26
      [variance(105, 96), 200], // 71046 institutional
      [variance(160, 145), 100], // 99215 facility
      // 93000: ref's price rests on 1 provider < 2: thin, left out
      [variance(150, 150.5), 80], // S9083
      [variance(13, 10.5), 60], // 85025 institutional
    ]);
    expect(manifest.headline.snapshot).toBe('2025-03');
    expect(manifest.headline.avg_overpayment_validated).toBeCloseTo(expected, 9);
  });

  it('unvalidated: every dollar rate, no thin rule, mult\'s multipliers in the market average', () => {
    // every dollar rate per NPI:
    //   mult 99213: P1 1.00 .. 1.35 (8) and 95, P2 95, P3 95 -> 11 rows, 6th = 1.25
    //   mult 99214: P1 1.40 .. 1.70 -> 1.55; mult 71046 global: P1 1.75 .. 2.00 -> (1.85 + 1.90) / 2 = 1.875
    //   mult S9083: 1.50 and 1.60 at P1 .. P8 -> 16 rows -> (1.5 + 1.6) / 2 = 1.55
    //   ref 99214: P1 150, P2 150, P5 170, P3 4500, P4 4500 -> 170; ref S9083: 145 148 150 150 155 160 15000 -> 150
    //   comp 99214: P7 25, P13 25, P1 130, P6 150 -> (25 + 130) / 2 = 77.5
    const expected = weightedMean([
      [variance(105, (90 + 1.25) / 2), 400], // 99213 professional
      [variance(160, 150), 0], // 99213 institutional
      [variance(170, (77.5 + 1.55) / 2), 300], // 99214
      [variance(42, (37 + 1.875) / 2), 0], // 71046 global
      [variance(12, 11.5), 200], // 71046-26
      [variance(105, 96), 200], // 71046 institutional
      [variance(160, 145), 100], // 99215 facility
      [variance(20, 18), 50], // 93000: no thin rule
      [variance(150, (150.5 + 1.55) / 2), 80], // S9083
      [variance(13, 10.5), 60], // 85025
    ]);
    expect(manifest.headline.avg_overpayment_unvalidated).toBeCloseTo(expected, 9);
  });
});
