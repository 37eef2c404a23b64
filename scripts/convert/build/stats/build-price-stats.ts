/**
 * `price_stats` (docs/methodology.md, Rows that count and Per comparison unit) without multiplying rates by NPIs.
 *
 * The logical rows are distinct (snapshot, insurer, billing code, provider, billing class,
 * negotiated type, rate, place-of-service codes, modifiers) dollar rows, one per NPI of a group,
 * of one comparison unit (billing class, component, setting: a series is a (snapshot, insurer,
 * code, unit)). The medians are over the valid rows (validation.ts), over every provider (`scope`
 * 'market') and, per month, at the providers the series shares with the other side (`scope`
 * 'shared', shared-providers.ts), and at billing providers (billed-stats.ts, when the claims name
 * providers); those over every dollar row, national only, go to
 * `ps_unvalidated` for the manifest's headline with validation off.
 * Expanding them costs rates x NPIs (hundreds of millions of rows for a 1 GB file), so this builds
 * the same medians from weights:
 * - a provider found in ONE provider group only ("single") has exactly the distinct rows of its
 *   group, so each distinct group-level row stands for n rows, n = the group's single providers
 *   (per state);
 * - providers found in several groups ("shared") could repeat a row through two groups: only they
 *   are expanded and de-duplicated, one row each.
 * The median of the weighted multiset is taken at the middle positions (the midpoint of the two
 * middle values when the count is even, interpolated as DuckDB's `median` does: a 0.5 + b 0.5).
 * The same loop gives the market's and the shared scope's distributions (p10 .. p90 of the
 * provider medians and `derived`: series-distribution.ts), from the same rows.
 *
 * Speed: SQL only expands a bucket's dollar prices to their kept groups and sorts them by series
 * and value, as integer surrogate keys (`gid` of `resolved_groups`, build-tables.ts, for a group;
 * `ps_series` of `rate_items` for the (snapshot, insurer_id, billing_code) of a CPT/HCPCS item,
 * NULL for other code types; a `vid` for the rest of a row's identity, vidSql); the weights, running
 * sums and middle positions are one loop over typed arrays (series-medians.ts), 0.5-0.6 s per
 * bucket of 750k rate rows where DuckDB's aggregates and window take ~1.5 s; text comes back only
 * in the final, small table. A large database is done one billing-code bucket at a time
 * (code-buckets.ts), from the bucket's prices that the `rates` part is written from
 * (bucketPricesSql), so that its sort runs within DuckDB's memory limit instead of spilling.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { MARKET_BAND_SCOPE, MARKET_SCOPE, SHARED_SCOPE, UNIT_BILLING_CLASSES } from '../../../../contract/files/dataset';
import { benchmarkKindSql, dollarRateSql, UNIT_COMPONENTS, UNIT_COUNT, UNIT_SETTINGS } from '../../../../contract/sql/unit-sql';
import { bucketCount, bucketEnumSizes, bucketPricesPlan, bucketPricesSql } from './code-buckets';
import { GROUP_ID_UNNEST_SQL } from '../../spool/spool';
import { SeriesMedians } from './series-medians';
import { EVERY_RATE_SELECTION, SHARED_SELECTION } from './series-rows';
import { SharedProviders, type CodeSeries } from './shared-providers';
import { readMembership, readSeriesIndex, scalar, SeriesBuffer, streamSeriesRows } from './price-stats-input';
import { billedOfBucket, finishBilled, prepareBilled } from '../billed-stats';
import { MarketBands } from './market-bands';

/** The working tables of preparePriceStats (regular tables: every connection of the phase reads them). */
const HELPER_TABLES = ['ps_members', 'ps_shared', 'ps_states', 'ps_weights', 'ps_shared_members', 'ps_results', 'ps_bands', 'ps_units', 'ps_months'] as const;

/** Units per billing code (contract/sql/unit-sql.ts): a series key is `ps_series * UNITS + unit`. */
const UNITS = UNIT_COUNT;

