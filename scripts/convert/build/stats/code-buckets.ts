/**
 * Billing-code buckets: the working database's rate rows cut into ranges of billing codes of about
 * BUCKET_ROWS rows each, in code order, so that the two heavy steps run one bucket at a time in
 * DuckDB's memory limit instead of spilling one huge sort or hash table to disk (docs/architecture.md:
 * cap DuckDB's memory): the sorted Parquet write of `rates` (write-parquet.ts: one part file
 * per bucket, the parts in code order) and the medians of `price_stats` (build-price-stats.ts).
 * A database of at most BUCKET_ROWS rate rows has one bucket and takes the direct path.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { PRICE_COLUMN_NAMES } from '../../../../contract/files/price-columns';
import { PRICE_SHAPE_COLUMNS, PRICE_VALUE_COLUMNS } from '../../spool/price-values';
import { RATE_ROWS_PER_PRICE_SQL, valueColumnTable } from '../../spool/spool';
import { checkedColumns, ITEM_CHECK_COLUMNS } from '../validation';

/** Rate rows per bucket: a bucket's sort or aggregation fits in DuckDB's memory limit (spool.ts). */
export const BUCKET_ROWS = 750_000;

/**
 * Creates `code_buckets(billing_code, bucket)` from the rate rows per item of `raw_prices`
 * (RATE_ROWS_PER_PRICE_SQL) and `rate_items` (build-tables.ts); buckets are numbered from 0 in
 * billing-code order and a code is never cut. Returns the number of buckets (at least 1).
 * @throws when SQL fails.
 */
export async function planCodeBuckets(con: DuckDBConnection, bucketRows = BUCKET_ROWS): Promise<number> {
  await con.run(`
    CREATE TABLE code_buckets AS
    WITH per_code AS (
      SELECT k.billing_code, sum(r.n) AS n
      FROM (SELECT source_id, item_id, sum(${RATE_ROWS_PER_PRICE_SQL}) AS n FROM raw_price_rows GROUP BY ALL) r JOIN rate_items k USING (source_id, item_id)
      GROUP BY ALL),
    cum AS (SELECT billing_code, sum(n) OVER (ORDER BY billing_code ROWS UNBOUNDED PRECEDING) - n AS before FROM per_code)
    SELECT billing_code, CAST(dense_rank() OVER (ORDER BY before // ${bucketRows}) - 1 AS INTEGER) AS bucket FROM cum;`);
  const r = await con.runAndReadAll('SELECT CAST(coalesce(max(bucket), 0) + 1 AS INTEGER) FROM code_buckets');
  return Number(r.getRows()[0]![0]);
}

/** Number of buckets planned (1 when planCodeBuckets was not run, e.g. a dataset built directly). */
export async function bucketCount(con: DuckDBConnection): Promise<number> {
  const t = await con.runAndReadAll(`SELECT count(*) FROM duckdb_tables() WHERE table_name = 'code_buckets'`);
  if (Number(t.getRows()[0]![0]) === 0) return 1;
  const r = await con.runAndReadAll('SELECT CAST(coalesce(max(bucket), 0) + 1 AS INTEGER) FROM code_buckets');
  return Number(r.getRows()[0]![0]);
}

/**
 * Columns of `bucket_prices` (bucketPricesSql) stored as DuckDB ENUMs when their values in the
 * working database are few (ENUM_MAX_VALUES, ENUM_MAX_BYTES), by the table they come from: of
 * `raw_prices`, every value column (price-values.ts PRICE_VALUE_COLUMNS).
 * DuckDB's Parquet writer writes an ENUM column as a dictionary-encoded string column (the same
 * UTF8 column type and values as a VARCHAR) straight from its codes, where a VARCHAR column costs a
 * hash lookup per value, and the medians sort and compare codes (docs/benchmarks.md). `billing_code` is never one: the writer gives an ENUM
 * column's row groups the statistics of its whole value set, and the manifest's row-group index
 * (write-parquet.ts) needs each row group's own billing-code range; neither is
 * `provider_group_ids`, a list of a value per group.
 */
