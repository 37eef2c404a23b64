/**
 * The Medicare benchmark and the validation of every dollar rate of a service (docs/methodology.md,
 * Medicare benchmark and Validation), as working tables the buckets' prices read
 * (code-buckets.ts bucketPricesPlan adds `medicare_rate` and `validation` to them):
 * - `medicare_benchmarks`: the national amount of every comparison unit of the dataset's codes that
 *   has one (scripts/medicare/benchmark.ts), also a table of the dataset;
 * - `shape_units`: per price shape, its benchmark kind (NULL when the shape is not a dollar type of
 *   a known billing class), component, setting and unit index (contract/sql/unit-sql.ts);
 * - `source_checks`: per source, its distinct benchmarked prices, their median ratio to Medicare and
 *   whether its numbers are not dollars (check 1), and its median % of Medicare over the valid ones;
 * - `series_outlier_medians`: per series, the outlier medians of its (snapshot, billing code) per
 *   billing class and component (check 4, outlier-medians.ts);
 * - `code_bench_amounts`: per code, its Medicare amounts as one list, which each item carries (ITEM_LISTS_SQL);
 * - `opps_paid`: the codes the OPPS Addendum B pays (a payment rate above 0), which take
 *   institutional claims (build-tables.ts finishClaims);
 * - `validation_settings`: the settings, one row;
 * - the ENUM type `validation_reason` (REASON_TYPE) of a bucket price's `validation`.
 * Checks 2 and 3 need only the price and its benchmark: bucketPricesPlan writes them inline.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { VALIDATION_REASONS, type ValidationSettings } from '../../../contract/files/dataset';
import { DOLLAR_NEGOTIATED_TYPES } from '../../../contract/rules/metrics';
import { benchmarkKindSql, componentSql, unitIndexSql, unitSettingSql } from '../../../contract/sql/unit-sql';
import type { MedicareTables } from '../../medicare/tables';
import { appendRows } from './append-rows';
import { sqlList, valueJoins } from '../spool/spool';
import { createOutlierMedians, OUTLIER_UNIT_SQL, unitList } from './outlier-medians';
import { prepareMembers } from './provider-membership';
import type { BucketPricesColumn } from './stats/code-buckets';

/** Distinct benchmarked prices a source needs before check 1 judges it (docs/methodology.md, Validation). */
export const SOURCE_MIN_PRICES = 20;

/** Benchmark units per code: kind (professional, institutional) x component x setting. */
const BENCH_UNITS = 12;

/** SQL of a benchmark unit 0 .. BENCH_UNITS - 1 from a kind, a component and a setting (NULL when the kind is). */
function benchUnitSql(kind: string, component: string, setting: string): string {
  return `(CASE ${kind} WHEN 'professional' THEN 0 WHEN 'institutional' THEN 6 END)
    + (CASE ${component} WHEN 'global' THEN 0 WHEN '26' THEN 2 ELSE 4 END) + (CASE ${setting} WHEN 'non-facility' THEN 0 ELSE 1 END)`;
}

/**
 * The dollar prices of services, over every bucket: `p` the price row, `i` its item's `code_id`
 * and `bench_amounts` (`item_codes`: NULL for a code without benchmark), `u` its shape's unit
 * (`shape_units`); its benchmark is `i.bench_amounts[u.bench_unit + 1]`.
 */
const SERVICE_PRICES = `raw_price_rows p
  JOIN item_codes i ON i.source_id = p.source_id AND i.item_id = p.item_id
  JOIN shape_units u ON u.shape = p.shape
  WHERE u.unit_kind IS NOT NULL AND p.negotiated_rate > 0`;

/**
 * Creates the working tables of this module (see above) from the spool's prices, items and
 * provider groups (build-tables.ts), before the buckets are written.
 * @throws when SQL fails.
 */
