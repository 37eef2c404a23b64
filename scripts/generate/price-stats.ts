/**
 * `price_stats` (contract/files/dataset.ts) of a dataset given its rate rows, by docs/methodology.md taken
 * literally (/work/shared/spec/metrics.md, Rows that count and Per comparison unit): the generator's
 * SQL, where the converter computes the same medians from provider-group weights
 * (scripts/convert/build/stats/build-price-stats.ts). test/generate/price-stats.test.ts holds the two equal on a
 * converted dataset with providers shared between insurers and snapshots of different months.
 *
 * The rows that count are the distinct (snapshot, insurer, billing code, provider, billing class,
 * negotiated type, rate, place-of-service codes, modifiers) valid dollar rows of a CPT or HCPCS
 * code with a provider. Per series (snapshot, insurer, code, comparison unit) and state ('ALL' and
 * the provider's state when it has one):
 * - scope `market`: the median, rows and distinct providers of the series' rows (`month` NULL);
 * - scope `shared`, for each month M where the series' snapshot is its insurer's latest at or
 *   before M (the insurers' snapshots are those of the manifest's `sources`): a competitor's rows at
 *   the providers where the reference insurer (its snapshot for M) has a valid row of the unit, the
 *   reference's rows at the providers where any competitor (its snapshot for M) has one; a series
 *   with no such row has no shared row for M;
 * - scope `market_band`, per month M and unit (insurer_id and snapshot NULL): the market band of
 *   every competitor (docs/methodology.md, Confidence and distribution): p10 .. p90 and the median of
 *   the provider medians of every insurer but the reference (its snapshot for M) pooled, a provider
 *   once per insurer; provider_count the number of those medians.
 * `medicare_rate` is the unit's national amount in `medicare_benchmarks` (a `both` unit read as
 * professional), as the converter joins it.
 */
import { MARKET_BAND_SCOPE, MARKET_SCOPE, SHARED_SCOPE, UNIT_BILLING_CLASSES } from '../../contract/files/dataset';
import { SERVICE_CODE_TYPES } from '../../contract/rules/metrics';
import { sqlList, sqlString } from '../../contract/sql/sql-text';
import { benchmarkKindSql, componentSql, dollarRateSql, unitSettingSql } from '../../contract/sql/unit-sql';

/** What priceStatsSql reads. */
export interface PriceStatsInput {
  /**
   * SQL relation of rate rows, one per (price, provider): columns snapshot, insurer_id,
   * billing_code, billing_code_type, billing_class, negotiated_type, negotiated_rate,
   * service_codes, modifiers, validation, provider_id (NULL: no provider) and state (the
   * provider's, NULL when unknown).
   */
  rows: string;
  /** The dataset's (insurer, snapshot) pairs, from its sources: which snapshot an insurer contributes to a month. */
  sources: ReadonlyArray<{ insurer_id: string; snapshot: string }>;
  /** The reference insurer's id (manifest.reference_insurer). */
  reference: string;
  /** SQL relation with the columns of `medicare_benchmarks`. */
  benchmarks: string;
  /** Whether the rows at shared providers and the market bands are computed (default true; false: market rows only). */
  shared?: boolean;
}

/** The grouping of a series' statistics, shared by both scopes. */
const SERIES = 'snapshot, insurer_id, billing_code, billing_class, component, setting, st';

/** The columns a statistic's rows carry through the states' union. */
const ROW_COLUMNS = 'snapshot, insurer_id, billing_code, billing_class, component, setting, provider_id, negotiated_rate, negotiated_type';

/**
 * The statistics of a series over rows of ROW_COLUMNS grouped by `keys`: the rows' median, count
 * and providers, and p10 .. p90 of the providers' own medians with whether a row is derived
 * (docs/methodology.md, Confidence and distribution).
 */
function seriesStats(from: string, keys: string): string {
  return `SELECT a.*, d.p10, d.p25, d.p75, d.p90, d.derived FROM (
      SELECT ${keys}, median(negotiated_rate) AS median_rate, count(*) AS rate_count, count(DISTINCT provider_id) AS provider_count
      FROM (${from}) GROUP BY ${keys}) a
    JOIN (
      SELECT ${keys}, quantile_cont(m, 0.1) AS p10, quantile_cont(m, 0.25) AS p25, quantile_cont(m, 0.75) AS p75, quantile_cont(m, 0.9) AS p90,
        bool_or(d) AS derived
      FROM (SELECT ${keys}, provider_id, median(negotiated_rate) AS m, bool_or(lower(negotiated_type) = 'derived') AS d FROM (${from}) GROUP BY ${keys}, provider_id)
      GROUP BY ${keys}) d USING (${keys})`;
}

/**
 * The market band's statistics over rows of ROW_COLUMNS and `month`, `st` (the competitors' rows
 * of each month): per (month, unit, state), the quantiles of the (insurer, provider) medians pooled.
 */
