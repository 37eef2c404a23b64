/**
 * `price_stats` (metrics.md, Rows that count and Per comparison unit) without multiplying rates by NPIs.
 *
 * The logical rows are distinct (snapshot, insurer, billing code, provider, billing class,
 * negotiated type, rate, place-of-service codes, modifiers) dollar rows, one per NPI of a group,
 * of one comparison unit (billing class, component, setting: a series is a (snapshot, insurer,
 * code, unit)). The medians are over the valid rows (validation.ts); those over every dollar row,
 * national only, go to `ps_unvalidated` for the manifest's headline with validation off.
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
 * Speed: SQL only expands a bucket's dollar prices to their kept groups and sorts them by series
 * and value, as integer surrogate keys (`gid` of `resolved_groups`, build-tables.ts, for a group;
 * `ps_series` of `rate_items` for the (snapshot, insurer_id, billing_code) of a CPT/HCPCS item,
 * NULL for other code types; a `vid` for the rest of a row's identity, vidSql); the weights, running
 * sums and middle positions are one loop over typed arrays (series-medians.ts), 0.5-0.6 s per
 * bucket of 750k rate rows where DuckDB's aggregates and window took 1.5 s; text comes back only
 * in the final, small table. A large database is done one billing-code bucket at a time
 * (code-buckets.ts), from the bucket's prices that the `rates` part is written from
 * (bucketPricesSql), so that its sort runs within DuckDB's memory limit instead of spilling.
 */
import type { DuckDBConnection, DuckDBDataChunk } from '@duckdb/node-api';
import duckdb from '@duckdb/node-bindings';
import { ALL_STATES, UNIT_BILLING_CLASSES } from '../../contract/dataset';
import { benchmarkKindSql } from '../../contract/unit-sql';
import { bucketCount, bucketEnumSizes, bucketPricesPlan, bucketPricesSql } from './code-buckets';
import { DOLLAR_NEGOTIATED_TYPES } from '../../contract/metrics';
import { GROUP_ID_UNNEST_SQL, sqlList } from './spool';
import { SERIES_BLOCK_ROWS, SeriesMedians, type Membership, type SeriesRows } from './series-medians';

/** The working tables of preparePriceStats (regular tables: every connection of the phase reads them). */
const HELPER_TABLES = ['ps_members', 'ps_shared', 'ps_states', 'ps_weights', 'ps_shared_members', 'ps_results', 'ps_units'] as const;

/** Components of a unit, in unit order (contract/medicare.ts Component). */
const COMPONENTS = ['global', '26', 'TC'] as const;
/** Settings of a unit, in unit order (contract/medicare.ts UnitSetting). */
const SETTINGS = ['non-facility', 'facility'] as const;
/** Units per billing code: billing class x component x setting; a series key is `ps_series * UNITS + unit`. */
const UNITS = UNIT_BILLING_CLASSES.length * COMPONENTS.length * SETTINGS.length;

/** SQL of a bucket price's unit index (0 .. UNITS - 1) from its `billing_class`, `component` and `unit_setting`. */
const UNIT_SQL = `(CASE billing_class ${UNIT_BILLING_CLASSES.map((c, k) => `WHEN '${c}' THEN ${k}`).join(' ')} END) * ${COMPONENTS.length * SETTINGS.length}
  + (CASE component ${COMPONENTS.map((c, k) => `WHEN '${c}' THEN ${k}`).join(' ')} END) * ${SETTINGS.length}
  + (CASE unit_setting ${SETTINGS.map((c, k) => `WHEN '${c}' THEN ${k}`).join(' ')} END)`;

/** SQL VALUES of the units: (unit, billing_class, component, setting). */
const UNITS_VALUES = UNIT_BILLING_CLASSES.flatMap((b, i) => COMPONENTS.flatMap((c, j) => SETTINGS.map((t, k) =>
  `(${(i * COMPONENTS.length + j) * SETTINGS.length + k}, '${b}', '${c}', '${t}')`))).join(', ');

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
 * Creates the empty `price_stats` table, the provider membership tables and their compressed
 * copy the buckets share (series-medians.ts Membership).
 * @throws when SQL fails.
 */
