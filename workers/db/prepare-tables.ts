/**
 * Derived tables built once per dataset at boot, after the boot tables are loaded, so the /api
 * pricing queries (workers/api/pricing-core.ts) stay small:
 *
 * - `claims_totals` (billing_code, state, professional DOUBLE, institutional DOUBLE): `claims_volume`
 *   summed per code, state and billing class (docs/methodology.md, Dashboard figures and
 *   Per comparison unit), instead of grouping on every request; a class without rows is 0.
 * - `stats_snapshots` (insurer_id, snapshot): the distinct pairs of price_stats' market rows
 *   (`scope` 'market'; the `shared` rows repeat snapshots per month), from which each request picks
 *   each insurer's snapshot for its month (docs/methodology.md, Rows that count); from the
 *   manifest when price_stats loads by month (db/stats.ts), since most months are not in yet.
 *
 * Not done: re-sorting `price_stats` by (state, billing_class) would let DuckDB skip segments
 * (a filtered scan of the sample 1.3 ms instead of 4.7 ms), but copying the table costs 150-350 ms
 * of boot in DuckDB-WASM, more than it saves; the converter could write it in that order.
 *
 * Names come from this file only (no request value reaches the SQL text).
 */
import { MARKET_SCOPE, type StatsSnapshot } from '../../contract/dataset';
import type { Database } from './database';
import { joinSql, sql, SqlFragment } from './sql';

/** The statements, in order, without parameters (bench/api.bench.ts replays them on native DuckDB). */
export const DERIVED_TABLES_SQL: readonly SqlFragment[] = [
  sql`CREATE TABLE claims_totals AS
    SELECT billing_code, state,
      coalesce(sum(claims_count) FILTER (WHERE billing_class = 'professional'), 0)::DOUBLE AS professional,
      coalesce(sum(claims_count) FILTER (WHERE billing_class = 'institutional'), 0)::DOUBLE AS institutional
    FROM claims_volume GROUP BY billing_code, state`,
  new SqlFragment(`CREATE TABLE stats_snapshots AS
    SELECT DISTINCT insurer_id, snapshot FROM price_stats WHERE scope = '${MARKET_SCOPE}' ORDER BY insurer_id, snapshot`, []),
];

/**
 * Builds the derived tables. `statsSnapshots`: the manifest's pairs (`tables.price_stats.stats_snapshots`)
 * when price_stats loads by month, so that `stats_snapshots` holds the months not loaded yet.
 * @throws DatabaseError
 */
export function prepareDerivedTables(db: Database, statsSnapshots?: readonly StatsSnapshot[]): void {
  if (statsSnapshots === undefined) {
    for (const statement of DERIVED_TABLES_SQL) db.exec(statement);
    return;
  }
  db.exec(DERIVED_TABLES_SQL[0]!);
  db.exec(sql`CREATE TABLE stats_snapshots (insurer_id VARCHAR, snapshot VARCHAR)`);
  const sorted = [...statsSnapshots].sort((a, b) => (a.insurer_id === b.insurer_id ? cmp(a.snapshot, b.snapshot) : cmp(a.insurer_id, b.insurer_id)));
  // parameters, not text: the values come from a file
  for (let i = 0; i < sorted.length; i += 500) {
    const rows = sorted.slice(i, i + 500).map((r) => sql`(${r.insurer_id}, ${r.snapshot})`);
    db.all(sql`INSERT INTO stats_snapshots VALUES ${joinSql(rows, ', ')}`);
  }
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
