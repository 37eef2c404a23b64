/**
 * Check 4's medians (docs/methodology.md, Validation): one value per provider and distinct row,
 * identical rows once, a provider of two insurers once for each, at least 10 providers. The working
 * tables are written by hand here (the shapes of build-tables.ts and validation.ts), the membership
 * made by provider-membership.ts, and every expected median worked out below from the rule.
 *
 * One snapshot, one code; providers p1..p11, insurer A (source 0) and B (source 1):
 * A g1 = {p1..p5}, A g2 = {p5, p6}; B h1 = {p1, p7, p8, p9}, B h2 = {p10}, B h3 = {p11}.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { createOutlierMedians, OUTLIER_UNITS } from '../../scripts/convert/build/outlier-medians';
import { prepareMembers } from '../../scripts/convert/build/provider-membership';

let db: DuckDBInstance;
let con: DuckDBConnection;

/** Shapes: 1 global at POS 11, 2 global at POS 22, 3 component 26 at POS 11 (all professional). */
const GLOBAL_11 = 1;
const GLOBAL_22 = 2;
const PC_11 = 3;

beforeEach(async () => {
  db = await DuckDBInstance.create(':memory:');
  con = await db.connect();
  const members: [string, number, string, string[]][] = [
    ['A.g1', 0, 'g1', ['p1', 'p2', 'p3', 'p4', 'p5']], ['A.g2', 0, 'g2', ['p5', 'p6']],
    ['B.h1', 1, 'h1', ['p1', 'p7', 'p8', 'p9']], ['B.h2', 1, 'h2', ['p10']], ['B.h3', 1, 'h3', ['p11']],
  ];
  const groupRows = members.flatMap(([key, , , ps]) => ps.map((p) => `('${key}', '${p}')`)).join(', ');
  const resolved = members.map(([key, source, id], k) => `('${key}', ${source}, '${id}', ${k + 1}, true)`).join(', ');
  await con.run(`
    CREATE TABLE providers AS SELECT 'p' || i AS provider_id, CASE WHEN i % 2 = 0 THEN 'CA' ELSE 'NY' END AS state FROM range(1, 12) t(i);
    CREATE TABLE provider_groups (provider_group_key VARCHAR, provider_id VARCHAR);
    INSERT INTO provider_groups VALUES ${groupRows};
    CREATE TABLE resolved_groups (provider_group_key VARCHAR, source_id INTEGER, provider_group_id VARCHAR, gid INTEGER, kept BOOLEAN);
    INSERT INTO resolved_groups VALUES ${resolved};
    CREATE TABLE raw_values (code BIGINT, value VARCHAR);
    INSERT INTO raw_values VALUES (1, 'negotiated'), (2, '11'), (3, '22'), (4, ''), (5, '26');
    CREATE TABLE raw_shapes (shape INTEGER, negotiated_type BIGINT, service_codes BIGINT, modifiers BIGINT);
    INSERT INTO raw_shapes VALUES (${GLOBAL_11}, 1, 2, 4), (${GLOBAL_22}, 1, 3, 4), (${PC_11}, 1, 2, 5);
    CREATE TABLE shape_units (shape INTEGER, unit_class VARCHAR, unit_kind VARCHAR, component VARCHAR, outlier_unit INTEGER);
    INSERT INTO shape_units VALUES (${GLOBAL_11}, 'professional', 'professional', 'global', 0), (${GLOBAL_22}, 'professional', 'professional', 'global', 0),
      (${PC_11}, 'professional', 'professional', '26', 1);
    CREATE TABLE ps_series (ps_series INTEGER, snapshot VARCHAR, insurer_id VARCHAR, billing_code VARCHAR);
    INSERT INTO ps_series VALUES (1, '2025-01', 'A', 'S9083'), (2, '2025-01', 'B', 'S9083');`);
  await prepareMembers(con);
});

afterEach(() => {
  con.closeSync();
  db.closeSync();
});

/** SQL of prices (source_id, ps_series, shape, negotiated_rate, provider_group_ids) as createOutlierMedians reads them. */
function prices(rows: [number, number, number, number, string[]][]): string {
  return `SELECT * FROM (VALUES ${rows.map(([s, ps, shape, rate, ids]) => `(${s}, ${ps}, ${shape}, ${rate}::DOUBLE, '${ids.join('\x1f')}')`).join(', ')})
    t(source_id, ps_series, shape, negotiated_rate, provider_group_ids)`;
}

