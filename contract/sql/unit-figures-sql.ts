/**
 * SQL twins of the per-unit rules of contract/rules/metrics.ts (docs/methodology.md, Per comparison unit
 * and Dashboard figures), for DuckDB (the worker's DuckDB-WASM, and the converter's native client):
 * a unit's claims_volume (claimsByUnit), its reference_variance (referenceVariance), whether it is
 * thin (thinReason), and Average Overpayment over the units that count (averageOverpayment over
 * countingUnits). A screen that needs only such an aggregate then gets a few rows from DuckDB
 * instead of every unit. test/worker/unit-figures-sql.test.ts holds every figure equal to the
 * JavaScript rules' on the fixture datasets, to the last bit: sums run in the order the JavaScript
 * adds (code, then compareUnits).
 */
import { CLASS_ORDER, COMPONENT_ORDER, SETTING_ORDER } from '../rules/metrics';
import { sqlString } from './sql-text';

/**
 * The columns `units` must have, one row per (month, state, unit): `month`, `state`,
 * `billing_code`, `billing_class`, `component`, `setting` (VARCHAR); `reference_price`,
 * `market_average` (DOUBLE, USD, NULL without a price); `reference_providers`,
 * `competitor_provider_total` (INTEGER, NULL or anything when its price is NULL);
 * `claims_professional`, `claims_institutional` (the code's claims per class in that state or
 * nationally, the same on every unit of a code).
 */
export const UNIT_FIGURE_INPUTS = [
  'month', 'state', 'billing_code', 'billing_class', 'component', 'setting', 'reference_price', 'market_average',
  'reference_providers', 'competitor_provider_total', 'claims_professional', 'claims_institutional',
] as const;

/** `CASE x WHEN v0 THEN 0 ... END`, the rank of contract/rules/metrics.ts (unknown values after the list). */
const rankSql = (x: string, order: readonly string[]): string =>
  `CASE ${x} ${order.map((v, i) => `WHEN ${sqlString(v)} THEN ${i}`).join(' ')} ELSE ${order.length} END`;

/** The order of units in the JavaScript rules: code, then compareUnits (class, component, setting). */
export const UNIT_ORDER_SQL = 'billing_code, class_rank, component_rank, setting_rank';

/** reference_variance in percent over columns reference_price and market_average (referenceVariance): NULL when either is missing or the market is 0. */
export const VARIANCE_SQL =
  'CASE WHEN reference_price IS NULL OR market_average IS NULL OR market_average = 0 THEN NULL ELSE 100 * (reference_price - market_average) / market_average END';

/** The providers each side rests on (0 without a price), over reference_price/reference_providers and market_average/competitor_provider_total. */
export const REFERENCE_SUPPORT_SQL = 'CASE WHEN reference_price IS NULL THEN 0 ELSE coalesce(reference_providers, 0) END';
export const COMPETITOR_SUPPORT_SQL = 'CASE WHEN market_average IS NULL THEN 0 ELSE coalesce(competitor_provider_total, 0) END';

/**
 * Whether a unit is thin (thinReason not null) over columns reference_price, reference_support,
 * market_average, competitor_support: a side with a price rests on fewer than `minProviders`.
 * @throws RangeError when minProviders is not a non-negative integer.
 */
export function thinSql(minProviders: number): string {
  if (!Number.isInteger(minProviders) || minProviders < 0) throw new RangeError(`minProviders must be a non-negative integer: ${minProviders}`);
  return `((reference_price IS NOT NULL AND reference_support < ${minProviders})
        OR (market_average IS NOT NULL AND competitor_support < ${minProviders}))`;
}

/** The units that count in Average Overpayment and the summary cards: a variance, not thin (the SQL twin of contract/rules/dashboard-figures.ts countedRecords). */
export const COUNTING_SQL = 'reference_variance IS NOT NULL AND NOT thin';

