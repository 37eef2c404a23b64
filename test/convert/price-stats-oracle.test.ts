/**
 * price_stats (build-price-stats.ts, from group weights) against docs/methodology.md taken literally: on
 * random spools, every rate expanded to one row per provider of its group, identical rows (insurer,
 * snapshot, billing code, provider, billing class, negotiated type, rate, place-of-service codes,
 * modifiers) counted once, then DuckDB's own `median`, `count` and `count(DISTINCT provider)` per
 * comparison unit (billing class, component, setting) and state, over the valid rates (checks 2 and
 * 3 of docs/methodology.md, Validation, written out here), and nationally over every dollar rate
 * (`ps_unvalidated`, validation off). The spools are built to stress what the
 * weights shortcut must get right: providers in several groups (of one file and of two files of
 * one insurer), ties and duplicates across items, providers without a state, TIN-only providers,
 * non-dollar rows, dangling group ids and CPT next to non-service codes, in one bucket and in
 * buckets of a few rows each. The medians at shared providers are checked the same way: per month,
 * each insurer's latest snapshot, a competitor's valid rows at the providers where the reference
 * (insurer a) has a valid row of the unit, a's rows where any competitor has one. So are the market
 * bands: per month, unit and state, the quantiles of the provider medians of every competitor (b and
 * c, each by its latest snapshot) pooled, a provider once per insurer (market-bands.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildWorkingTables } from './working-tables';
import { buildPriceStats } from '../../scripts/convert/build/stats/build-price-stats';
import { componentSql, unitSettingSql } from '../../contract/sql/unit-sql';
import { ENUM_MAX_BYTES } from '../../scripts/convert/build/stats/code-buckets';
import { openSpool } from '../../scripts/convert/spool/spool';
import { Rng } from '../../scripts/sample/rng';

const NPPES_HEADER = ['NPI', 'Entity Type Code', 'Provider Organization Name (Legal Business Name)', 'Provider Last Name (Legal Name)',
  'Provider First Name', 'Provider Business Practice Location Address State Name',
  'Provider Business Practice Location Address Postal Code', 'Healthcare Provider Taxonomy Code_1'];

type Row = [string, string, string, string, string, number, number, number];

let tmp: string;

/** A modifier longer than an ENUM's values may be (code-buckets.ts ENUM_MAX_BYTES): `modifiers` stays text. */
const LONG_MODIFIER = 'm'.repeat(ENUM_MAX_BYTES + 1);

/** The columns of a dollar row's identity besides its value (build-price-stats.ts vidSql). */
const VID_COLUMNS = ['billing_class', 'negotiated_type', 'service_codes', 'modifiers'];

/**
 * Writes a random spool of seed `seed` (with `longModifier`, one price's modifier is LONG_MODIFIER),
 * builds the tables, and returns [weights, literal] price_stats rows and which of VID_COLUMNS are
 * bucket ENUMs.
 */
