/**
 * Derived tables, so the /api pricing queries (workers/pricing/pricing-core.ts) stay small:
 *
 * - `claims_totals` (billing_code, state, professional DOUBLE, institutional DOUBLE): `claims_volume`
 *   summed per code, state and billing class (docs/methodology.md, Dashboard figures and
 *   Per comparison unit), instead of grouping on every request; a class without rows is 0. Built
 *   on first use (ensureClaimsTotals): a selection over the stored unit pivot and Live Search never
 *   read it, and need not wait for it (about 0.1 s at the market-year shape in DuckDB-WASM).
 * - `stats_snapshots` (insurer_id, snapshot): the distinct pairs of price_stats' market rows
 *   (`scope` 'market'; the `shared` rows repeat snapshots per month), from which each request picks
 *   each insurer's snapshot for its month (docs/methodology.md, Rows that count); built at boot,
 *   and only when price_stats is loaded whole (db/stats.ts): when it loads by month the manifest
 *   lists the pairs.
 *
 * Not done: re-sorting `price_stats` by (state, billing_class) would let DuckDB skip segments
 * (a filtered scan of the sample 1.3 ms instead of 4.7 ms), but copying the table costs 150-350 ms
 * of boot in DuckDB-WASM, more than it saves; the converter could write it in that order.
 *
 * Names come from this file only (no request value reaches the SQL text).
 */
import { MARKET_SCOPE } from '../../contract/files/dataset';
import type { Database } from './database';
import { sql, SqlFragment } from './sql';

/** `claims_totals`, built by its first reader (ensureClaimsTotals). */
const CLAIMS_TOTALS_SQL = sql`CREATE TABLE claims_totals AS
    SELECT billing_code, state,
      coalesce(sum(claims_count) FILTER (WHERE billing_class = 'professional'), 0)::DOUBLE AS professional,
      coalesce(sum(claims_count) FILTER (WHERE billing_class = 'institutional'), 0)::DOUBLE AS institutional
    FROM claims_volume GROUP BY billing_code, state`;

/** `stats_snapshots`, built at boot when price_stats is loaded whole (prepareDerivedTables). */
const STATS_SNAPSHOTS_SQL = new SqlFragment(`CREATE TABLE stats_snapshots AS
    SELECT DISTINCT insurer_id, snapshot FROM price_stats WHERE scope = '${MARKET_SCOPE}' ORDER BY insurer_id, snapshot`, []);

/** The statements, in order, without parameters (bench/api.bench.ts replays them on native DuckDB). */
export const DERIVED_TABLES_SQL: readonly SqlFragment[] = [CLAIMS_TOTALS_SQL, STATS_SNAPSHOTS_SQL];

/** The databases whose `claims_totals` is built. */
const withClaimsTotals = new WeakSet<Database>();

/**
 * Builds `claims_totals` in `db` unless it is built already; every query that joins it calls this
 * first (pricing-core.ts unitsQuery, unit-pivot.ts). `claims_volume` must be loaded.
 * @throws DatabaseError
 */
export function ensureClaimsTotals(db: Database): void {
  if (withClaimsTotals.has(db)) return;
  db.exec(CLAIMS_TOTALS_SQL);
  withClaimsTotals.add(db);
}

/**
 * Builds the derived tables of the boot: `stats_snapshots`, unless `statsByMonth` (price_stats loads
 * by month, db/stats.ts, and the manifest lists the pairs, api/stats-selection.ts).
 * `claims_totals` waits for its first use (ensureClaimsTotals).
 * @throws DatabaseError
 */
export function prepareDerivedTables(db: Database, statsByMonth = false): void {
  if (!statsByMonth) db.exec(STATS_SNAPSHOTS_SQL);
}
