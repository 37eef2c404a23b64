/**
 * `price_stats` (metrics.md, Rows that count and Per service) without multiplying rates by NPIs.
 *
 * The logical rows are distinct (snapshot, insurer, billing code, provider, billing class,
 * negotiated type, rate, place-of-service codes, modifiers) dollar rows, one per NPI of a group.
 * Expanding them costs rates x NPIs (hundreds of millions of rows for a 1 GB file), so this builds
 * the same medians from weights:
 * - a provider found in ONE provider group only ("single") has exactly the distinct rows of its
 *   group, so each distinct group-level row stands for n rows, n = the group's single providers
 *   (per state);
 * - providers found in several groups ("shared") could repeat a row through two groups: only they
 *   are expanded and de-duplicated, one row each.
 * The median of the weighted multiset is taken at the middle positions (the midpoint of the two
 * middle values when the count is even, interpolated as DuckDB's `median` does: a + (b - a) / 2).
 *
 * Speed: every join and partition works on integer surrogate keys: `gid` of `resolved_groups`
 * (build-tables.ts) for a provider group, `ps_series` of `rate_items` for the (snapshot,
 * insurer_id, billing_code) of a CPT/HCPCS item (NULL for other code types); text comes back only
 * in the final, small table. A large database is done one billing-code bucket at a time
 * (code-buckets.ts), so that each bucket's aggregation runs within DuckDB's memory limit instead of
 * spilling, from the bucket's prices that the `rates` part is written from (withBucketPrices).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { ALL_STATES } from '../../contract/dataset';
import { bucketCount, withBucketPrices } from './code-buckets';
import { DOLLAR_NEGOTIATED_TYPES } from '../../contract/metrics';
import { GROUP_ID_UNNEST_SQL } from './spool';

const sqlList = (xs: readonly string[]): string => xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(', ');

/** The helper tables preparePriceStats creates for priceStatsOfBucket (any connection may read them). */
const HELPER_TABLES = ['ps_members', 'ps_shared', 'ps_states', 'ps_weights', 'ps_shared_members'] as const;

/**
 * Creates `price_stats` from the spool's prices (`raw_prices`, `rate_items`), `ps_series`
 * (ps_series -> snapshot, insurer_id, billing_code), `resolved_groups`, `provider_groups` and
 * `providers` (build-tables.ts), one billing-code bucket after the other. A conversion does the
 * same through write-dataset.ts, each bucket beside its `rates` part.
 * @throws when SQL fails.
 */
export async function buildPriceStats(con: DuckDBConnection): Promise<void> {
  await preparePriceStats(con);
  for (let k = 0, n = await bucketCount(con); k < n; k++) await withBucketPrices(con, k, () => priceStatsOfBucket(con));
  await finishPriceStats(con);
}

/**
 * Creates the empty `price_stats` table and the provider membership tables its buckets share
 * (regular tables, so that priceStatsOfBucket may run on other connections of the database).
 * @throws when SQL fails.
 */
export async function preparePriceStats(con: DuckDBConnection): Promise<void> {
  await prepareMembers(con);
  await con.run(`CREATE TABLE price_stats (snapshot VARCHAR, insurer_id VARCHAR, billing_code VARCHAR, class_selection VARCHAR,
    state VARCHAR, median_rate DOUBLE, rate_count INTEGER, provider_count INTEGER);`);
}

/**
 * Appends to `price_stats` the rows of the bucket whose prices `bucket_prices` holds
 * (withBucketPrices, code-buckets.ts): its dollar prices expanded to one row per resolved group
 * the states filter kept (`rates` rows with a provider group). Buckets are independent and may run
 * at once on two connections (their working tables are TEMP, per connection).
 * @throws when SQL fails.
 */
export async function priceStatsOfBucket(con: DuckDBConnection): Promise<void> {
  const dollarRows = `SELECT b.ps_series AS sid, g.gid, b.billing_class, b.negotiated_type, b.negotiated_rate AS v, b.service_codes, b.modifiers
    FROM (SELECT ps_series, source_id, billing_class, negotiated_type, negotiated_rate, service_codes, modifiers,
                 ${GROUP_ID_UNNEST_SQL} AS provider_group_id
          FROM bucket_prices
          WHERE ps_series IS NOT NULL AND negotiated_type IN (${sqlList(DOLLAR_NEGOTIATED_TYPES)}) AND negotiated_rate > 0) b
    JOIN resolved_groups g ON g.source_id = b.source_id AND g.provider_group_id = b.provider_group_id
    WHERE g.kept`;
  await statsOf(con, `(${dollarRows})`);
}

/** Drops the helper tables of preparePriceStats. @throws when SQL fails. */
export async function finishPriceStats(con: DuckDBConnection): Promise<void> {
  for (const t of HELPER_TABLES) await con.run(`DROP TABLE IF EXISTS ${t}`);
}