export const ENUM_COLUMNS = {
  rate_items: ['billing_code_type', 'snapshot', 'insurer_id', 'negotiation_arrangement'],
  raw_prices: PRICE_VALUE_COLUMNS,
} as const;

/**
 * Most values of an ENUM column (ENUM_COLUMNS), and most bytes of their text together: each row
 * group of a `rates` part carries the whole value set as its dictionary, so a column of many or
 * long values (free-text `additional_information`, many expiration dates) stays VARCHAR.
 */
export const ENUM_MAX_VALUES = 256;
export const ENUM_MAX_BYTES = 16 << 10;

/** Name of the ENUM type of bucket_prices' column `column` (planBucketEnums). */
const enumType = (column: string): string => `bucket_${column}`;

/**
 * The number of values of the ENUM type planBucketEnums gave each of `columns` (of bucket_prices),
 * or null when one of them has none (it stays text).
 * @throws when SQL fails.
 */
export async function bucketEnumSizes(con: DuckDBConnection, columns: readonly string[]): Promise<number[] | null> {
  const types = await bucketEnumTypes(con);
  if (!columns.every((c) => types.has(enumType(c)))) return null;
  const sizes = await con.runAndReadAll(`SELECT ${columns.map((c) => `len(enum_range(NULL::${enumType(c)}))`).join(', ')}`);
  return sizes.getRows()[0]!.map(Number);
}

/** The names of the ENUM types planBucketEnums created (enumType). @throws when SQL fails. */
async function bucketEnumTypes(con: DuckDBConnection): Promise<Set<string>> {
  const r = await con.runAndReadAll(`SELECT type_name FROM duckdb_types() WHERE database_name = current_database() AND starts_with(type_name, 'bucket_')`);
  return new Set(r.getRows().map((row) => String(row[0])));
}

/**
 * Name of the table `(code, value)` of the codes a value column of `raw_prices` uses (spool.ts
 * `raw_values`), each with its value as the column's ENUM (planBucketEnums).
 */
const enumValues = (column: string): string => `bucket_values_${column}`;

/**
 * Creates the ENUM type `bucket_<column>` of every column of ENUM_COLUMNS whose distinct non-NULL
 * values in `rate_items` or `raw_prices` are at least one (DuckDB has no empty ENUM), at most
 * ENUM_MAX_VALUES and at most ENUM_MAX_BYTES of UTF-8,
 * its values in VARCHAR order (so a sort on the codes is the sort on the text), and for a column of
 * `raw_prices` (value codes, spool.ts) the table `bucket_values_<column>(code, value)` of the codes
 * it uses with their value as that ENUM; returns the columns that got one. Runs once every price
 * is loaded (buildTables): a value that came later would not cast.
 * @throws when SQL fails.
 */
export async function planBucketEnums(con: DuckDBConnection): Promise<string[]> {
  const done: string[] = [];
  for (const [table, columns] of Object.entries(ENUM_COLUMNS)) {
    for (const column of columns) {
      const coded = table === 'raw_prices';
      // many codes: many values but when a value past a writer's full dictionary got a code per price
      // (price-values.ts); either way no ENUM, known without the exact DISTINCT of all its codes
      if (coded && await manyCodes(con, column)) continue;
      // a value column of raw_prices holds codes (spool.ts): its values are those of the codes it uses
      await con.run(coded
        ? `CREATE TEMP TABLE enum_codes AS SELECT DISTINCT ${column} AS code FROM ${valueColumnTable(column)} WHERE ${column} IS NOT NULL;
           CREATE TEMP TABLE enum_values AS SELECT DISTINCT value AS v FROM raw_values SEMI JOIN enum_codes USING (code)`
        : `CREATE TEMP TABLE enum_values AS SELECT DISTINCT ${column} AS v FROM ${table} WHERE ${column} IS NOT NULL`);
      try {
        const r = await con.runAndReadAll('SELECT count(*), coalesce(sum(octet_length(encode(v))), 0) FROM enum_values');
        const [n, bytes] = r.getRows()[0]!.map(Number) as [number, number];
        if (n === 0 || n > ENUM_MAX_VALUES || bytes > ENUM_MAX_BYTES) continue;
        await con.run(`CREATE TYPE ${enumType(column)} AS ENUM (SELECT v FROM enum_values ORDER BY v)`);
        if (coded) {
          await con.run(`CREATE TABLE ${enumValues(column)} AS
            SELECT code, CAST(value AS ${enumType(column)}) AS value FROM raw_values SEMI JOIN enum_codes USING (code)`);
        }
        done.push(column);
      } finally {
        await con.run('DROP TABLE enum_values; DROP TABLE IF EXISTS enum_codes');
      }
    }
  }
  return done;
}