async function compare(seed: number, bucketRows: number, longModifier = false): Promise<{
  got: Row[]; want: Row[]; gotOff: Row[]; wantOff: Row[]; gotShared: Row[]; wantShared: Row[]; gotDist: string[]; wantDist: string[]; gotSharedDist: string[]; wantSharedDist: string[];
  gotBand: string[]; wantBand: string[]; enums: string[];
}> {
  const rng = new Rng(seed);
  const rnd = (): number => rng.next();
  const pick = <T>(xs: readonly T[]): T => rng.pick(xs);
  const dir = path.join(tmp, `s${seed}-${bucketRows}-${longModifier}`);
  await mkdir(dir, { recursive: true });
  // 14 NPIs: 10 in the registry (CA, NY, TX), 4 without a state (not in the registry)
  const npis = Array.from({ length: 14 }, (_, i) => String(1000000001 + i));
  const registry = [NPPES_HEADER.map((h) => `"${h}"`).join(','),
    ...npis.slice(0, 10).map((n, i) => `${n},1,,Doe,X,${['CA', 'NY', 'TX'][i % 3]},0000${i},207Q00000X`)].join('\n');
  await writeFile(path.join(dir, 'npi.csv'), registry);
  const groups: string[] = [];
  const items: string[] = [];
  const prices: string[] = [];
  const codes = [['CPT', '99213'], ['CPT', '99214'], ['HCPCS', 'G0439'], ['MS-DRG', '470']] as const;
  // sources 0 and 1: insurer a (one snapshot, two files); source 2: insurer b; source 3: insurer c, a month later
  for (let s = 0; s < 4; s++) {
    for (let g = 0; g < 8; g++) {
      const size = 1 + Math.floor(rnd() * 4);
      const members = new Set(Array.from({ length: size }, () => pick(npis)));
      for (const n of members) groups.push(`${s},g${g},${n},${n},ein,${s}${g},,,`);
    }
    groups.push(`${s},t,TIN:99${s},,ein,99-${s},,,`); // a TIN-only provider
    for (let i = 0; i < 6; i++) {
      const [type, code] = pick(codes);
      items.push(`${s},${i},${type},${code},name,,ffs`);
      for (let r = 0; r < 6; r++) {
        const ids = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => pick(['g0', 'g1', 'g2', 'g3', 'g4', 'g5', 'g6', 'g7', 't', 'gx']));
        for (let p = 0; p < 1 + Math.floor(rnd() * 2); p++) {
          const cls = pick(['professional', 'institutional', 'both']);
          const type = pick(['negotiated', 'negotiated', 'fee schedule', 'derived', 'percentage', 'per diem']);
          // 10.37 and 28.56: a pair whose midpoint a + (b - a) / 2 is not DuckDB's median (a 0.5 + b 0.5) in the last bit
          const rate = pick([0, 10, 10.37, 20, 25.5, 28.56, 30, 40, 100, 100, 3000]);
          // an unquoted empty field is NULL (absent), a quoted one '' (spool-rows.ts)
          const modifier = longModifier && prices.length === 7 ? `"${LONG_MODIFIER}"` : pick(['""', '', '"26"']);
          const serviceCodes = pick(['"11"', '"11"', '"22"', '"11|22"', '']);
          prices.push(`${s},${i},${r},${p},"${ids.join('\x1f')}",${cls},${type},${rate},${serviceCodes},${modifier},9999-12-31,,`);
        }
      }
    }
  }
  await writeFile(path.join(dir, 'g.csv'), groups.join('\n') + '\n');
  await writeFile(path.join(dir, 'i.csv'), items.join('\n') + '\n');
  await writeFile(path.join(dir, 'r.csv'), prices.join('\n') + '\n');
  const spool = await openSpool(dir);
  try {
    await spool.load('raw_groups', [path.join(dir, 'g.csv')]);
    await spool.load('raw_items', [path.join(dir, 'i.csv')]);
    await spool.loadTextPrices([path.join(dir, 'r.csv')]);
    await spool.con.run(`CREATE TABLE sources (source_id INTEGER, insurer_id VARCHAR, snapshot VARCHAR);
      INSERT INTO sources VALUES (0, 'a', '2025-01'), (1, 'a', '2025-01'), (2, 'b', '2025-01'), (3, 'c', '2025-02');`);
    await buildWorkingTables(spool.con, { referenceInsurer: 'a', npiRegistry: path.join(dir, 'npi.csv'), bucketRows });
    await buildPriceStats(spool.con);
    const read = async (sql: string): Promise<Row[]> => (await spool.con.runAndReadAll(sql)).getRows()
      .map((r) => [String(r[0]), String(r[1]), String(r[2]), String(r[3]), String(r[4]), Number(r[5]), Number(r[6]), Number(r[7])]);
    // the random prices hold no source of multipliers (their ratios to Medicare are 0.08 and up): checks 2 to 4 decide validity
    const checks = await spool.con.runAndReadAll('SELECT count(*) FROM source_checks WHERE not_dollars');
    expect(Number(checks.getRows()[0]![0])).toBe(0);
    const unit = `r.billing_class || '|' || ${componentSql('r.modifiers')} || '|' || ${unitSettingSql('r.billing_class', 'r.service_codes')}`;
    const got = await read(`SELECT snapshot, insurer_id, billing_code, billing_class || '|' || component || '|' || setting, state,
      median_rate, rate_count, provider_count FROM price_stats WHERE scope = 'market' AND month IS NULL ORDER BY ALL`);
    const gotShared = await read(`SELECT month || '/' || snapshot, insurer_id, billing_code, billing_class || '|' || component || '|' || setting, state,
      median_rate, rate_count, provider_count FROM price_stats WHERE scope = 'shared' ORDER BY ALL`);
    const gotOff = await read(`SELECT snapshot, insurer_id, billing_code, billing_class || '|' || component || '|' || setting, 'ALL',
      median_rate, 0, provider_count FROM ps_unvalidated ORDER BY ALL`);
    // the distribution of a market price (docs/methodology.md, Confidence and distribution), every figure to the last bit
    const dist = (sql: string): Promise<string[]> => spool.con.runAndReadAll(sql).then((r) => r.getRows().map((x) => x.map(String).join(' ')));
    const gotDist = await dist(`SELECT snapshot, insurer_id, billing_code, billing_class || '|' || component || '|' || setting, state,
      p10, p25, p75, p90, derived FROM price_stats WHERE scope = 'market' ORDER BY ALL`);
    const gotSharedDist = await dist(`SELECT month || '/' || snapshot, insurer_id, billing_code, billing_class || '|' || component || '|' || setting, state,
      p10, p25, p75, p90, derived FROM price_stats WHERE scope = 'shared' ORDER BY ALL`);
    const gotBand = await dist(`SELECT month, billing_code, billing_class || '|' || component || '|' || setting, state, median_rate, provider_count,
      p10, p25, p75, p90, derived, snapshot, insurer_id, rate_count FROM price_stats WHERE scope = 'market_band' ORDER BY ALL`);
    const literal = (valid: string, states: boolean, count: string, shared = false, distribution = false, band = false): string => `
      WITH rows AS (
        SELECT DISTINCT r.snapshot, r.insurer_id, r.billing_code, m.provider_id, r.billing_class, r.negotiated_type,
               r.negotiated_rate, r.service_codes, r.modifiers, p.state, ${unit} AS unit, b.medicare_rate
        FROM rates r JOIN (SELECT DISTINCT provider_group_key, provider_id FROM provider_groups) m USING (provider_group_key)
        JOIN providers p USING (provider_id)
        LEFT JOIN medicare_benchmarks b ON b.billing_code = r.billing_code
          AND b.billing_class = CASE r.billing_class WHEN 'institutional' THEN 'institutional' ELSE 'professional' END
          AND b.component = ${componentSql('r.modifiers')} AND b.setting = ${unitSettingSql('r.billing_class', 'r.service_codes')}
        WHERE r.billing_code_type IN ('CPT', 'HCPCS') AND lower(r.negotiated_type) IN ('negotiated', 'fee schedule', 'derived')
          AND r.negotiated_rate > 0 AND r.billing_class IN ('professional', 'institutional', 'both')),
      unbenchmarked AS (
        SELECT snapshot, billing_code, billing_class, ${componentSql('modifiers')} AS component, median(negotiated_rate) AS m
        FROM rows WHERE medicare_rate IS NULL GROUP BY ALL HAVING count(DISTINCT provider_id) >= 10),
      checked AS (
        SELECT r.*, o.m FROM rows r LEFT JOIN unbenchmarked o ON o.snapshot = r.snapshot AND o.billing_code = r.billing_code
          AND o.billing_class = r.billing_class AND o.component = ${componentSql('r.modifiers')}),
      valid AS (SELECT * EXCLUDE (m) FROM checked WHERE ${valid}),
      -- at shared providers (docs/methodology.md): per month, each insurer's latest snapshot at or before it
      chosen AS (SELECT m.month, i.insurer_id, max(i.snapshot) AS snapshot
        FROM (SELECT DISTINCT snapshot AS month FROM sources) m, (SELECT DISTINCT insurer_id, snapshot FROM sources) i
        WHERE i.snapshot <= m.month GROUP BY ALL),
      in_month AS (SELECT c.month, v.* FROM valid v JOIN chosen c USING (insurer_id, snapshot)),
      present AS (SELECT DISTINCT month, insurer_id, billing_code, unit, provider_id FROM in_month),
      at_shared AS (
        SELECT r.* EXCLUDE (month, snapshot), r.month || '/' || r.snapshot AS snapshot FROM in_month r
        WHERE EXISTS (SELECT 1 FROM present p WHERE p.month = r.month AND p.billing_code = r.billing_code AND p.unit = r.unit
          AND p.provider_id = r.provider_id AND (p.insurer_id = 'a') <> (r.insurer_id = 'a'))),
      kept AS (SELECT * FROM ${band ? "in_month WHERE insurer_id <> 'a'" : shared ? 'at_shared' : 'valid'}),
      by_state AS (SELECT *, 'ALL' AS st FROM kept ${states ? 'UNION ALL SELECT *, state FROM kept WHERE state IS NOT NULL' : ''})
      ${band ? `,
      by_provider AS (SELECT month, insurer_id, billing_code, unit, st, provider_id, median(negotiated_rate) AS m,
        bool_or(lower(negotiated_type) = 'derived') AS d FROM by_state GROUP BY ALL)
      SELECT month, billing_code, unit, st, quantile_cont(m, 0.5), count(*), quantile_cont(m, 0.1), quantile_cont(m, 0.25),
        quantile_cont(m, 0.75), quantile_cont(m, 0.9), bool_or(d), NULL, NULL, NULL FROM by_provider GROUP BY ALL ORDER BY ALL` : distribution ? `,
      by_provider AS (SELECT snapshot, insurer_id, billing_code, unit, st, provider_id, median(negotiated_rate) AS m,
        bool_or(lower(negotiated_type) = 'derived') AS d FROM by_state GROUP BY ALL)
      SELECT snapshot, insurer_id, billing_code, unit, st, quantile_cont(m, 0.1), quantile_cont(m, 0.25), quantile_cont(m, 0.75),
        quantile_cont(m, 0.9), bool_or(d) FROM by_provider GROUP BY ALL ORDER BY ALL` : `
      SELECT snapshot, insurer_id, billing_code, unit, st, median(negotiated_rate), ${count}, count(DISTINCT provider_id)
      FROM by_state GROUP BY ALL ORDER BY ALL`}`;
    const valid = `CASE WHEN medicare_rate IS NOT NULL THEN negotiated_rate / medicare_rate BETWEEN 0.3 AND 30
      ELSE m IS NULL OR (negotiated_rate / m <= 10 AND m / negotiated_rate <= 10) END`;
    const want = await read(literal(valid, true, 'count(*)'));
    const wantShared = await read(literal(valid, true, 'count(*)', true));
    const wantOff = await read(literal('true', false, '0'));
    const wantDist = await dist(literal(valid, true, '0', false, true));
    const wantSharedDist = await dist(literal(valid, true, '0', true, true));
    const wantBand = await dist(literal(valid, true, '0', false, false, true));
    const types = await spool.con.runAndReadAll(`SELECT type_name FROM duckdb_types() WHERE starts_with(type_name, 'bucket_')`);
    const enums = VID_COLUMNS.filter((c) => types.getRows().some((t) => t[0] === `bucket_${c}`));
    return { got, want, gotOff, wantOff, gotShared, wantShared, gotDist, wantDist, gotSharedDist, wantSharedDist, gotBand, wantBand, enums };
  } finally {
    await spool.close();
  }
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-ps-oracle-'));
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('price_stats against the literal expansion of docs/methodology.md', () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`gives the same medians, counts and providers (seed ${seed}, one bucket and buckets of 20 rows)`, async () => {
      const one = await compare(seed, 1_000_000);
      expect(one.want.length).toBeGreaterThan(20);
      expect(one.enums).toEqual(VID_COLUMNS); // vid from the ENUM codes
      expect(one.got).toEqual(one.want);
      expect(one.gotOff).toEqual(one.wantOff);
      expect(one.wantOff.length).toBeGreaterThan(one.want.filter((r) => r[4] === 'ALL').length / 2);
      // at shared providers: both months, insurers a and b matched in each, c in the second
      expect(new Set(one.wantShared.map((r) => `${r[0]}:${r[1]}`))).toEqual(new Set(['2025-01/2025-01:a', '2025-01/2025-01:b',
        '2025-02/2025-01:a', '2025-02/2025-01:b', '2025-02/2025-02:c']));
      expect(one.gotShared).toEqual(one.wantShared);
      // the distribution over the provider medians: every market row, derived rows among them
      expect(one.gotDist).toEqual(one.wantDist);
      expect(one.wantDist.length).toBe(one.want.length);
      expect(one.gotSharedDist).toEqual(one.wantSharedDist);
      expect(one.wantSharedDist.length).toBe(one.wantShared.length);
      // the market bands: both months, every state
      expect(one.gotBand).toEqual(one.wantBand);
      expect(new Set(one.wantBand.map((r) => r.split(' ')[0]))).toEqual(new Set(['2025-01', '2025-02']));
      const many = await compare(seed, 20);
      expect(many.gotBand).toEqual(one.wantBand);
      expect(many.got).toEqual(one.want);
      expect(many.gotDist).toEqual(one.wantDist);
      expect(many.gotSharedDist).toEqual(one.wantSharedDist);
      expect(many.gotOff).toEqual(one.wantOff);
      expect(many.gotShared).toEqual(one.wantShared);
    });
  }

  for (const seed of [1, 2]) {
    it(`gives the same with a column too long for an ENUM, vid by dense rank (seed ${seed})`, async () => {
      const one = await compare(seed, 1_000_000, true);
      expect(one.enums).toEqual(['billing_class', 'negotiated_type', 'service_codes']);
      expect(one.want.length).toBeGreaterThan(20);
      expect(one.got).toEqual(one.want);
      expect((await compare(seed, 20, true)).got).toEqual(one.want);
    });
  }
});
