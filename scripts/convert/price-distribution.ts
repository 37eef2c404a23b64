/**
 * The distribution of the market's prices over their providers (docs/methodology.md, Confidence and
 * distribution): for each series (snapshot, insurer, code, unit) and state, p10, p25, p75, p90 of
 * its provider medians (each provider once, by the median of its valid rates) and whether any
 * valid row is `derived`, without expanding the rates to one row per NPI:
 * - a provider found in one group only has exactly its group's distinct rows, so its median is the
 *   group's, and the group stands for its single providers of each state (`ps_weights`);
 * - a provider of several groups (`ps_shared_members` pid) is expanded and de-duplicated, one
 *   median each.
 * The quantiles of that weighted multiset are DuckDB's `quantile_cont` (linear interpolation at
 * position (N - 1) q of the expanded list), read from the running weights: the value at 0-based
 * position k is the first median, ascending, whose running weight passes k.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { dollarRateSql, UNIT_COUNT } from '../../contract/unit-sql';
import { GROUP_ID_UNNEST_SQL } from './spool';

/** The quantiles stored, with their columns. */
const QUANTILES = [[0.1, 'p10'], [0.25, 'p25'], [0.75, 'p75'], [0.9, 'p90']] as const;

/**
 * Creates `ps_dist` (sid, st, p10, p25, p75, p90, derived: the market's), `ps_pid_rows` (the valid
 * rows at providers of several groups, the only ones that can be shared) and `ps_shared_dist`
 * (month, sid, st, ...: at shared providers, finishSharedDistribution). @throws when SQL fails.
 */
export async function prepareDistribution(con: DuckDBConnection): Promise<void> {
  await con.run(`CREATE TABLE ps_dist (sid INTEGER, st USMALLINT, p10 DOUBLE, p25 DOUBLE, p75 DOUBLE, p90 DOUBLE, derived BOOLEAN);
    CREATE TABLE ps_pid_rows (sid INTEGER, pid INTEGER, st USMALLINT, vid INTEGER, v DOUBLE, derived BOOLEAN);
    CREATE TABLE ps_shared_dist (month VARCHAR, sid INTEGER, st USMALLINT, p10 DOUBLE, p25 DOUBLE, p75 DOUBLE, p90 DOUBLE, derived BOOLEAN);`);
}

/** The working tables of the distributions. */
export const DISTRIBUTION_TABLES = ['ps_dist', 'ps_pid_rows', 'ps_shared_dist'] as const;

/** SQL of p10 .. p90 (DuckDB's quantile_cont) and derived over provider medians `m` and flags `d`. */
export const QUANTILES_OF_MEDIANS = `${QUANTILES.map(([q, name]) => `quantile_cont(m, ${q}) AS ${name}`).join(', ')}, bool_or(d) AS derived`;

/**
 * Fills `ps_shared_dist` from `ps_pid_rows`: for each month M (each insurer at its latest snapshot
 * at or before M), a competitor's rows at providers where the reference insurer has a valid row of
 * the unit, the reference's where any competitor has one (the rule of shared-providers.ts); then
 * each provider's median and their quantiles per (month, series, state).
 * @throws when SQL fails.
 */
export async function finishSharedDistribution(con: DuckDBConnection): Promise<void> {
  await con.run(`
    INSERT INTO ps_shared_dist
    WITH months AS (SELECT DISTINCT snapshot AS month FROM ps_series),
    chosen AS (SELECT m.month, i.insurer_id, max(i.snapshot) AS snapshot FROM months m JOIN (SELECT DISTINCT insurer_id, snapshot FROM ps_series) i
               ON i.snapshot <= m.month GROUP BY ALL),
    rows AS (SELECT c.month, s.billing_code, r.sid % ${UNIT_COUNT} AS unit, s.insurer_id = (SELECT insurer_id FROM reference_insurer) AS is_reference, r.*
             FROM ps_pid_rows r JOIN ps_series s ON s.ps_series = r.sid // ${UNIT_COUNT} JOIN chosen c ON c.insurer_id = s.insurer_id AND c.snapshot = s.snapshot),
    presence AS (SELECT month, billing_code, unit, pid, bool_or(is_reference) AS at_reference, bool_or(NOT is_reference) AS at_competitor
                 FROM rows GROUP BY ALL),
    by_provider AS (
      SELECT r.month, r.sid, r.pid, any_value(r.st) AS st, median(r.v) AS m, bool_or(r.derived) AS d
      FROM rows r JOIN presence p USING (month, billing_code, unit, pid)
      WHERE CASE WHEN r.is_reference THEN p.at_competitor ELSE p.at_reference END
      GROUP BY r.month, r.sid, r.pid)
    SELECT month, sid, 0, ${QUANTILES_OF_MEDIANS} FROM by_provider GROUP BY month, sid
    UNION ALL SELECT month, sid, st, ${QUANTILES_OF_MEDIANS} FROM by_provider WHERE st IS NOT NULL AND st > 0 GROUP BY month, sid, st`);
}