export async function preparePriceStats(con: DuckDBConnection): Promise<PriceStatsBuilder> {
  await prepareMembers(con);
  const series = await scalar(con, 'SELECT coalesce(max(ps_series), 0) + 1 FROM ps_series');
  if (series * UNITS >= 2 ** 31) throw new Error(`price_stats: ${series} series of (snapshot, insurer, billing code) are more than a 32-bit unit key holds`);
  await con.run(`CREATE TABLE price_stats (snapshot VARCHAR, insurer_id VARCHAR, billing_code VARCHAR, billing_class VARCHAR,
    component VARCHAR, setting VARCHAR, state VARCHAR, median_rate DOUBLE, rate_count INTEGER, provider_count INTEGER, medicare_rate DOUBLE);
    CREATE TABLE ps_unvalidated (snapshot VARCHAR, insurer_id VARCHAR, billing_code VARCHAR, billing_class VARCHAR,
    component VARCHAR, setting VARCHAR, median_rate DOUBLE, provider_count INTEGER);
    CREATE TABLE ps_results (sid INTEGER, cs UTINYINT, st USMALLINT, median_rate DOUBLE, rate_count BIGINT, provider_count BIGINT);
    CREATE TABLE ps_units (unit INTEGER, billing_class VARCHAR, component VARCHAR, setting VARCHAR);
    INSERT INTO ps_units VALUES ${UNITS_VALUES};`);
  // one loop for every bucket: its series() runs without a pause, so buckets of two connections never interleave in it
  const loop = new SeriesMedians(await readMembership(con));
  // read into the loop's arrays: in DuckDB they would only hold its memory limit through the buckets
  for (const t of MEMBERSHIP_TABLES) await con.run(`DROP TABLE ${t}`);
  const vid = await vidSql(con);
  // a series' rows (up to millions: one code of a 200 MB item) in buffers reused from bucket to bucket, one per running bucket
  const free: SeriesBuffer[] = [];
  return {
    async ofBucket(c, prices) {
      const rows = free.pop() ?? new SeriesBuffer();
      try {
        await statsOfBucket(c, prices, loop, rows, vid);
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
               r.median_rate, CAST(r.rate_count AS INTEGER), CAST(r.provider_count AS INTEGER), b.medicare_rate
        FROM ${unit} JOIN ps_states t ON t.st = r.st
        LEFT JOIN medicare_benchmarks b ON b.billing_code = s.billing_code AND b.billing_class = ${benchmarkKindSql('u.billing_class')}
          AND b.component = u.component AND b.setting = u.setting
        WHERE r.cs = 0;
        INSERT INTO ps_unvalidated
        SELECT s.snapshot, s.insurer_id, s.billing_code, u.billing_class, u.component, u.setting, r.median_rate, CAST(r.provider_count AS INTEGER)
        FROM ${unit} WHERE r.cs = 1 AND r.st = 0`);
      for (const t of HELPER_TABLES) await c.run(`DROP TABLE IF EXISTS ${t}`);
    },
  };
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
 * Runs `sql` and hands its result chunk after chunk to `each` with the chunk's row count (the rows
 * never all in memory at once). The count is read once: `rowCount` is a call into the native
 * binding, which in a loop's condition cost 0.7 s of the main thread on the 1 GB benchmark file.
 */
async function forEachChunk(con: DuckDBConnection, sql: string, each: (chunk: DuckDBDataChunk, rows: number) => void): Promise<void> {
  const result = await con.stream(sql);
  for (;;) {
    const chunk = await result.fetchChunk();
    const rows = chunk ? chunk.rowCount : 0;
    if (!chunk || rows === 0) return;
    each(chunk, rows);
  }
}

/** A typed-array type of a fixed-width DuckDB column: Int32Array for INTEGER, Uint8Array for UTINYINT, Float64Array for DOUBLE. */
interface ColumnArray<T> {
  new (buffer: ArrayBufferLike, byteOffset: number, length: number): T;
  readonly BYTES_PER_ELEMENT: number;
}

/**
 * Column `column` of `chunk` (`rows` rows) as a typed array of `type` over DuckDB's vector data,
 * for a column of that DuckDB type that is never NULL (a NULL's slot holds no value). The
 * node-api's per-value accessor checks validity and is called through one site for several
 * vector classes: reading the medians' rows that way cost ~0.4 s of the main thread on the 1 GB
 * benchmark file.
 */
function column<T>(chunk: DuckDBDataChunk, column: number, rows: number, type: ColumnArray<T>): T {
  const data = duckdb.vector_get_data(duckdb.data_chunk_get_vector(chunk.chunk, column), rows * type.BYTES_PER_ELEMENT);
  return new type(data.buffer, data.byteOffset, rows);
}

/** One integer of a one-row query. */
async function scalar(con: DuckDBConnection, sql: string): Promise<number> {
  return Number((await con.runAndReadAll(sql)).getRows()[0]![0] ?? 0);
}

/** Reads ps_weights and ps_shared_members into the compressed rows of series-medians.ts Membership. */
async function readMembership(con: DuckDBConnection): Promise<Membership> {
  const groupCount = (await scalar(con, 'SELECT coalesce(max(gid), 0) + 1 FROM resolved_groups'));
  const byGroup = async (table: string, columns: string): Promise<{ start: Int32Array; a: Int32Array; b: Float64Array }> => {
    const rows = await scalar(con, `SELECT count(*) FROM ${table}`);
    const start = new Int32Array(groupCount + 1);
    const a = new Int32Array(rows);
    const b = new Float64Array(rows);
    let at = 0;
    // never NULL: gid and the columns' values are keys, counts or coalesced (column())
    await forEachChunk(con, `SELECT CAST(gid AS INTEGER), ${columns} FROM ${table} ORDER BY gid`, (chunk, n) => {
      const gid = column(chunk, 0, n, Int32Array);
      const x = column(chunk, 1, n, Int32Array);
      const y = column(chunk, 2, n, Float64Array);
      for (let i = 0; i < n; i++, at++) {
        const g = gid[i]! + 1;
        start[g] = start[g]! + 1;
        a[at] = x[i]!;
        b[at] = y[i]!;
      }
    });
    for (let g = 0; g < groupCount; g++) start[g + 1] = start[g + 1]! + start[g]!;
    return { start, a, b };
  };
  const weights = await byGroup('ps_weights', 'CAST(st AS INTEGER), CAST(n AS DOUBLE)');
  const shared = await byGroup('ps_shared_members', 'CAST(pid AS INTEGER), CAST(coalesce(st, 0) AS DOUBLE)');
  return {
    weightStart: weights.start, weightSt: weights.a, weightN: weights.b,
    sharedStart: shared.start, sharedPid: shared.a, sharedSt: Int32Array.from(shared.b),
    stateCount: await scalar(con, 'SELECT max(st) + 1 FROM ps_states'),
    pidCount: await scalar(con, 'SELECT coalesce(max(pid), 0) + 1 FROM ps_shared'),
  };
}

/** Blocks kept by a SeriesBuffer between buckets: 1M rows (16 MB); a larger series' blocks are let go. */
const KEPT_BLOCKS = 16;

/** One series' rows as they stream in (series-medians.ts SeriesRows), reusable from series to series. */
export class SeriesBuffer implements SeriesRows {
  gid: Int32Array[] = [];
  vid: Int32Array[] = [];
  v: Float64Array[] = [];
  n = 0;
  clsOfVid = new Uint8Array(256);
  vids = 0;

  /**
   * Appends rows `from` .. `to` of a result chunk's columns (views of DuckDB's vectors, copied):
   * whole runs by TypedArray#set, block by block: on the 1 GB benchmark file, 0.07 s of the main
   * thread against 0.25 s with a call per row.
   */
  append(gid: Int32Array, vid: Int32Array, cls: Uint8Array, v: Float64Array, from: number, to: number): void {
    for (let i = from; i < to;) {
      const b = Math.floor(this.n / SERIES_BLOCK_ROWS);
      const o = this.n % SERIES_BLOCK_ROWS;
      if (b === this.v.length) {
        this.gid.push(new Int32Array(SERIES_BLOCK_ROWS));
        this.vid.push(new Int32Array(SERIES_BLOCK_ROWS));
        this.v.push(new Float64Array(SERIES_BLOCK_ROWS));
      }
      const end = Math.min(to, i + SERIES_BLOCK_ROWS - o);
      this.gid[b]!.set(gid.subarray(i, end), o);
      this.vid[b]!.set(vid.subarray(i, end), o);
      this.v[b]!.set(v.subarray(i, end), o);
      this.n += end - i;
      i = end;
    }
    let top = this.vids - 1;
    for (let i = from; i < to; i++) if (vid[i]! > top) top = vid[i]!;
    if (top >= this.clsOfVid.length) {
      const grown = new Uint8Array(2 * top);
      grown.set(this.clsOfVid);
      this.clsOfVid = grown;
    }
    this.vids = top + 1;
    const classes = this.clsOfVid;
    for (let i = from; i < to; i++) classes[vid[i]!] = cls[i]!;
  }

  /** Empties the buffer for the next series. */
  clear(): void {
    this.n = 0;
    this.vids = 0;
  }

  /** Lets go of the blocks beyond KEPT_BLOCKS. */
  trim(): void {
    for (const blocks of [this.gid, this.vid, this.v]) blocks.length = Math.min(blocks.length, KEPT_BLOCKS);
  }
}

/** Bound of a vid (vidSql) made of ENUM codes: SeriesBuffer's class per vid is a byte array of up to twice this many bytes. */
const VID_LIMIT = 1 << 20;

/** The columns that, with the value, make a dollar row's identity in a series (metrics.md, Rows that count). */
const VID_COLUMNS = ['billing_class', 'negotiated_type', 'service_codes', 'modifiers'] as const;

/**
 * The columns of a bucket's prices (code-buckets.ts bucketPricesSql) statsOfBucket reads: not the
 * others, whose decoding (the free text of `additional_information` on some files) it would not use.
 */
export const MEDIANS_COLUMNS: readonly string[] = ['ps_series', 'source_id', 'negotiated_rate', 'provider_group_ids', ...VID_COLUMNS,
  'validation', 'component', 'unit_setting'];

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

/**
 * The statistics of the bucket whose prices `prices` defines as `bucket_prices` (bucketPricesSql): its dollar prices of CPT/HCPCS items expanded to
 * one row per kept resolved group, in series and value order, go through SeriesMedians series by
 * series; the results are appended to `ps_results` once the bucket is done. `vid` is vidSql's.
 */
async function statsOfBucket(con: DuckDBConnection, prices: string, loop: SeriesMedians, rows: SeriesBuffer, vid: string): Promise<void> {
  const sql = `${prices}
    SELECT CAST(b.sid AS INTEGER) AS sid, CAST(g.gid AS INTEGER) AS gid, CAST(2 * b.vid + b.cls AS INTEGER) AS vid, CAST(b.cls AS UTINYINT) AS cls,
           CAST(b.negotiated_rate AS DOUBLE) AS v
    FROM (SELECT ps_series * ${UNITS} + ${UNIT_SQL} AS sid, source_id, negotiated_rate, vid, cls, ${GROUP_ID_UNNEST_SQL} AS provider_group_id
          FROM (SELECT *, CAST(${vid} AS INTEGER) AS vid, CAST(validation IS NOT NULL AS UTINYINT) AS cls
                FROM bucket_prices
                WHERE ps_series IS NOT NULL AND negotiated_type IN (${sqlList(DOLLAR_NEGOTIATED_TYPES)}) AND negotiated_rate > 0
                  AND billing_class IN (${sqlList(UNIT_BILLING_CLASSES)}))) b
    JOIN resolved_groups g ON g.source_id = b.source_id AND g.provider_group_id = b.provider_group_id
    WHERE g.kept
    ORDER BY sid, v, gid, vid`;
  const out: number[][] = [];
  rows.clear();
  let sid = -1;
  const flush = (): void => {
    // validation off: the whole market only (the manifest's headline)
    if (rows.n > 0) loop.series(rows, (cs, st, median, rateCount, providerCount) => (cs === 0 || st === 0) && out.push([sid, cs, st, median, rateCount, providerCount]));
    rows.clear();
  };
  // the columns are never NULL: the WHERE and the join keep none (column())
  await forEachChunk(con, sql, (chunk, n) => {
    const s = column(chunk, 0, n, Int32Array);
    const gid = column(chunk, 1, n, Int32Array);
    const vid = column(chunk, 2, n, Int32Array);
    const cls = column(chunk, 3, n, Uint8Array);
    const v = column(chunk, 4, n, Float64Array);
    // a chunk mostly lies within one series (up to millions of rows): its rows go in by runs of one series
    for (let i = 0; i < n;) {
      if (s[i] !== sid) {
        flush();
        sid = s[i]!;
      }
      let j = i + 1;
      if (s[n - 1] === sid) j = n;
      else while (s[j] === sid) j++;
      rows.append(gid, vid, cls, v, i, j);
      i = j;
    }
  });
  flush();
  const appender = await con.createAppender('ps_results');
  try {
    for (const [a, cs, st, median, n, p] of out) {
      appender.appendInteger(a!);
      appender.appendUTinyInt(cs!);
      appender.appendUSmallInt(st!);
      appender.appendDouble(median!);
      appender.appendBigInt(BigInt(n!));
      appender.appendBigInt(BigInt(p!));
      appender.endRow();
    }
  } finally {
    appender.closeSync();
  }
}