/** SQL VALUES of the units: (unit, billing_class, component, setting). */
const UNITS_VALUES = UNIT_BILLING_CLASSES.flatMap((b, i) => UNIT_COMPONENTS.flatMap((c, j) => UNIT_SETTINGS.map((t, k) =>
  `(${(i * UNIT_COMPONENTS.length + j) * UNIT_SETTINGS.length + k}, '${b}', '${c}', '${t}')`))).join(', ');

/** The helper tables readMembership turns into series-medians.ts Membership, dropped once read. */
const MEMBERSHIP_TABLES = ['ps_members', 'ps_shared', 'ps_weights', 'ps_shared_members'] as const;

/**
 * Creates `price_stats` from the spool's prices (`raw_prices`, `rate_items`), `ps_series`
 * (ps_series -> snapshot, insurer_id, billing_code), `resolved_groups`, `provider_groups` and
 * `providers` (build-tables.ts), one billing-code bucket after the other. A conversion does the
 * same through write-dataset.ts, each bucket beside its `rates` part.
 * @throws when SQL fails.
 */
export async function buildPriceStats(con: DuckDBConnection): Promise<void> {
  const stats = await preparePriceStats(con);
  const plan = await bucketPricesPlan(con);
  for (let k = 0, n = await bucketCount(con); k < n; k++) await stats.ofBucket(con, bucketPricesSql(plan, k, MEDIANS_COLUMNS));
  await stats.finish(con);
}

/** The statistics of a conversion, bucket after bucket (preparePriceStats). */
export interface PriceStatsBuilder {
  /**
   * Adds the statistics of the bucket whose prices `prices` defines as `bucket_prices`
   * (code-buckets.ts bucketPricesSql): its dollar prices expanded to one row per resolved group the states filter
   * kept (`rates` rows with a provider group). Buckets are independent and may run at once on two
   * connections; a bucket that throws adds nothing (write-dataset.ts may run it again).
   * @throws when SQL fails.
   */
  ofBucket(con: DuckDBConnection, prices: string): Promise<void>;
  /** Fills `price_stats` from the buckets' results and drops the working tables. @throws when SQL fails. */
  finish(con: DuckDBConnection): Promise<void>;
}

/**
 * Creates the empty `price_stats` table and reads the provider membership tables, which
 * validation.ts prepareValidation made (provider-membership.ts), into the compressed copy the
 * buckets share (series-rows.ts Membership).
 * @throws when SQL fails.
 */