/** The outlier medians per series (OUTLIER_UNITS per series, NULL where none). */
async function medians(): Promise<Map<number, (number | null)[]>> {
  const rows = (await con.runAndReadAll('SELECT ps_series, medians FROM series_outlier_medians ORDER BY ps_series')).getRowsJson();
  return new Map(rows.map((r) => [Number(r[0]), (r[1] as (number | null)[]).map((x) => (x === null ? null : Number(x)))]));
}

const unit = (global: number | null, pc: number | null): (number | null)[] =>
  [global, pc, ...Array.from({ length: OUTLIER_UNITS - 2 }, () => null)];

describe('outlier medians', () => {
  it('count a provider once per distinct row and insurer, identical rows once, and need 10 providers', async () => {
    await createOutlierMedians(con, prices([
      // global: A 100 at g1 and g2 (p5 in both: once) and the same row again at g1 -> p1..p6, six values of 100
      [0, 1, GLOBAL_11, 100, ['g1', 'g2']], [0, 1, GLOBAL_11, 100, ['g1']],
      // B 200 at h1: p1 again (for B), p7, p8, p9 -> four values of 200
      [1, 2, GLOBAL_11, 200, ['h1']],
      // B 300 at h2, at POS 11 and at POS 22: two distinct rows of p10 -> two values of 300
      [1, 2, GLOBAL_11, 300, ['h2']], [1, 2, GLOBAL_22, 300, ['h2']],
      // 12 values from 10 providers: 100 x6, 200 x4, 300 x2 -> (100 + 200) / 2
      // component 26: 10 values from 9 providers (p1..p9): no median
      [0, 1, PC_11, 50, ['g1']], [0, 1, PC_11, 52, ['g2']], [1, 2, PC_11, 60, ['h1']],
    ]));
    const got = await medians();
    expect(got.get(1)).toEqual(unit(150, null));
    expect(got.get(2)).toEqual(got.get(1));
  });

  it('find the median of an odd count and of a provider added by another group', async () => {
    await createOutlierMedians(con, prices([
      [0, 1, GLOBAL_11, 100, ['g1', 'g2']], [1, 2, GLOBAL_11, 200, ['h1']], [1, 2, GLOBAL_11, 300, ['h2']],
      // component 26: p1..p9 and p11 (h3): 10 providers, 11 values 10 x6, 20 x4, 30 -> the 6th, 10
      [0, 1, PC_11, 10, ['g1', 'g2']], [1, 2, PC_11, 20, ['h1']], [1, 2, PC_11, 30, ['h3']],
    ]));
    // global: p1..p6 100, p1 p7 p8 p9 200, p10 300: 10 providers, 11 values -> the 6th, 100
    expect(await medians()).toEqual(new Map([[1, unit(100, 10)], [2, unit(100, 10)]]));
  });

  it('count a provider of two insurers at the same rate once for each', async () => {
    await createOutlierMedians(con, prices([
      // 100: A at g1 (p1..p5) and B at h1 (p1, p7, p8, p9) -> nine values, p1's for A and for B
      [0, 1, GLOBAL_11, 100, ['g1']], [1, 2, GLOBAL_11, 100, ['h1']],
      // 300: p5 and p6 (g2), p10 (h2) and p11 (h3), each at two places of service -> eight values
      [0, 1, GLOBAL_11, 300, ['g2']], [0, 1, GLOBAL_22, 300, ['g2']],
      [1, 2, GLOBAL_11, 300, ['h2', 'h3']], [1, 2, GLOBAL_22, 300, ['h2', 'h3']],
    ]));
    // 17 values from 11 providers -> the 9th, 100 (p1 once only: 16 values, (100 + 300) / 2)
    expect((await medians()).get(1)).toEqual(unit(100, null));
  });

  it('write no median under 10 providers', async () => {
    await createOutlierMedians(con, prices([[0, 1, GLOBAL_11, 100, ['g1', 'g2']], [1, 2, GLOBAL_11, 200, ['h1']]]));
    expect((await medians()).size).toBe(0);
  });
});