/**
 * Whether value column `column` of `raw_prices` holds more than ENUM_CODES_CHECK distinct codes,
 * by DuckDB's HyperLogLog estimate (a few KB, where an exact DISTINCT holds a hash table of every
 * code: tens of MB when the free text differs from price to price). A value has at least one code, so a column of at most ENUM_MAX_VALUES
 * values has more codes only when a writer's dictionary was full (price-values.ts), and it then
 * stays text, decoded bucket by bucket (bucketPricesSql) as any column of many values.
 */
async function manyCodes(con: DuckDBConnection, column: string): Promise<boolean> {
  const r = await con.runAndReadAll(`SELECT approx_count_distinct(${column}) FROM ${valueColumnTable(column)}`);
  return Number(r.getRows()[0]![0]) > ENUM_CODES_CHECK;
}

/** The estimate of distinct codes past which manyCodes says a column has too many: 4x ENUM_MAX_VALUES, far past the estimate's error (~2 %). */
const ENUM_CODES_CHECK = 4 * ENUM_MAX_VALUES;

/**
 * Shapes (spool.ts `raw_shapes`) up to which bucketPricesPlan decodes them into the table
 * `bucket_shapes`; past it (a parser thread gives a code per price once its dictionary is full,
 * price-values.ts), `bucket_shapes` is a view of the same columns, which decodes at each bucket as
 * the prices did before, instead of a decoded copy of millions of rows held through the buckets.
 */
export const BUCKET_SHAPES_TABLE_MAX = 100_000;

/** A column of `bucket_prices` (bucketPricesPlan). */
export interface BucketPricesColumn {
  name: string;
  /** Its SQL over the prices (`p`, `i`, `s`: BucketPricesPlan.prices) and `join`. */
  sql: string;
  /** The LEFT JOINs its SQL needs (a value column's, aliased `v_<name>`; the benchmark's and the checks' of validation.ts); a join two columns need is made once. */
  joins?: readonly string[];
  /** A value column left as text by planBucketEnums: its code (`s.<name>` or `p.<name>`), whose text BUCKET_TEXT holds. */
  textCode?: string;
  /**
   * Where its SQL is evaluated: `inner` (default) over the prices' aliases; `outer` over the names
   * of the inner columns, so that an amount it reads several times is found once (the checks of
   * validation.ts); `hidden`, an inner column only the outer ones read, not one of bucket_prices.
   */
  level?: 'inner' | 'outer' | 'hidden';
}

/** The SELECT of a bucket's prices (bucketPricesPlan), shared by its buckets. */
export interface BucketPricesPlan {
  /** The prices with their item and shape: `raw_price_rows p`, `bucket_items i`, `bucket_shapes s`. */
  prices: string;
  /** The columns, in the order of contract/files/dataset.ts COLUMNS.rates' sources. */
  columns: BucketPricesColumn[];
}

/**
 * The rows of `raw_values` that one bucket's prices use in its text columns (bucketPricesSql).
 * Joined to the whole `raw_values` instead, a file whose free text (`additional_information`)
 * differs from price to price had DuckDB build a hash table of every value of the file at every
 * bucket (400 MB test file, one note per price: 1.4M values; 0.5-0.9 s per bucket, and two buckets
 * at once past the memory limit).
 */
const BUCKET_TEXT = 'bucket_text';

