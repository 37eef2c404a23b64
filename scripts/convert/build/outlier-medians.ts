/**
 * Check 4 of the validation (docs/methodology.md, Validation): per (snapshot, billing code, billing
 * class, component), the median of the rate rows without Medicare benchmark of the sources that pass
 * check 1, one per provider and identical rows once, when they come from at least
 * OUTLIER_MIN_PROVIDERS providers. Written as `series_outlier_medians(ps_series, medians)`: per
 * series, the OUTLIER_UNITS medians of its (snapshot, code) (NULL where none), which each item
 * carries to its prices (validation.ts ITEM_CHECK_COLUMNS).
 *
 * The medians come from the loop of price_stats (series-medians.ts), which takes the same kind of
 * median over the same provider membership (provider-membership.ts, read whole-market only): SQL
 * expands the prices to their kept groups, as integer keys in (key, value, group, row) order, and
 * the loop weighs each group row by its providers found in no other group and expands only the
 * others, one (provider, row) once. A row's identity besides its value and group, `vid`, is its
 * insurer and its (billing class, negotiated type, service codes, modifiers): the rows of two
 * insurers are never identical, so a provider both insurers contract with counts once for each.
 * DuckDB's hash aggregates and window over the weighted values take half as long again on
 * the benchmark file (docs/benchmarks.md).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { SeriesMedians } from './stats/series-medians';
import { EVERY_RATE_SELECTION } from './stats/series-rows';
import { SeriesBuffer, column, forEachChunk, readMembership, scalar, streamSeriesRows } from './stats/price-stats-input';
import { GROUP_ID_UNNEST_SQL, RATE_ROWS_PER_PRICE_SQL, valueJoins } from '../spool/spool';

/** Distinct providers the rows of an outlier median must come from (docs/methodology.md, Validation, check 4). */
export const OUTLIER_MIN_PROVIDERS = 10;

/** Outlier units per code: billing class (professional, institutional, both) x component. */
export const OUTLIER_UNITS = 9;

/** SQL of a shape's outlier unit 0 .. OUTLIER_UNITS - 1 from `unit_class` and `component` (NULL for another class). */
export const OUTLIER_UNIT_SQL = `(CASE unit_class WHEN 'professional' THEN 0 WHEN 'institutional' THEN 3 WHEN 'both' THEN 6 END)
  + (CASE component WHEN 'global' THEN 0 WHEN '26' THEN 1 ELSE 2 END)`;

/**
 * Expanded rows per range of keys read at once: the range's rows are sorted within DuckDB's
 * memory limit (spool-host.ts DUCKDB_MEMORY_LIMIT) rather than spilled; a key with more goes alone.
 */
const RANGE_ROWS = 1_500_000;

/**
 * Creates `series_outlier_medians` from the spool's prices (`raw_price_rows`, `raw_shapes`), the
 * items' series and Medicare amounts (`item_codes`), `shape_units`, `source_checks`,
 * `resolved_groups` and the membership tables (validation.ts prepareValidation). `prices`: SQL of the
 * dollar prices of services without benchmark of the sources that pass check 1, with columns
 * `source_id`, `ps_series`, `shape`, `negotiated_rate`, `provider_group_ids`.
 * @throws when SQL fails, or RangeError when a key exceeds 32 bits.
 */
