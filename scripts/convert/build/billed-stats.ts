/**
 * `price_stats` where we bill it (docs/methodology.md, Per comparison unit, Where we bill it): the
 * medians of each series over its valid rates at the billing providers of its code
 * (`billing_providers`, build-claims.ts), per snapshot (`scope` 'billed'), and per month at the
 * billing providers the series shares with the other side (`scope` 'shared_billed', the rule of
 * shared-providers.ts).
 *
 * Unlike the market's medians (build-price-stats.ts), these expand the rates to one row per
 * provider: only the rows at billing providers, whom the reference insurer's claims name, so the
 * rows are those of the providers that perform a code, a small part of the rates' rows x NPIs.
 * DuckDB's `median` over the distinct rows then gives the same median as the weighted loop
 * (the midpoint of the two middle values when the count is even).
 *
 * Without provider columns in the claims (no `billing_providers` row) nothing here runs.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { ALL_STATES, BILLED_SCOPE, MARKET_SCOPE, SHARED_BILLED_SCOPE, type BillingCoverage } from '../../../contract/files/dataset';
import { benchmarkKindSql, billsClassSql, dollarRateSql } from '../../../contract/sql/unit-sql';
import { GROUP_ID_UNNEST_SQL } from '../spool/spool';

/**
 * SQL of p10 .. p90 (DuckDB's quantile_cont) and derived over provider medians `m` and flags `d`
 * (docs/methodology.md, Confidence and distribution).
 */
const QUANTILES_OF_MEDIANS = [[0.1, 'p10'], [0.25, 'p25'], [0.75, 'p75'], [0.9, 'p90']].map(([q, name]) => `quantile_cont(m, ${q}) AS ${name}`).join(', ')
  + ', bool_or(d) AS derived';

/** The working tables of the billed medians. */
const BILLED_TABLES = ['ps_billed_members', 'ps_billed_rows'] as const;

/**
 * Whether the dataset has billing providers; if so, creates `ps_billed_members` (gid, provider_id,
 * state, billing_code, billing_class: each kept group's members that bill a code) from
 * provider-membership.ts `ps_members`, which must still exist, and the empty `ps_billed_rows`.
 * @throws when SQL fails.
 */
export async function prepareBilled(con: DuckDBConnection): Promise<boolean> {
  const n = Number((await con.runAndReadAll('SELECT count(*) FROM billing_providers')).getRows()[0]![0]);
  if (n === 0) return false;
  await con.run(`
    CREATE TABLE ps_billed_members AS
    SELECT m.gid, m.provider_id, m.state, b.billing_code, b.billing_class
    FROM ps_members m JOIN billing_providers b USING (provider_id);
    CREATE TABLE ps_billed_rows (ps INTEGER, unit UTINYINT, provider_id VARCHAR, state VARCHAR, vid INTEGER, v DOUBLE, derived BOOLEAN);`);
  return true;
}

/**
 * Adds to `ps_billed_rows` the distinct valid dollar rows at billing providers of the bucket whose
 * prices `prices` defines as `bucket_prices` (code-buckets.ts bucketPricesSql, with the columns of
 * build-price-stats.ts MEDIANS_COLUMNS): one per (series, unit, provider, vid, rate), `vid` the
 * row's (billing class, negotiated type, place of service, modifiers) as `vid` (build-price-stats.ts
 * vidSql) numbers it. A provider bills a unit's code in the unit's class, or in any class when its
 * claims give none; a `both` unit takes a billing provider of either class.
 * @throws when SQL fails.
 */
export async function billedOfBucket(con: DuckDBConnection, prices: string, vid: string): Promise<void> {
  await con.run(`
    INSERT INTO ps_billed_rows
    ${prices}
    SELECT DISTINCT CAST(b.ps_series AS INTEGER), CAST(b.stats_unit AS UTINYINT), m.provider_id, m.state, CAST(b.vid AS INTEGER),
           CAST(b.negotiated_rate AS DOUBLE), CAST(b.negotiated_type AS VARCHAR) = 'derived'
    FROM (SELECT ps_series, stats_unit, source_id, negotiated_rate, vid, negotiated_type, ${GROUP_ID_UNNEST_SQL} AS provider_group_id
          FROM (SELECT *, CAST(${vid} AS INTEGER) AS vid FROM bucket_prices
                WHERE ps_series IS NOT NULL AND stats_unit IS NOT NULL AND validation IS NULL
                  AND ${dollarRateSql('negotiated_type', 'negotiated_rate', true)})) b
    JOIN resolved_groups g ON g.source_id = b.source_id AND g.provider_group_id = b.provider_group_id AND g.kept
    JOIN ps_series s ON s.ps_series = b.ps_series
    JOIN ps_units u ON u.unit = b.stats_unit
    JOIN ps_billed_members m ON m.gid = g.gid AND m.billing_code = s.billing_code
      AND ${billsClassSql('m.billing_class', 'u.billing_class')}`);
}

/**
 * Inserts the `billed` and `shared_billed` rows of `price_stats` from `ps_billed_rows`, national
 * and per provider state, as build-price-stats.ts finish does the others: median, distinct rows,
 * distinct providers and the unit's Medicare amount. A `shared_billed` row of month M takes each
 * insurer's latest snapshot at or before M; a competitor's rows at providers where the reference
 * insurer has a billed row of the unit, the reference's where any other insurer has one. Drops the
 * working tables.
 * @throws when SQL fails.
 */