/**
 * The plan of `bucket_prices`: each column of ENUM_COLUMNS that planBucketEnums gave a type as that
 * ENUM, the others, and every one of a database built without it, as text (a price's codes joined
 * to the bucket's rows of `raw_values`, BUCKET_TEXT), but a value column no price fills, NULL
 * without a join (a join costs what a cast of the text would).
 * It first creates the two tables a bucket's prices are joined to, so that what is the same for
 * many prices is decoded once:
 * - `bucket_items`: the columns of `rate_items` the buckets read, those with an ENUM type cast to it;
 * - `bucket_shapes`: `raw_shapes` (spool.ts), its columns with an ENUM type decoded to it (joined
 *   to `bucket_values_<column>`), the others still codes; a view when the shapes are more than
 *   `options.shapesTableMax` (BUCKET_SHAPES_TABLE_MAX).
 * A price is then joined to its item and its shape only, where it was joined to its shape (the
 * `raw_prices` view), its item and one value table per column, and its item's columns cast, which
 * takes a third less time over the buckets (docs/benchmarks.md).
 * @throws when SQL fails.
 */
export async function bucketPricesPlan(con: DuckDBConnection, options: { shapesTableMax?: number } = {}): Promise<BucketPricesPlan> {
  const types = await bucketEnumTypes(con);
  const isEnum = (column: string): boolean => types.has(enumType(column));
  const itemColumns = ['billing_code_type', 'snapshot', 'insurer_id', 'negotiation_arrangement'];
  await con.run(`CREATE OR REPLACE TABLE bucket_items AS
    SELECT source_id, item_id, bucket, item_order, billing_code, ps_series, ${ITEM_CHECK_COLUMNS},
           ${itemColumns.map((c) => (isEnum(c) ? `CAST(${c} AS ${enumType(c)}) AS ${c}` : c)).join(', ')}
    FROM rate_items`);
  const shapes = Number((await con.runAndReadAll('SELECT count(*) FROM raw_shapes')).getRows()[0]![0]);
  const kind = shapes > (options.shapesTableMax ?? BUCKET_SHAPES_TABLE_MAX) ? 'VIEW' : 'TABLE';
  // a plan made before (of another kind: tests) is replaced
  const made = await con.runAndReadAll(`SELECT 'VIEW' FROM duckdb_views() WHERE view_name = 'bucket_shapes' AND database_name = current_database()
    UNION ALL SELECT 'TABLE' FROM duckdb_tables() WHERE table_name = 'bucket_shapes' AND database_name = current_database()`);
  for (const [was] of made.getRows()) await con.run(`DROP ${String(was)} bucket_shapes`);
  // with the shape's comparison unit and benchmark kind (validation.ts shape_units), which a price's benchmark and checks join on
  await con.run(`CREATE ${kind} bucket_shapes AS
    SELECT s.shape, ${PRICE_SHAPE_COLUMNS.map((c) => (isEnum(c) ? `v_${c}.value AS ${c}` : `s.${c}`)).join(', ')},
           u.unit_class, u.unit_kind, u.component, u.unit_setting, u.bench_unit, u.outlier_unit, u.stats_unit
    FROM raw_shapes s JOIN shape_units u ON u.shape = s.shape
    ${PRICE_SHAPE_COLUMNS.filter(isEnum).map((c) => `LEFT JOIN ${enumValues(c)} v_${c} ON v_${c}.code = s.${c}`).join(' ')}`);
  // the table a value column's codes are in: bucket_shapes for a shape's, the price rows for the others
  const owner = (c: string): string => ((PRICE_SHAPE_COLUMNS as readonly string[]).includes(c) ? 's' : 'p');
  // a value column no price gives a value (setting, additional_information in many files) is NULL, no join
  const others = PRICE_VALUE_COLUMNS.filter((c) => !isEnum(c));
  const empty = new Set<string>();
  // one scan per table that holds some of them (spool.ts valueColumnTable)
  for (const table of new Set(others.map(valueColumnTable))) {
    const columns = others.filter((c) => valueColumnTable(c) === table);
    const counted = (await con.runAndReadAll(`SELECT ${columns.map((c) => `count(${c})`).join(', ')} FROM ${table}`)).getRows()[0]!;
    columns.forEach((c, k) => Number(counted[k]) === 0 && empty.add(c));
  }
  // decoded by a join: the text columns (BUCKET_TEXT) and an ENUM column of the price rows (its value table)
  const joined = (c: string): boolean => !empty.has(c) && !(isEnum(c) && owner(c) === 's');
  const value = (c: string): BucketPricesColumn => {
    if (empty.has(c)) return { name: c, sql: 'CAST(NULL AS VARCHAR)' };
    if (!joined(c)) return { name: c, sql: `${owner(c)}.${c}` };
    const join = `LEFT JOIN ${isEnum(c) ? enumValues(c) : BUCKET_TEXT} v_${c} ON v_${c}.code = ${owner(c)}.${c}`;
    return { name: c, sql: `v_${c}.value`, joins: [join], ...(isEnum(c) ? {} : { textCode: `${owner(c)}.${c}` }) };
  };
  const item = ['billing_code', ...itemColumns, 'ps_series'].map((c) => ({ name: c, sql: `i.${c}` }));
  const price = ['source_id', 'provider_group_ids', ...PRICE_COLUMN_NAMES]
    .map((c) => ((PRICE_VALUE_COLUMNS as readonly string[]).includes(c) ? value(c) : { name: c, sql: `p.${c}` }));
  const checked: BucketPricesColumn[] = await checkedColumns(con);
  return {
    prices: `raw_price_rows p JOIN bucket_items i ON i.source_id = p.source_id AND i.item_id = p.item_id JOIN bucket_shapes s ON s.shape = p.shape`,
    columns: [...item, ...price, ...checked],
  };
}