export async function createOutlierMedians(con: DuckDBConnection, prices: string): Promise<void> {
  // a row's identity besides its group and value, by text: a value may have another code in another parser thread's spool
  const t = valueJoins('s', undefined, ['negotiated_type', 'service_codes', 'modifiers']);
  await con.run(`
    CREATE OR REPLACE TEMP TABLE ob_shapes AS
    SELECT u.shape, CAST(dense_rank() OVER (ORDER BY u.unit_class, ${t.value('negotiated_type')}, ${t.value('service_codes')}, ${t.value('modifiers')}) AS INTEGER) AS rid,
           u.outlier_unit
    FROM shape_units u JOIN raw_shapes s ON s.shape = u.shape ${t.joins} WHERE u.unit_kind IS NOT NULL;
    CREATE OR REPLACE TEMP TABLE ob_series AS
    SELECT ps_series, CAST(dense_rank() OVER (ORDER BY billing_code, snapshot) AS BIGINT) AS oc,
           CAST(dense_rank() OVER (ORDER BY insurer_id) - 1 AS BIGINT) AS ins FROM ps_series`);
  const rids = await scalar(con, 'SELECT coalesce(max(rid), 0) + 1 FROM ob_shapes');
  const codes = await scalar(con, 'SELECT coalesce(max(oc), 0) + 1 FROM ob_series');
  const insurers = await scalar(con, 'SELECT coalesce(max(ins), 0) + 1 FROM ob_series');
  if (codes * OUTLIER_UNITS >= 2 ** 31 || insurers * rids >= 2 ** 31) {
    throw new RangeError(`outlier medians: ${codes} (snapshot, billing code) pairs or ${insurers} insurers x ${rids} row kinds exceed a 32-bit key`);
  }
  await con.run(`
    CREATE OR REPLACE TEMP TABLE ob_prices AS
    SELECT CAST(c.oc * ${OUTLIER_UNITS} + o.outlier_unit AS INTEGER) AS k, CAST(c.ins * ${rids} + o.rid AS INTEGER) AS vid,
           x.source_id, x.negotiated_rate, x.provider_group_ids, ${RATE_ROWS_PER_PRICE_SQL} AS n
    FROM (${prices}) x JOIN ob_shapes o ON o.shape = x.shape JOIN ob_series c ON c.ps_series = x.ps_series`);
  await con.run('CREATE OR REPLACE TABLE outlier_medians_found (outlier_key INTEGER, median_rate DOUBLE)');
  const medians = await con.createAppender('outlier_medians_found');
  try {
    const loop = new SeriesMedians(await readMembership(con, { wholeMarket: true }));
    const rows = new SeriesBuffer();
    let key = -1;
    const flush = (): void => {
      if (rows.n > 0) {
        loop.series(rows, 0, rows.n, (cs, st, median, _rateCount, providerCount) => {
          if (cs === EVERY_RATE_SELECTION && st === 0 && providerCount >= OUTLIER_MIN_PROVIDERS) {
            medians.appendInteger(key);
            medians.appendDouble(median);
            medians.endRow();
          }
        });
      }
      rows.clear();
    };
    for (const [from, to] of await keyRanges(con)) {
      // every row with flag 1: it enters EVERY_RATE_SELECTION alone, which has no distribution (derived 0)
      await streamSeriesRows(con, `
        SELECT x.k, CAST(g.gid AS INTEGER) AS gid, x.vid, 1::UTINYINT AS cls, 0::UTINYINT AS derived, CAST(x.negotiated_rate AS DOUBLE) AS v
        FROM (SELECT k, vid, source_id, negotiated_rate, ${GROUP_ID_UNNEST_SQL} AS provider_group_id FROM ob_prices WHERE k BETWEEN ${from} AND ${to}) x
        JOIN resolved_groups g ON g.source_id = x.source_id AND g.provider_group_id = x.provider_group_id AND g.kept
        ORDER BY x.k, v, gid, x.vid`, rows, (k) => {
        flush();
        key = k;
      });
      flush();
    }
  } finally {
    medians.closeSync();
  }
  await con.run(`
    CREATE OR REPLACE TABLE series_outlier_medians AS
    SELECT c.ps_series, ${unitList(OUTLIER_UNITS, 'm.median_rate', 'm.outlier_key')} AS medians
    FROM ob_series c JOIN outlier_medians_found m ON m.outlier_key // ${OUTLIER_UNITS} = c.oc GROUP BY c.ps_series;
    DROP TABLE ob_shapes; DROP TABLE ob_series; DROP TABLE ob_prices; DROP TABLE outlier_medians_found`);
}

/** SQL list of `n` values of `value`, element u where `key` % n = u (NULL where none): one row per group. */
export function unitList(n: number, value: string, key: string): string {
  return `[${Array.from({ length: n }, (_, u) => `max(${value}) FILTER (WHERE ${key} % ${n} = ${u})`).join(', ')}]`;
}

/**
 * Consecutive ranges [from, to] of the keys of `ob_prices`, each of at most RANGE_ROWS expanded
 * rows unless one key alone has more.
 */
async function keyRanges(con: DuckDBConnection): Promise<[number, number][]> {
  const ranges: [number, number][] = [];
  let from = -1;
  let to = -1;
  let rows = 0;
  await forEachChunk(con, 'SELECT k, CAST(sum(n) AS DOUBLE) FROM ob_prices GROUP BY k ORDER BY k', (chunk, n) => {
    const k = column(chunk, 0, n, Int32Array);
    const count = column(chunk, 1, n, Float64Array);
    for (let i = 0; i < n; i++) {
      if (from >= 0 && rows + count[i]! > RANGE_ROWS) {
        ranges.push([from, to]);
        from = -1;
        rows = 0;
      }
      if (from < 0) from = k[i]!;
      to = k[i]!;
      rows += count[i]!;
    }
  });
  if (from >= 0) ranges.push([from, to]);
  return ranges;
}