export async function preparePriceStats(con: DuckDBConnection): Promise<PriceStatsBuilder> {
  const series = await scalar(con, 'SELECT coalesce(max(ps_series), 0) + 1 FROM ps_series');
  if (series * UNITS >= 2 ** 31) throw new Error(`price_stats: ${series} series of (snapshot, insurer, billing code) are more than a 32-bit unit key holds`);
  await con.run(`CREATE TABLE price_stats (snapshot VARCHAR, insurer_id VARCHAR, billing_code VARCHAR, billing_class VARCHAR,
    component VARCHAR, setting VARCHAR, state VARCHAR, median_rate DOUBLE, rate_count INTEGER, provider_count INTEGER, medicare_rate DOUBLE,
    scope VARCHAR, month VARCHAR, p10 DOUBLE, p25 DOUBLE, p75 DOUBLE, p90 DOUBLE, derived BOOLEAN);
    CREATE TABLE ps_unvalidated (snapshot VARCHAR, insurer_id VARCHAR, billing_code VARCHAR, billing_class VARCHAR,
    component VARCHAR, setting VARCHAR, median_rate DOUBLE, provider_count INTEGER);
    CREATE TABLE ps_results (sid INTEGER, cs UTINYINT, st USMALLINT, mo USMALLINT, median_rate DOUBLE, rate_count BIGINT, provider_count BIGINT,
      p10 DOUBLE, p25 DOUBLE, p75 DOUBLE, p90 DOUBLE, derived BOOLEAN);
    CREATE TABLE ps_bands (sid INTEGER, st USMALLINT, mo USMALLINT, p10 DOUBLE, p25 DOUBLE, median_rate DOUBLE, p75 DOUBLE, p90 DOUBLE,
      provider_count BIGINT, derived BOOLEAN);
    CREATE TABLE ps_units (unit INTEGER, billing_class VARCHAR, component VARCHAR, setting VARCHAR);
    INSERT INTO ps_units VALUES ${UNITS_VALUES};`);
  // one loop for every bucket: its series() runs without a pause, so buckets of two connections never interleave in it
  const membership = await readMembership(con);
  const loop = new SeriesMedians(membership);
  const { index, codeOf } = await readSeriesIndex(con);
  const shared = new SharedProviders(membership, index);
  const bands = new MarketBands(index, membership.stateCount, UNITS);
  const billed = await prepareBilled(con);
  // read into the loop's arrays: in DuckDB they would only hold its memory limit through the buckets
  for (const t of MEMBERSHIP_TABLES) await con.run(`DROP TABLE ${t}`);
  const vid = await vidSql(con);
  // a series' rows (up to millions: one code of a 200 MB item) in buffers reused from bucket to bucket, one per running bucket
  const free: SeriesBuffer[] = [];
  return {
    async ofBucket(c, prices) {
      const rows = free.pop() ?? new SeriesBuffer();
      try {
        await statsOfBucket(c, prices, { loop, shared, bands, codeOf, rows, vid });
        if (billed) await billedOfBucket(c, prices, vid);
      } finally {
        rows.trim();
        free.push(rows);
      }
    },
    async finish(c) {
      const unit = `ps_results r JOIN ps_series s ON s.ps_series = r.sid // ${UNITS} JOIN ps_units u ON u.unit = r.sid % ${UNITS}`;
      await c.run(`
        INSERT INTO price_stats
        SELECT s.snapshot, s.insurer_id, s.billing_code, u.billing_class, u.component, u.setting, t.state,
               r.median_rate, CAST(r.rate_count AS INTEGER), CAST(r.provider_count AS INTEGER), b.medicare_rate,
               CASE r.cs WHEN 0 THEN '${MARKET_SCOPE}' ELSE '${SHARED_SCOPE}' END, CASE r.cs WHEN 0 THEN NULL ELSE m.month END,
               r.p10, r.p25, r.p75, r.p90, r.derived
        FROM ${unit} JOIN ps_states t ON t.st = r.st
        LEFT JOIN ps_months m ON m.mo = r.mo
        LEFT JOIN medicare_benchmarks b ON b.billing_code = s.billing_code AND b.billing_class = ${benchmarkKindSql('u.billing_class')}
          AND b.component = u.component AND b.setting = u.setting
        WHERE r.cs IN (0, ${SHARED_SELECTION});
        INSERT INTO ps_unvalidated
        SELECT s.snapshot, s.insurer_id, s.billing_code, u.billing_class, u.component, u.setting, r.median_rate, CAST(r.provider_count AS INTEGER)
        FROM ${unit} WHERE r.cs = 1 AND r.st = 0;
        INSERT INTO price_stats
        SELECT NULL, NULL, s.billing_code, u.billing_class, u.component, u.setting, t.state, r.median_rate, NULL,
               CAST(r.provider_count AS INTEGER), b.medicare_rate, '${MARKET_BAND_SCOPE}', m.month, r.p10, r.p25, r.p75, r.p90, r.derived
        FROM ps_bands r JOIN ps_series s ON s.ps_series = r.sid // ${UNITS} JOIN ps_units u ON u.unit = r.sid % ${UNITS}
        JOIN ps_states t ON t.st = r.st JOIN ps_months m ON m.mo = r.mo
        LEFT JOIN medicare_benchmarks b ON b.billing_code = s.billing_code AND b.billing_class = ${benchmarkKindSql('u.billing_class')}
          AND b.component = u.component AND b.setting = u.setting`);
      if (billed) await finishBilled(c);
      for (const t of HELPER_TABLES) await c.run(`DROP TABLE IF EXISTS ${t}`);
    },
  };
}

/** Bound of a vid (vidSql) made of ENUM codes: SeriesBuffer's class per vid is a byte array of up to twice this many bytes. */
const VID_LIMIT = 1 << 20;

