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
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { ALL_STATES } from '../../contract/dataset';
import { DOLLAR_NEGOTIATED_TYPES, SERVICE_CODE_TYPES } from '../../contract/metrics';

const sqlList = (xs: readonly string[]): string => xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(', ');

/**
 * Creates `price_stats` from `rates`, `provider_groups` and `providers` (build-tables.ts).
 * @throws when SQL fails.
 */
export async function buildPriceStats(con: DuckDBConnection): Promise<void> {
  await con.run(`
    CREATE TEMP TABLE ps_members AS
    SELECT DISTINCT g.provider_group_key, g.provider_id, p.state
    FROM provider_groups g LEFT JOIN providers p USING (provider_id);
    CREATE TEMP TABLE ps_shared AS
    SELECT provider_id FROM ps_members GROUP BY provider_id HAVING count(*) > 1;
    CREATE TEMP TABLE ps_weights AS
    WITH single AS (SELECT * FROM ps_members WHERE provider_id NOT IN (SELECT provider_id FROM ps_shared))
    SELECT provider_group_key, '${ALL_STATES}' AS state, CAST(count(*) AS BIGINT) AS n FROM single GROUP BY ALL
    UNION ALL
    SELECT provider_group_key, state, CAST(count(*) AS BIGINT) FROM single WHERE state IS NOT NULL GROUP BY ALL;
    CREATE TEMP TABLE ps_group_rows AS
    SELECT DISTINCT snapshot, insurer_id, billing_code, provider_group_key, billing_class,
           negotiated_type, negotiated_rate, service_codes, modifiers
    FROM rates
    WHERE provider_group_key IS NOT NULL AND billing_code_type IN (${sqlList(SERVICE_CODE_TYPES)})
      AND negotiated_type IN (${sqlList(DOLLAR_NEGOTIATED_TYPES)}) AND negotiated_rate > 0;
    CREATE TEMP TABLE ps_shared_rows AS
    SELECT DISTINCT r.snapshot, r.insurer_id, r.billing_code, m.provider_id, m.state, r.billing_class,
           r.negotiated_type, r.negotiated_rate, r.service_codes, r.modifiers
    FROM ps_group_rows r JOIN ps_members m USING (provider_group_key)
    WHERE m.provider_id IN (SELECT provider_id FROM ps_shared);
  `);
  // The weighted multiset by class selection and state ('ALL' and each known state), then aggregated.
  await con.run(`
    CREATE TEMP TABLE ps_rows AS
    WITH st AS (
      SELECT r.snapshot, r.insurer_id, r.billing_code, r.billing_class, r.negotiated_rate AS v,
             w.state, w.n AS weight, r.provider_group_key AS unit, false AS shared
      FROM ps_group_rows r JOIN ps_weights w USING (provider_group_key)
      UNION ALL
      SELECT snapshot, insurer_id, billing_code, billing_class, negotiated_rate, '${ALL_STATES}', 1, provider_id, true
      FROM ps_shared_rows
      UNION ALL
      SELECT snapshot, insurer_id, billing_code, billing_class, negotiated_rate, state, 1, provider_id, true
      FROM ps_shared_rows WHERE state IS NOT NULL)
    SELECT snapshot, insurer_id, billing_code, 'all' AS class_selection, state, v, weight, unit, shared FROM st
    UNION ALL
    SELECT snapshot, insurer_id, billing_code, 'professional', state, v, weight, unit, shared FROM st
    WHERE billing_class IN ('professional', 'both')
    UNION ALL
    SELECT snapshot, insurer_id, billing_code, 'institutional', state, v, weight, unit, shared FROM st
    WHERE billing_class IN ('institutional', 'both');
    CREATE TABLE price_stats AS
    WITH vals AS (
      SELECT snapshot, insurer_id, billing_code, class_selection, state, v, sum(weight) AS w
      FROM ps_rows GROUP BY ALL),
    cum AS (
      SELECT *, sum(w) OVER (PARTITION BY snapshot, insurer_id, billing_code, class_selection, state ORDER BY v
                             ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS c,
             sum(w) OVER (PARTITION BY snapshot, insurer_id, billing_code, class_selection, state) AS total
      FROM vals),
    med AS (
      SELECT snapshot, insurer_id, billing_code, class_selection, state, any_value(total) AS total,
             min(v) FILTER (WHERE c > floor((total - 1) / 2)) AS lo,
             min(v) FILTER (WHERE c > ceil((total - 1) / 2)) AS hi
      FROM cum GROUP BY ALL),
    providers AS (
      SELECT snapshot, insurer_id, billing_code, class_selection, state, sum(n) AS provider_count FROM (
        SELECT DISTINCT snapshot, insurer_id, billing_code, class_selection, state, unit, shared,
               CASE WHEN shared THEN 1 ELSE weight END AS n
        FROM ps_rows) GROUP BY ALL)
    SELECT m.snapshot, m.insurer_id, m.billing_code, m.class_selection, m.state,
           m.lo + (m.hi - m.lo) / 2 AS median_rate, CAST(m.total AS INTEGER) AS rate_count,
           CAST(p.provider_count AS INTEGER) AS provider_count
    FROM med m JOIN providers p USING (snapshot, insurer_id, billing_code, class_selection, state)
    ORDER BY billing_code, snapshot, insurer_id, class_selection, state;
    DROP TABLE ps_rows;`);
}
