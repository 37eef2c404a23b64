/**
 * contract/sql/confidence-sql.ts priceConfidenceRankSql against contract/rules/confidence.ts priceConfidence,
 * in DuckDB: every combination of the rules' boundaries (support 1, 2, 4, 5; spread at and just past
 * 2x and 4x, a p10 of 0, no distribution; % of Medicare at and just past 50, 75, 400 and 1,000, no
 * benchmark, a benchmark of 0; derived, not, NULL) gives the same rank.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { priceConfidence } from '../../contract/rules/confidence';
import { confidenceRank, priceConfidenceRankSql } from '../../contract/sql/confidence-sql';
import { medicarePct } from '../../contract/rules/metrics';

const SUPPORT = [1, 2, 4, 5, 40];
const SPREAD: Array<[number | null, number | null]> = [[null, null], [10, 20], [10, 20.000001], [10, 40], [10, 40.000001], [0, 10], [10, null]];
/** [price, Medicare amount]: % of Medicare 50, 49.99.., 75, 74.99.., 400, 400.0.., 1,000, 1,000.0.., none, a 0 amount. */
const MEDICARE: Array<[number, number | null]> = [[50, 100], [49.999999, 100], [75, 100], [74.999999, 100], [400, 100], [400.000001, 100],
  [1000, 100], [1000.000001, 100], [123, null], [123, 0], [93.24, 7.77]];
const DERIVED = [true, false, null];

describe('the SQL twin of a price confidence', () => {
  it('ranks every boundary case as priceConfidence does', async () => {
    const cases = SUPPORT.flatMap((n) => SPREAD.flatMap(([p10, p90]) => MEDICARE.flatMap(([price, mr]) => DERIVED.map((d) => ({ n, p10, p90, price, mr, d })))));
    const lit = (v: number | boolean | null): string => (v === null ? 'NULL' : String(v));
    const values = cases.map((c, i) => `(${i}, ${c.n}, ${lit(c.p10)}::DOUBLE, ${lit(c.p90)}::DOUBLE, ${c.price}::DOUBLE, ${lit(c.mr)}::DOUBLE, ${lit(c.d)}::BOOLEAN)`);
    const rank = priceConfidenceRankSql({ providers: 'n', p10: 'p10', p90: 'p90', price: 'price', medicareRate: 'mr', derived: 'd' });
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const got = (await con.runAndReadAll(`SELECT i, ${rank} AS r FROM (VALUES ${values.join(', ')}) t(i, n, p10, p90, price, mr, d) ORDER BY i`)).getRows();
    con.closeSync();
    const want = cases.map((c, i) => [i, confidenceRank(priceConfidence({
      providers: c.n, p10: c.p10, p90: c.p90, medicarePct: medicarePct(c.price, c.mr), derived: c.d === true,
    }).confidence)]);
    expect(got.map(([i, r]) => [Number(i), Number(r)])).toEqual(want);
    // the grid reaches every level
    expect(new Set(want.map(([, r]) => r))).toEqual(new Set([0, 1, 2]));
  });
});