function bandStats(from: string): string {
  const keys = 'month, billing_code, billing_class, component, setting, st';
  return `SELECT ${keys}, NULL::VARCHAR AS snapshot, NULL::VARCHAR AS insurer_id, quantile_cont(m, 0.5) AS median_rate,
      NULL::BIGINT AS rate_count, count(*) AS provider_count, quantile_cont(m, 0.1) AS p10, quantile_cont(m, 0.25) AS p25,
      quantile_cont(m, 0.75) AS p75, quantile_cont(m, 0.9) AS p90, bool_or(d) AS derived
    FROM (SELECT ${keys}, insurer_id, provider_id, median(negotiated_rate) AS m, bool_or(lower(negotiated_type) = 'derived') AS d
          FROM (${from}) GROUP BY ${keys}, insurer_id, provider_id)
    GROUP BY ${keys}`;
}

/** The rows of `from` once for 'ALL' and once for their provider's state, as `st`. */
function byState(from: string, extra = ''): string {
  return `SELECT ${ROW_COLUMNS}${extra}, 'ALL' AS st FROM ${from}
    UNION ALL SELECT ${ROW_COLUMNS}${extra}, state AS st FROM ${from} WHERE state IS NOT NULL`;
}

/**
 * SQL of a SELECT of `price_stats` rows (contract/files/dataset.ts COLUMNS.price_stats, in that order,
 * unsorted) of `input`. Pure.
 * @throws Error when `input.sources` is empty (no month to match).
 */
export function priceStatsSql(input: PriceStatsInput): string {
  if (input.sources.length === 0) throw new Error('price_stats: the dataset has no source, hence no snapshot');
  const ref = sqlString(input.reference);
  const pairs = [...new Set(input.sources.map((s) => `(${sqlString(s.insurer_id)}, ${sqlString(s.snapshot)})`))].join(', ');
  return `
    WITH counted AS (
      SELECT DISTINCT snapshot, insurer_id, billing_code, provider_id, billing_class, negotiated_type, negotiated_rate,
        service_codes, modifiers, state
      FROM (${input.rows})
      WHERE billing_code_type IN (${sqlList(SERVICE_CODE_TYPES)}) AND ${dollarRateSql('negotiated_type', 'negotiated_rate')}
        AND billing_class IN (${sqlList(UNIT_BILLING_CLASSES)}) AND validation IS NULL AND provider_id IS NOT NULL),
    unit_rows AS (
      SELECT *, ${componentSql('modifiers')} AS component, ${unitSettingSql('billing_class', 'service_codes')} AS setting FROM counted),
    pairs AS (SELECT * FROM (VALUES ${pairs}) p(insurer_id, snapshot)),
    chosen AS (
      SELECT m.month, p.insurer_id, max(p.snapshot) AS snapshot
      FROM (SELECT DISTINCT snapshot AS month FROM pairs) m JOIN pairs p ON p.snapshot <= m.month GROUP BY m.month, p.insurer_id),
    in_month AS (SELECT c.month, r.* FROM unit_rows r JOIN chosen c USING (insurer_id, snapshot)),
    sides AS (
      SELECT month, billing_code, billing_class, component, setting, provider_id,
        bool_or(insurer_id = ${ref}) AS has_reference, bool_or(insurer_id <> ${ref}) AS has_competitor
      FROM in_month GROUP BY month, billing_code, billing_class, component, setting, provider_id),
    at_shared AS (
      SELECT r.* FROM in_month r JOIN sides s USING (month, billing_code, billing_class, component, setting, provider_id)
      WHERE CASE WHEN r.insurer_id = ${ref} THEN s.has_competitor ELSE s.has_reference END),
    stats AS (
      SELECT *, '${MARKET_SCOPE}' AS scope, NULL::VARCHAR AS month FROM (${seriesStats(byState('unit_rows'), SERIES)})
      ${input.shared === false ? '' : `UNION ALL BY NAME
      SELECT *, '${SHARED_SCOPE}' AS scope FROM (${seriesStats(byState('at_shared', ', month'), `${SERIES}, month`)})
      UNION ALL BY NAME
      SELECT *, '${MARKET_BAND_SCOPE}' AS scope FROM (${bandStats(byState(`(SELECT * FROM in_month WHERE insurer_id <> ${ref})`, ', month'))})`})
    SELECT s.snapshot, s.insurer_id, s.billing_code, s.billing_class, s.component, s.setting, s.st AS state,
      CAST(s.median_rate AS DOUBLE) AS median_rate, CAST(s.rate_count AS INTEGER) AS rate_count,
      CAST(s.provider_count AS INTEGER) AS provider_count, b.medicare_rate, s.scope, s.month,
      CAST(s.p10 AS DOUBLE) AS p10, CAST(s.p25 AS DOUBLE) AS p25, CAST(s.p75 AS DOUBLE) AS p75, CAST(s.p90 AS DOUBLE) AS p90, s.derived
    FROM stats s LEFT JOIN ${input.benchmarks} b ON b.billing_code = s.billing_code
      AND b.billing_class = ${benchmarkKindSql('s.billing_class')} AND b.component = s.component AND b.setting = s.setting`;
}