export async function prepareValidation(con: DuckDBConnection, medicare: MedicareTables, settings: ValidationSettings): Promise<void> {
  await createBenchmarks(con, medicare);
  const v = valueJoins('s', undefined, ['billing_class', 'negotiated_type', 'service_codes', 'modifiers']);
  const cls = v.value('billing_class');
  const steps = `
    CREATE OR REPLACE TABLE validation_settings AS
    SELECT ${settings.min_ratio}::DOUBLE AS min_ratio, ${settings.max_ratio}::DOUBLE AS max_ratio,
           ${settings.source_min_ratio}::DOUBLE AS source_min_ratio, ${settings.outlier_factor}::DOUBLE AS outlier_factor,
           ${settings.min_providers}::INTEGER AS min_providers;
    CREATE OR REPLACE TABLE shape_units AS
    SELECT s.shape, ${cls} AS unit_class,
           CASE WHEN ${v.value('negotiated_type')} IN (${sqlList(DOLLAR_NEGOTIATED_TYPES)}) THEN ${benchmarkKindSql(cls)} END AS unit_kind,
           ${componentSql(v.value('modifiers'))} AS component, ${unitSettingSql(cls, v.value('service_codes'))} AS unit_setting
    FROM raw_shapes s ${v.joins};
    CREATE OR REPLACE TABLE shape_units AS SELECT *, ${benchUnitSql('unit_kind', 'component', 'unit_setting')} AS bench_unit,
      ${OUTLIER_UNIT_SQL} AS outlier_unit, ${unitIndexSql('unit_class', 'component', 'unit_setting')} AS stats_unit FROM shape_units;
    CREATE OR REPLACE TABLE benchmark_codes AS
    SELECT billing_code, CAST(row_number() OVER (ORDER BY billing_code) AS INTEGER) AS code_id FROM (SELECT DISTINCT billing_code FROM medicare_benchmarks);
    CREATE OR REPLACE TABLE bench_rates AS
    SELECT c.code_id * ${BENCH_UNITS} + ${benchUnitSql('b.billing_class', 'b.component', 'b.setting')} AS bench_key, b.medicare_rate
    FROM medicare_benchmarks b JOIN benchmark_codes c USING (billing_code);
    ${ITEM_LISTS_SQL.bench};
    CREATE OR REPLACE TEMP TABLE item_codes AS
    SELECT i.source_id, i.item_id, i.ps_series, c.code_id, a.amounts AS bench_amounts
    FROM rate_items i LEFT JOIN benchmark_codes c USING (billing_code) LEFT JOIN code_bench_amounts a USING (billing_code)
    WHERE i.ps_series IS NOT NULL;
    ${sourceChecksSql(settings)}`;
  for (const step of steps.split(/;\s*\n/).map((x) => x.trim()).filter((x) => x !== '')) await con.run(step);
  await prepareMembers(con);
  await createOutlierMedians(con, `SELECT p.source_id, i.ps_series, p.shape, p.negotiated_rate, p.provider_group_ids
    FROM ${SERVICE_PRICES} AND i.bench_amounts[u.bench_unit + 1] IS NULL AND p.source_id NOT IN (SELECT source_id FROM source_checks WHERE not_dollars)`);
  await con.run('DROP TABLE item_codes');
  const made = await con.runAndReadAll(`SELECT count(*) FROM duckdb_types() WHERE database_name = current_database() AND type_name = '${REASON_TYPE}'`);
  if (Number(made.getRows()[0]![0]) === 0) await con.run(`CREATE TYPE ${REASON_TYPE} AS ENUM (${sqlList(VALIDATION_REASONS)})`);
}

/** Bins per doubling of a ratio in sourceChecksSql's histogram. */
const RATIO_BINS = 64;

/** The smallest positive and the largest finite double, as SQL literals DuckDB reads exactly. */
const MIN_POSITIVE_DOUBLE = '4.9406564584124654e-324::DOUBLE';
const MAX_DOUBLE = '1.7976931348623157e308::DOUBLE';

/**
 * The statements of `source_checks` (check 1): per source, its distinct benchmarked prices
 * (source, benchmark unit of its code, negotiated_rate) as ratios to their Medicare amount, then
 * the exact medians of its ratios and of those within [min_ratio, max_ratio] by a histogram: the
 * bin (RATIO_BINS per doubling) that holds each middle rank, then that rank among the bin's
 * ratios. A median aggregate over millions of ratios per source costs several times more; the
 * middle two are averaged as DuckDB's median does (lower + (upper - lower) / 2).
 */