/**
 * The WITH clause that defines `bucket_prices` for one statement: the prices of bucket `k` (one row
 * per `raw_prices` row, with its item's billing code, code type, snapshot, insurer, arrangement and
 * `ps_series`; the columns of `plan`, bucketPricesPlan), and their place in the file
 * (`item_order`, `rate_index`, `price_index`), by which the `rates` part is sorted
 * (write-parquet.ts); with `names`, only those columns (a value column is decoded only when asked
 * for). The text the prices use is found from their codes first (BUCKET_TEXT), when the columns
 * asked for have text columns.
 * The `rates` part's copy and the bucket's medians (build-price-stats.ts) each read the bucket's
 * prices through it, the copy sorting them, the medians with their own sort: finding them twice
 * costs less than materializing them sorted once (docs/benchmarks.md). The copy's sort is on
 * integers, the item's `item_order` (build-tables.ts rate_items) then the rate's and the price's
 * index, which is faster than sorting by the text columns.
 */
export function bucketPricesSql(plan: BucketPricesPlan, k: number, names?: readonly string[]): string {
  const asked = names ? plan.columns.filter((c) => c.level === 'hidden' || names.includes(c.name)) : plan.columns;
  // the hidden columns only when an outer column reads them
  const columns = asked.some((c) => c.level === 'outer') ? asked : asked.filter((c) => c.level !== 'hidden');
  const inner = columns.filter((c) => c.level !== 'outer');
  const outer = columns.filter((c) => c.level !== 'hidden').map((c) => (c.level === 'outer' ? `${c.sql} AS ${c.name}` : c.name));
  const textCodes = columns.flatMap((c) => (c.textCode ? [c.textCode] : []));
  // the text the bucket's prices use, found from their codes: never a hash table of all of raw_values (BUCKET_TEXT)
  const text = textCodes.length === 0 ? '' : `${BUCKET_TEXT} AS MATERIALIZED (
      SELECT code, value FROM raw_values
      WHERE code IN (SELECT unnest([${textCodes.join(', ')}]) FROM ${plan.prices} WHERE i.bucket = ${k})),`;
  return `WITH ${text} bucket_prices AS (
    SELECT ${outer.join(', ')}, ${BUCKET_PRICES_ORDER} FROM (
      SELECT ${inner.map((c) => `${c.sql} AS ${c.name}`).join(', ')}, i.item_order, p.rate_index, p.price_index
      FROM ${plan.prices} ${[...new Set(columns.flatMap((c) => c.joins ?? []))].join(' ')}
      WHERE i.bucket = ${k}))`;
}

/** The order of a `rates` part's prices, of bucketPricesSql's columns: their place in the file. */
export const BUCKET_PRICES_ORDER = 'item_order, rate_index, price_index';