/** Provider membership, shared providers, states and the single providers' weights per group. */
async function prepareMembers(con: DuckDBConnection): Promise<void> {
  await con.run(`
    CREATE TABLE ps_members AS
    SELECT DISTINCT g.gid, m.provider_id, p.state
    FROM provider_groups m JOIN resolved_groups g USING (provider_group_key) LEFT JOIN providers p USING (provider_id);
    CREATE TABLE ps_shared AS
    SELECT provider_id, CAST(row_number() OVER () AS INTEGER) AS pid FROM ps_members GROUP BY provider_id HAVING count(*) > 1;
    CREATE TABLE ps_states AS
    SELECT CAST(row_number() OVER (ORDER BY state) AS USMALLINT) AS st, state
    FROM (SELECT DISTINCT state FROM ps_members WHERE state IS NOT NULL)
    UNION ALL SELECT 0, '${ALL_STATES}';
    CREATE TEMP TABLE ps_member_states AS
    SELECT m.gid, m.provider_id, s.st FROM ps_members m LEFT JOIN ps_states s ON s.state = m.state AND s.st > 0;
    CREATE TABLE ps_weights AS
    WITH single AS (SELECT * FROM ps_member_states ANTI JOIN ps_shared USING (provider_id))
    SELECT gid, 0::USMALLINT AS st, CAST(count(*) AS BIGINT) AS n FROM single GROUP BY ALL
    UNION ALL
    SELECT gid, st, CAST(count(*) AS BIGINT) FROM single WHERE st IS NOT NULL GROUP BY ALL;
    CREATE TABLE ps_shared_members AS
    SELECT m.gid, s.pid, m.st FROM ps_member_states m JOIN ps_shared s USING (provider_id);
    DROP TABLE ps_member_states;`);
}

/**
 * Appends to `price_stats` the medians of the dollar rows `input` (a relation of sid, gid,
 * billing_class, negotiated_type, v, service_codes, modifiers) whose series it holds entirely.
 */
async function statsOf(con: DuckDBConnection, input: string): Promise<void> {
  try {
    await statsSteps(con, input);
  } finally {
    // a bucket that failed (write-dataset.ts runs it again) leaves no working table behind
    await con.run('DROP TABLE IF EXISTS ps_group_rows; DROP TABLE IF EXISTS ps_units;');
  }
}

async function statsSteps(con: DuckDBConnection, input: string): Promise<void> {
  await con.run(`
    CREATE TEMP TABLE ps_group_rows AS SELECT DISTINCT * FROM ${input};
    CREATE TEMP TABLE ps_units AS
    WITH g AS (SELECT sid, gid, billing_class, v, count(*) AS m FROM ps_group_rows GROUP BY ALL),
    s AS (
      SELECT sid, pid, st, billing_class, v, count(*) AS m FROM (
        SELECT DISTINCT r.sid, sm.pid, sm.st, r.billing_class, r.negotiated_type, r.v, r.service_codes, r.modifiers
        FROM ps_group_rows r JOIN ps_shared_members sm USING (gid))
      GROUP BY ALL),
    u AS (
      SELECT g.sid, g.billing_class, g.v, w.st, g.m * w.n AS weight, g.gid AS unit, w.n AS unit_n, false AS shared
      FROM g JOIN ps_weights w USING (gid)
      UNION ALL
      SELECT sid, billing_class, v, 0, m, pid, 1, true FROM s
      UNION ALL
      SELECT sid, billing_class, v, st, m, pid, 1, true FROM s WHERE st IS NOT NULL)
    SELECT sid, CAST(CASE billing_class WHEN 'professional' THEN 1 WHEN 'institutional' THEN 2 WHEN 'both' THEN 3 ELSE 0 END AS UTINYINT) AS cls,
           v, st, weight, unit, unit_n, shared
    FROM u;
    DROP TABLE ps_group_rows;
  `);
  // The weighted multiset by class selection (cs 0 all, 1 professional + both, 2 institutional +
  // both) and state (st 0 is 'ALL'), then the positions of the median by a running sum over sorted values.
  const classSelections = `unnest(CASE cls WHEN 1 THEN [0, 1] WHEN 2 THEN [0, 2] WHEN 3 THEN [0, 1, 2] ELSE [0] END)::UTINYINT AS cs`;
  await con.run(`
    INSERT INTO price_stats
    WITH vals AS (
      SELECT sid, cs, st, v, sum(weight) AS w
      FROM (SELECT sid, ${classSelections}, st, v, weight FROM ps_units) GROUP BY ALL),
    cum AS (
      SELECT sid, cs, st, v,
             sum(w) OVER (PARTITION BY sid, cs, st ORDER BY v ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS c
      FROM vals),
    totals AS (SELECT sid, cs, st, sum(w) AS total FROM vals GROUP BY ALL),
    med AS (
      SELECT sid, cs, st, any_value(total) AS total,
             min(v) FILTER (WHERE c > floor((total - 1) / 2)) AS lo,
             min(v) FILTER (WHERE c > ceil((total - 1) / 2)) AS hi
      FROM cum JOIN totals USING (sid, cs, st) GROUP BY ALL),
    prov AS (
      SELECT sid, cs, st, sum(unit_n) AS provider_count
      FROM (SELECT DISTINCT * FROM (SELECT sid, ${classSelections}, st, unit, shared, unit_n FROM ps_units)) GROUP BY ALL)
    SELECT s.snapshot, s.insurer_id, s.billing_code,
           (['all', 'professional', 'institutional'])[m.cs + 1] AS class_selection, t.state,
           m.lo + (m.hi - m.lo) / 2 AS median_rate, CAST(m.total AS INTEGER) AS rate_count,
           CAST(p.provider_count AS INTEGER) AS provider_count
    FROM med m JOIN prov p USING (sid, cs, st) JOIN ps_series s ON s.ps_series = m.sid JOIN ps_states t ON t.st = m.st;
    DROP TABLE ps_units;`);
}