function sourceChecksSql(settings: ValidationSettings): string {
  // a finite rate's ratio can leave the doubles' positive range: one of 5e-324 underflows to 0
  // (log2 fails), one near 1.8e308 over an amount below 1 USD overflows to infinity (the INTEGER
  // cast fails). Clamped into [smallest denormal, largest double], the bins run from -68,736 to
  // 65,536 and each ratio still sorts by its own value within its bin.
  const bin = `CAST(floor(log2(least(greatest(ratio, ${MIN_POSITIVE_DOUBLE}), ${MAX_DOUBLE})) * ${RATIO_BINS}) AS INTEGER)`;
  const valid = `(ratio >= ${settings.min_ratio} AND ratio <= ${settings.max_ratio})`;
  return `
    CREATE OR REPLACE TEMP TABLE sc_ratios AS
    SELECT source_id, negotiated_rate / medicare_rate AS ratio FROM (
      SELECT DISTINCT p.source_id, i.code_id * ${BENCH_UNITS} + u.bench_unit AS bench_key, p.negotiated_rate,
             i.bench_amounts[u.bench_unit + 1] AS medicare_rate
      FROM raw_price_rows p JOIN item_codes i ON i.source_id = p.source_id AND i.item_id = p.item_id AND i.code_id IS NOT NULL
      JOIN shape_units u ON u.shape = p.shape AND u.bench_unit IS NOT NULL
      WHERE p.negotiated_rate > 0 AND i.bench_amounts[u.bench_unit + 1] IS NOT NULL);
    CREATE OR REPLACE TEMP TABLE sc_targets AS
    WITH bins AS (
      SELECT source_id, ${bin} AS bin, count(*) AS n, count(*) FILTER (WHERE ${valid}) AS nv FROM sc_ratios GROUP BY ALL),
    cum AS (
      SELECT *, sum(n) OVER w - n AS before, sum(nv) OVER w - nv AS before_v,
             sum(n) OVER (PARTITION BY source_id) AS total, sum(nv) OVER (PARTITION BY source_id) AS total_v
      FROM bins WINDOW w AS (PARTITION BY source_id ORDER BY bin ROWS UNBOUNDED PRECEDING)),
    ranks AS (
      SELECT source_id, total, unnest([false, false, true, true]) AS valid, unnest([0, 1, 0, 1]) AS half,
             unnest([(total + 1) // 2, total // 2 + 1, (total_v + 1) // 2, total_v // 2 + 1]) AS rank
      FROM (SELECT DISTINCT source_id, total, total_v FROM cum))
    SELECT r.source_id, r.total, r.valid, r.half, c.bin, r.rank - CASE WHEN r.valid THEN c.before_v ELSE c.before END AS pos
    FROM ranks r JOIN cum c ON c.source_id = r.source_id
      AND r.rank > CASE WHEN r.valid THEN c.before_v ELSE c.before END
      AND r.rank <= CASE WHEN r.valid THEN c.before_v + c.nv ELSE c.before + c.n END;
    CREATE OR REPLACE TABLE source_checks AS
    WITH near AS (
      SELECT source_id, bin, ratio, ${valid} AS valid FROM (SELECT source_id, ${bin} AS bin, ratio FROM sc_ratios)
      SEMI JOIN (SELECT DISTINCT source_id, bin FROM sc_targets) USING (source_id, bin)),
    ranked AS (
      SELECT source_id, bin, ratio, false AS valid, row_number() OVER (PARTITION BY source_id, bin ORDER BY ratio) AS pos FROM near
      UNION ALL
      SELECT source_id, bin, ratio, true, row_number() OVER (PARTITION BY source_id, bin ORDER BY ratio) FROM near WHERE valid),
    middle AS (
      SELECT t.source_id, t.total, t.valid, min(x.ratio) FILTER (WHERE t.half = 0) AS a, min(x.ratio) FILTER (WHERE t.half = 1) AS b
      FROM sc_targets t JOIN ranked x USING (source_id, bin, valid, pos) GROUP BY ALL),
    medians AS (
      SELECT source_id, any_value(total) AS prices, min(a * 0.5 + b * 0.5) FILTER (WHERE NOT valid) AS median_ratio,
             min(a * 0.5 + b * 0.5) FILTER (WHERE valid) AS median_valid
      FROM middle GROUP BY source_id)
    SELECT source_id, prices, median_ratio,
           prices >= ${SOURCE_MIN_PRICES} AND median_ratio < ${settings.source_min_ratio} AS not_dollars,
           CASE WHEN NOT not_dollars THEN 100 * median_valid END AS median_medicare_pct
    FROM medians;
    DROP TABLE sc_targets; DROP TABLE sc_ratios;`;
}