/**
 * A SELECT over relation `units` (UNIT_FIGURE_INPUTS) adding, per row:
 * - `reference_support`, `competitor_support`: the providers each side rests on (0 without a price);
 * - `class_rank`, `component_rank`, `setting_rank`: for UNIT_ORDER_SQL;
 * - `claims_class`: the class whose claims the unit may receive (NULL for a `both` unit of a code
 *   with a professional unit priced by the reference);
 * - `claims_volume`: the code's count of a class on the class's main unit, 0 elsewhere
 *   (claimsByUnit: the unit whose reference price rests on the most providers, then global before
 *   26 before TC, non-facility before facility; a `both` unit is professional when the code has no
 *   professional unit with a reference price), among the units of its code, month and state;
 * - `reference_variance` in percent (NULL when either price is missing or the market is 0);
 * - `thin`: a side with a price rests on fewer than `minProviders` providers.
 * @throws RangeError when minProviders is not a non-negative integer.
 */
export function unitFiguresSql(units: string, minProviders: number): string {
  const thin = thinSql(minProviders);
  const code = 'PARTITION BY month, state, billing_code';
  return `
    SELECT *,
      CASE WHEN claims_class IS NOT NULL AND row_number() OVER (${code}, claims_class
             ORDER BY reference_support DESC, component_rank, setting_rank, class_rank) = 1
           THEN CASE claims_class WHEN 'professional' THEN claims_professional ELSE claims_institutional END
           ELSE 0 END AS claims_volume,
      ${VARIANCE_SQL} AS reference_variance,
      ${thin} AS thin
    FROM (
      SELECT *,
        CASE billing_class WHEN 'professional' THEN 'professional' WHEN 'institutional' THEN 'institutional'
          WHEN 'both' THEN CASE WHEN NOT bool_or(billing_class = 'professional' AND reference_support > 0) OVER (${code})
                                THEN 'professional' END
        END AS claims_class
      FROM (
        SELECT *,
          ${REFERENCE_SUPPORT_SQL} AS reference_support,
          ${COMPETITOR_SUPPORT_SQL} AS competitor_support,
          ${rankSql('billing_class', CLASS_ORDER)} AS class_rank,
          ${rankSql('component', COMPONENT_ORDER)} AS component_rank,
          ${rankSql('setting', SETTING_ORDER)} AS setting_rank
        FROM ${units}))`;
}

/**
 * Average Overpayment (docs/methodology.md, Dashboard figures) as one aggregate expression over the
 * rows of unitFiguresSql's columns that satisfy `filter` (SQL, e.g. COUNTING_SQL): the
 * claims-weighted mean of the variances, the plain mean when every weight is 0, NULL without a row.
 * Sums in `order` (default UNIT_ORDER_SQL, the order the JavaScript adds in; a column numbering the
 * rows in that order sorts faster).
 */
export function averageOverpaymentExpr(filter: string, order: string = UNIT_ORDER_SQL): string {
  const f = `FILTER (WHERE ${filter})`;
  return `CASE WHEN sum(claims_volume) ${f} = 0 THEN sum(reference_variance ORDER BY ${order}) ${f} / count(*) ${f}
           ELSE sum(reference_variance * claims_volume ORDER BY ${order}) ${f} / sum(claims_volume) ${f} END`;
}

/**
 * Average Overpayment (docs/methodology.md, Dashboard figures) per (month, state) of relation
 * `figures` (unitFiguresSql's columns): over the units with a variance that are not thin, the
 * claims-weighted mean of the variances, the plain mean when every weight is 0; a (month, state)
 * without such a unit has no row. Also `services` (those units) and `claims_count` (their claims).
 * Columns: month, state, avg_overpayment (percent), services, claims_count.
 */
export function averageOverpaymentSql(figures: string): string {
  return `
    SELECT month, state,
      ${averageOverpaymentExpr('true')} AS avg_overpayment,
      count(*)::INTEGER AS services,
      sum(claims_volume)::DOUBLE AS claims_count
    FROM ${figures}
    WHERE ${COUNTING_SQL}
    GROUP BY month, state`;
}