/** The columns that, with the value, make a dollar row's identity in a series (docs/methodology.md, Rows that count). */
const VID_COLUMNS = ['billing_class', 'negotiated_type', 'service_codes', 'modifiers'] as const;

/**
 * The columns of a bucket's prices (code-buckets.ts bucketPricesSql) statsOfBucket reads: not the
 * others, whose decoding (the free text of `additional_information` on some files) it would not use.
 */
export const MEDIANS_COLUMNS: readonly string[] = ['ps_series', 'source_id', 'negotiated_rate', 'provider_group_ids', ...VID_COLUMNS,
  'validation', 'stats_unit'];

/**
 * SQL of a bucket price's `vid`: its (billing_class, negotiated_type, service_codes, modifiers) as
 * one integer, equal for equal values. When the four columns are ENUMs (code-buckets.ts
 * planBucketEnums) of few enough values (VID_LIMIT), arithmetic on their codes (NULL 0); otherwise
 * a dense rank, a window that sorts the bucket's prices once more (~0.03 s a bucket of 750k rate
 * rows on the benchmark file).
 * @throws when SQL fails.
 */
async function vidSql(con: DuckDBConnection): Promise<string> {
  const sizes = await bucketEnumSizes(con, VID_COLUMNS);
  // mixed radix: column k's code + 1 (0 for NULL) times the product of the earlier columns' sizes + 1
  let factor = 1;
  const terms = VID_COLUMNS.map((c, k) => {
    const term = `${factor} * coalesce(CAST(enum_code(${c}) AS INTEGER) + 1, 0)`;
    factor *= (sizes?.[k] ?? Infinity) + 1;
    return term;
  });
  return factor <= VID_LIMIT ? terms.join(' + ') : `dense_rank() OVER (ORDER BY ${VID_COLUMNS.join(', ')})`;
}

/** What statsOfBucket works with: the loops, ps_series -> code index, a buffer and the vid SQL. */
interface BucketState {
  loop: SeriesMedians;
  shared: SharedProviders;
  /** The market bands of the default selection (market-bands.ts), from the same loop. */
  bands: MarketBands;
  /** Per ps_series, its billing code's rank: the series of one code are consecutive (build-tables.ts ps_series). */
  codeOf: Int32Array;
  rows: SeriesBuffer;
  /** vidSql's. */
  vid: string;
}

/**
 * The statistics of the bucket whose prices `prices` defines as `bucket_prices` (bucketPricesSql): its dollar prices of CPT/HCPCS items expanded to
 * one row per kept resolved group, in series and value order, gathered one billing code at a time
 * (every insurer, snapshot and unit of the code), so that each series' medians over every provider
 * and at the providers it shares with the other side (shared-providers.ts) come from the code's
 * rows at once; the results are appended to `ps_results` once the bucket is done.
 */