/**
 * `medicare_benchmarks` and `opps_paid` of the dataset's CPT/HCPCS codes (scripts/medicare/benchmark.ts
 * benchmarkTable): (billing_code, billing_class `professional` | `institutional`, component,
 * setting, medicare_rate USD, source `pfs` | `clfs` | `opps`, work_rvu, pe_rvu, mp_rvu).
 */
async function createBenchmarks(con: DuckDBConnection, medicare: MedicareTables): Promise<void> {
  await con.run(`CREATE OR REPLACE TABLE medicare_benchmarks (billing_code VARCHAR, billing_class VARCHAR, component VARCHAR,
    setting VARCHAR, medicare_rate DOUBLE, source VARCHAR, work_rvu DOUBLE, pe_rvu DOUBLE, mp_rvu DOUBLE)`);
  await appendRows(con, 'medicare_benchmarks', medicare.benchmarks.map((b) =>
    [b.billing_code, b.kind, b.component, b.setting, b.medicare_rate, b.source, b.work_rvu, b.pe_rvu, b.mp_rvu]));
  await con.run('CREATE OR REPLACE TABLE opps_paid (billing_code VARCHAR)');
  await appendRows(con, 'opps_paid', medicare.oppsPaid.map((c) => [c]));
}

/**
 * The SQL of a bucket price's `validation` (docs/methodology.md, Validation: the first check it fails, NULL
 * when valid or not a dollar rate of a service), over the inner columns of checkedColumns
 * (`ps_series`, `negotiated_rate`, CHECK_INPUTS' names; the outlier check only when `outliers`);
 * `settings` inlined as constants.
 */
function validationSql(settings: ValidationSettings, outliers: boolean): string {
  const rate = 'negotiated_rate';
  const { benchmark, outlierMedian, notDollars, unitKind } = CHECK_INPUTS;
  const outlier = outliers ? `WHEN ${outlierMedian.name} IS NOT NULL AND (${rate} / ${outlierMedian.name} > ${settings.outlier_factor}
      OR ${outlierMedian.name} / ${rate} > ${settings.outlier_factor}) THEN 'outlier'` : '';
  return `CASE WHEN ps_series IS NULL OR ${unitKind.name} IS NULL OR NOT (${rate} > 0) THEN NULL
    WHEN ${notDollars.name} THEN 'source_not_dollars'
    WHEN ${benchmark.name} IS NOT NULL THEN
      CASE WHEN ${rate} / ${benchmark.name} < ${settings.min_ratio} THEN 'below_benchmark'
           WHEN ${rate} / ${benchmark.name} > ${settings.max_ratio} THEN 'above_benchmark' END
    ${outlier}
    END`;
}

/**
 * What the checks read of a bucket price, as hidden inner columns of bucketPricesSql over its
 * aliases (`p` price, `i` item with ITEM_CHECK_COLUMNS, `s` shape): each amount is taken from its
 * item's list once, where the checks read it up to four times.
 * - `benchmark`: its national Medicare amount (USD, NULL without one), its item's amount of its shape's benchmark unit;
 * - `outlierMedian`: its outlier median (USD, NULL without one), its item's median of its shape's outlier unit;
 * - `notDollars`: its source fails check 1; `unitKind`: its shape's benchmark kind (NULL: not a dollar rate of a known class).
 */