/** SQL of the value at 0-based position `k` (an SQL expression) of the expanded medians: the first whose running weight passes it. */
const at = (k: string): string => `min(m) FILTER (WHERE hi > ${k})`;

/**
 * Adds to `ps_dist` the distributions of the bucket whose prices `prices` defines as
 * `bucket_prices` (code-buckets.ts bucketPricesSql, MEDIANS_COLUMNS), from its valid dollar rows
 * of CPT/HCPCS items at the kept groups; `vid` as build-price-stats.ts vidSql numbers a row's
 * identity beside its value.
 * @throws when SQL fails.
 */
export async function distributionOfBucket(con: DuckDBConnection, prices: string, vid: string): Promise<void> {
  const quantiles = QUANTILES.map(([q, name]) => {
    const h = `(n_total - 1) * ${q}`;
    const lo = `floor(${h})`;
    return `${at(lo)} + (${h} - ${lo}) * (${at(`least(${lo} + 1, n_total - 1)`)} - ${at(lo)}) AS ${name}`;
  }).join(',\n           ');
  await con.run(`
    CREATE OR REPLACE TEMP TABLE ps_bucket_valid AS
    ${prices}
      SELECT DISTINCT CAST(b.ps_series * ${UNIT_COUNT} + b.stats_unit AS INTEGER) AS sid, g.gid, b.vid, CAST(b.negotiated_rate AS DOUBLE) AS v, b.derived
      FROM (SELECT ps_series, stats_unit, source_id, negotiated_rate, vid, derived, ${GROUP_ID_UNNEST_SQL} AS provider_group_id
            FROM (SELECT *, CAST(${vid} AS INTEGER) AS vid, CAST(negotiated_type AS VARCHAR) = 'derived' AS derived FROM bucket_prices
                  WHERE ps_series IS NOT NULL AND stats_unit IS NOT NULL AND validation IS NULL
                    AND ${dollarRateSql('negotiated_type', 'negotiated_rate', true)})) b
      JOIN resolved_groups g ON g.source_id = b.source_id AND g.provider_group_id = b.provider_group_id AND g.kept;
    INSERT INTO ps_pid_rows SELECT DISTINCT v.sid, s.pid, s.st, v.vid, v.v, v.derived FROM ps_bucket_valid v JOIN ps_shared_members s ON s.gid = v.gid;
    INSERT INTO ps_dist
    WITH valid AS (SELECT * FROM ps_bucket_valid),
    by_group AS (SELECT sid, gid, median(v) AS m, bool_or(derived) AS derived FROM valid GROUP BY sid, gid),
    by_pid AS (
      SELECT sid, pid, any_value(st) AS st, median(v) AS m, bool_or(derived) AS derived
      FROM (SELECT DISTINCT v.sid, s.pid, s.st, v.vid, v.v, v.derived FROM valid v JOIN ps_shared_members s ON s.gid = v.gid)
      GROUP BY sid, pid),
    weighted AS (
      SELECT g.sid, w.st, g.m, w.n, g.derived FROM by_group g JOIN ps_weights w ON w.gid = g.gid
      UNION ALL SELECT sid, 0, m, 1, derived FROM by_pid
      UNION ALL SELECT sid, st, m, 1, derived FROM by_pid WHERE st IS NOT NULL AND st > 0),
    running AS (
      SELECT sid, st, m, derived, sum(n) OVER (PARTITION BY sid, st ORDER BY m ROWS UNBOUNDED PRECEDING) AS hi,
             sum(n) OVER (PARTITION BY sid, st) AS n_total
      FROM weighted)
    SELECT sid, st, ${quantiles}, bool_or(derived)
    FROM running GROUP BY sid, st, n_total;
    DROP TABLE ps_bucket_valid;`);
}