async function statsOfBucket(con: DuckDBConnection, prices: string, b: BucketState): Promise<void> {
  const { loop, shared, bands, codeOf, rows, vid } = b;
  const sql = `${prices}
    SELECT CAST(b.sid AS INTEGER) AS sid, CAST(g.gid AS INTEGER) AS gid, CAST(2 * b.vid + b.cls AS INTEGER) AS vid, CAST(b.cls AS UTINYINT) AS cls,
           b.derived, CAST(b.negotiated_rate AS DOUBLE) AS v
    FROM (SELECT ps_series * ${UNITS} + stats_unit AS sid, source_id, negotiated_rate, vid, cls, derived, ${GROUP_ID_UNNEST_SQL} AS provider_group_id
          FROM (SELECT *, CAST(${vid} AS INTEGER) AS vid, CAST(validation IS NOT NULL AS UTINYINT) AS cls,
                       CAST(CAST(negotiated_type AS VARCHAR) = 'derived' AS UTINYINT) AS derived
                FROM bucket_prices
                WHERE ps_series IS NOT NULL AND ${dollarRateSql('negotiated_type', 'negotiated_rate', true)}
                  AND stats_unit IS NOT NULL)) b
    JOIN resolved_groups g ON g.source_id = b.source_id AND g.provider_group_id = b.provider_group_id
    WHERE g.kept
    ORDER BY sid, v, gid, vid`;
  const out: number[][] = [];
  const bandRows: number[][] = [];
  rows.clear();
  let code = -1;
  const series: CodeSeries[] = [];
  const flushCode = (): void => {
    // a series' rows run to the next one's first, the last one's to the buffer's end
    series.forEach((s, j) => (s.to = series[j + 1]?.from ?? rows.n));
    const matches = shared.plan(rows, series);
    bands.beginCode();
    series.forEach((s, j) => {
      const id = s.ps * UNITS + s.unit;
      const [first, ...later] = matches[j]!;
      // validation off: the whole market only (the manifest's headline); at shared providers: the match's month
      const month = first?.month ?? 0;
      loop.series(rows, s.from, s.to, (cs, st, median, rateCount, providerCount, p10, p25, p75, p90, derived) => {
        if (cs === 0 || (cs === EVERY_RATE_SELECTION && st === 0)) out.push([id, cs, st, 0, median, rateCount, providerCount, p10, p25, p75, p90, +derived]);
        else if (cs === SHARED_SELECTION) out.push([id, cs, st, month, median, rateCount, providerCount, p10, p25, p75, p90, +derived]);
      }, first ? shared.filter(first, false) : null);
      if (bands.wants(s.ps)) {
        bands.beginSeries(j);
        loop.exportMarket(bands);
      }
      for (const m of later) {
        loop.series(rows, s.from, s.to, (cs, st, median, rateCount, providerCount, p10, p25, p75, p90, derived) => {
          out.push([id, cs, st, m.month, median, rateCount, providerCount, p10, p25, p75, p90, +derived]);
        }, shared.filter(m, true));
      }
    });
    bands.finishCode(series, (sid, st, mo, q, providers, derived) => bandRows.push([sid, st, mo, ...q, providers, +derived]));
    rows.clear();
    series.length = 0;
  };
  // the columns are never NULL: the WHERE and the join keep none
  await streamSeriesRows(con, sql, rows, (sid) => {
    const ps = Math.floor(sid / UNITS);
    if (codeOf[ps] !== code) {
      if (series.length > 0) flushCode();
      code = codeOf[ps]!;
    }
    series.push({ ps, unit: sid % UNITS, from: rows.n, to: rows.n });
  });
  if (series.length > 0) flushCode();
  const appender = await con.createAppender('ps_results');
  try {
    for (const [a, cs, st, mo, median, n, p, ...distribution] of out) {
      appender.appendInteger(a!);
      appender.appendUTinyInt(cs!);
      appender.appendUSmallInt(st!);
      appender.appendUSmallInt(mo!);
      appender.appendDouble(median!);
      appender.appendBigInt(BigInt(n!));
      appender.appendBigInt(BigInt(p!));
      // selection 1 (validation off) has no distribution: NULL
      const [p10, p25, p75, p90, derived] = distribution;
      for (const q of [p10, p25, p75, p90]) {
        if (cs === EVERY_RATE_SELECTION) appender.appendNull();
        else appender.appendDouble(q!);
      }
      if (cs === EVERY_RATE_SELECTION) appender.appendNull();
      else appender.appendBoolean(derived === 1);
      appender.endRow();
    }
  } finally {
    appender.closeSync();
  }
  const bandAppender = await con.createAppender('ps_bands');
  try {
    for (const [sid, st, mo, p10, p25, p50, p75, p90, providers, derived] of bandRows) {
      bandAppender.appendInteger(sid!);
      bandAppender.appendUSmallInt(st!);
      bandAppender.appendUSmallInt(mo!);
      for (const q of [p10, p25, p50, p75, p90]) bandAppender.appendDouble(q!);
      bandAppender.appendBigInt(BigInt(providers!));
      bandAppender.appendBoolean(derived === 1);
      bandAppender.endRow();
    }
  } finally {
    bandAppender.closeSync();
  }
}