const CHECK_INPUTS = {
  benchmark: { name: 'check_benchmark', sql: 'i.bench_amounts[s.bench_unit + 1]' },
  outlierMedian: { name: 'check_outlier_median', sql: 'i.outlier_amounts[s.outlier_unit + 1]' },
  notDollars: { name: 'check_not_dollars', sql: 'i.not_dollars' },
  unitKind: { name: 'check_unit_kind', sql: 's.unit_kind' },
} as const;

/**
 * `code_bench_amounts(billing_code, amounts)`: per code its BENCH_UNITS Medicare amounts (NULL where
 * none) as a list that the items carry (item_codes, and bucket_items by ITEM_CHECK_COLUMNS, as they
 * carry their series' outlier medians), so that a price finds both by its shape's unit in a list,
 * where two hash joins per price (in the part's copy and again in the medians' statement) cost the
 * buckets ~4 CPU s on the benchmark file.
 */
const ITEM_LISTS_SQL = {
  bench: `CREATE OR REPLACE TABLE code_bench_amounts AS
    SELECT c.billing_code, ${unitList(BENCH_UNITS, 'b.medicare_rate', 'b.bench_key')} AS amounts
    FROM bench_rates b JOIN benchmark_codes c ON c.code_id = b.bench_key // ${BENCH_UNITS} GROUP BY c.billing_code`,
};

/**
 * The columns of `rate_items` that bucketPricesPlan's `bucket_items` adds for the checks: the
 * item's Medicare amounts and outlier medians per unit (ITEM_LISTS_SQL; NULL for a code without
 * benchmark or not a service, a series without outlier median) and its source's `not_dollars`
 * (check 1), each found once per item instead of per price.
 */
export const ITEM_CHECK_COLUMNS = `CASE WHEN ps_series IS NOT NULL THEN (SELECT a.amounts FROM code_bench_amounts a WHERE a.billing_code = rate_items.billing_code) END AS bench_amounts,
  (SELECT m.medians FROM series_outlier_medians m WHERE m.ps_series = rate_items.ps_series) AS outlier_amounts,
  coalesce((SELECT k.not_dollars FROM source_checks k WHERE k.source_id = rate_items.source_id), false) AS not_dollars`;

/**
 * The columns validation adds to a bucket's prices (code-buckets.ts bucketPricesPlan): `medicare_rate`,
 * `validation`, and the index of the price's comparison unit, `stats_unit` (contract/sql/unit-sql.ts
 * unitIndexSql; NULL outside the unit classes), for build-price-stats.ts, with the hidden inner
 * columns they read (CHECK_INPUTS), without a join: the amounts are in the item's lists; the
 * outlier check only when there are any.
 * @throws when SQL fails.
 */
export async function checkedColumns(con: DuckDBConnection): Promise<BucketPricesColumn[]> {
  const settings = await readValidationSettings(con);
  const outliers = Number((await con.runAndReadAll('SELECT count(*) FROM series_outlier_medians')).getRows()[0]![0]) > 0;
  return [
    ...Object.values(CHECK_INPUTS).map((c) => ({ ...c, level: 'hidden' as const })),
    { name: 'medicare_rate', sql: `CASE WHEN negotiated_rate > 0 THEN ${CHECK_INPUTS.benchmark.name} END`, level: 'outer' },
    { name: 'validation', sql: `CAST(${validationSql(settings, outliers)} AS ${REASON_TYPE})`, level: 'outer' },
    { name: 'stats_unit', sql: 's.stats_unit' },
  ];
}

/**
 * The ENUM type of a bucket price's `validation`: the Parquet writer writes an ENUM column as a
 * dictionary-encoded string column straight from its codes, where text costs a hash lookup per
 * row (code-buckets.ts ENUM_COLUMNS).
 */
const REASON_TYPE = 'validation_reason';

/** The settings of `validation_settings` (prepareValidation). @throws when the table is absent. */
export async function readValidationSettings(con: DuckDBConnection): Promise<ValidationSettings> {
  const o = (await con.runAndReadAll('SELECT * FROM validation_settings')).getRowObjects()[0]!;
  return {
    min_ratio: Number(o.min_ratio), max_ratio: Number(o.max_ratio), source_min_ratio: Number(o.source_min_ratio),
    outlier_factor: Number(o.outlier_factor), min_providers: Number(o.min_providers),
  };
}