export async function finishBilled(con: DuckDBConnection): Promise<void> {
  const medicare = `LEFT JOIN medicare_benchmarks mb ON mb.billing_code = s.billing_code AND mb.billing_class = ${benchmarkKindSql('u.billing_class')}
    AND mb.component = u.component AND mb.setting = u.setting`;
  // GROUPING SETS: the national row and one per provider state (a provider without a state counts
  // nationally only); beside the rows' median, the quantiles of the providers' own medians
  // (docs/methodology.md, Confidence and distribution)
  const sets = (extra: string): string => `GROUP BY GROUPING SETS ((${extra} ps, unit), (${extra} ps, unit, state))
    HAVING grouping(state) = 1 OR state IS NOT NULL`;
  const stateOf = `CASE WHEN grouping(state) = 1 THEN '${ALL_STATES}' ELSE state END AS state`;
  const aggregate = (from: string, extra: string): string => `
    SELECT a.*, d.p10, d.p25, d.p75, d.p90, d.derived FROM (
      SELECT ${extra} ps, unit, ${stateOf}, median(v) AS median_rate, count(*) AS rate_count, count(DISTINCT provider_id) AS provider_count
      FROM ${from} ${sets(extra)}) a
    JOIN (
      SELECT ${extra} ps, unit, ${stateOf}, ${QUANTILES_OF_MEDIANS}
      FROM (SELECT ${extra} ps, unit, provider_id, any_value(state) AS state, median(v) AS m, bool_or(derived) AS d FROM ${from}
            GROUP BY ${extra} ps, unit, provider_id)
      ${sets(extra)}) d USING (${extra} ps, unit, state)`;
  await con.run(`
    INSERT INTO price_stats
    SELECT s.snapshot, s.insurer_id, s.billing_code, u.billing_class, u.component, u.setting, r.state, r.median_rate,
           CAST(r.rate_count AS INTEGER), CAST(r.provider_count AS INTEGER), mb.medicare_rate, '${BILLED_SCOPE}', NULL,
           r.p10, r.p25, r.p75, r.p90, r.derived
    FROM (${aggregate('ps_billed_rows', '')}) r JOIN ps_series s ON s.ps_series = r.ps JOIN ps_units u ON u.unit = r.unit ${medicare};
    CREATE TEMP TABLE ps_billed_months AS
    WITH months AS (SELECT DISTINCT snapshot AS month FROM ps_series),
    chosen AS (SELECT m.month, i.insurer_id, max(i.snapshot) AS snapshot FROM months m JOIN (SELECT DISTINCT insurer_id, snapshot FROM ps_series) i
               ON i.snapshot <= m.month GROUP BY ALL),
    rows AS (SELECT c.month, s.billing_code, s.insurer_id = (SELECT insurer_id FROM reference_insurer) AS is_reference, r.*
             FROM ps_billed_rows r JOIN ps_series s ON s.ps_series = r.ps JOIN chosen c ON c.insurer_id = s.insurer_id AND c.snapshot = s.snapshot),
    presence AS (SELECT month, billing_code, unit, provider_id, bool_or(is_reference) AS at_reference, bool_or(NOT is_reference) AS at_competitor
                 FROM rows GROUP BY ALL)
    SELECT r.month, r.ps, r.unit, r.provider_id, r.state, r.v, r.derived FROM rows r JOIN presence p USING (month, billing_code, unit, provider_id)
    WHERE CASE WHEN r.is_reference THEN p.at_competitor ELSE p.at_reference END;
    INSERT INTO price_stats
    SELECT s.snapshot, s.insurer_id, s.billing_code, u.billing_class, u.component, u.setting, r.state, r.median_rate,
           CAST(r.rate_count AS INTEGER), CAST(r.provider_count AS INTEGER), mb.medicare_rate, '${SHARED_BILLED_SCOPE}', r.month,
           r.p10, r.p25, r.p75, r.p90, r.derived
    FROM (${aggregate('ps_billed_months', 'month,')}) r JOIN ps_series s ON s.ps_series = r.ps JOIN ps_units u ON u.unit = r.unit ${medicare};
    DROP TABLE ps_billed_months;`);
  for (const t of BILLED_TABLES) await con.run(`DROP TABLE IF EXISTS ${t}`);
}

/**
 * Per product and snapshot (Data Coverage; docs/methodology.md, Products): its valid rate rows of
 * services, one per provider (the national `market` rows' rate_count summed over units), and those
 * at billing providers (the `billed` rows'); ordered by insurer, then snapshot. Empty when
 * `claimsByProvider` is false. Reads `price_stats` once filled.
 * @throws when SQL fails.
 */
export async function billingCoverage(con: DuckDBConnection, claimsByProvider: boolean): Promise<BillingCoverage[]> {
  if (!claimsByProvider) return [];
  const r = await con.runAndReadAll(`
    SELECT insurer_id, snapshot, sum(rate_count) FILTER (WHERE scope = '${MARKET_SCOPE}') AS valid,
           coalesce(sum(rate_count) FILTER (WHERE scope = '${BILLED_SCOPE}'), 0) AS billed
    FROM price_stats WHERE state = '${ALL_STATES}' AND scope IN ('${MARKET_SCOPE}', '${BILLED_SCOPE}')
    GROUP BY ALL ORDER BY insurer_id, snapshot`);
  return r.getRows().map(([insurer, snapshot, valid, billed]) => ({
    insurer_id: String(insurer), snapshot: String(snapshot), valid_rate_rows: Number(valid ?? 0), billed_rate_rows: Number(billed),
  }));
}
