/**
 * Billing-code buckets: the working database's rate rows cut into ranges of billing codes of about
 * BUCKET_ROWS rows each, in code order, so that the two heavy steps run one bucket at a time in
 * DuckDB's memory limit instead of spilling one huge sort or hash table to disk (architecture.md
 * §5: cap DuckDB's memory): the sorted Parquet write of `rates` (write-parquet.ts: one part file
 * per bucket, the parts in code order) and the medians of `price_stats` (build-price-stats.ts).
 * A database of at most BUCKET_ROWS rate rows has one bucket and takes the direct path.
 */
import type { DuckDBConnection } from '@duckdb/node-api';

/** Rate rows per bucket: a bucket's sort or aggregation fits in DuckDB's memory limit (spool.ts). */
export const BUCKET_ROWS = 750_000;

/**
 * Creates `code_buckets(billing_code, bucket)` from the rows per item of `raw_rates` and
 * `rate_items` (build-tables.ts); buckets are numbered from 0 in billing-code order and a code is
 * never cut. Returns the number of buckets (at least 1).
 * @throws when SQL fails.
 */
export async function planCodeBuckets(con: DuckDBConnection, bucketRows = BUCKET_ROWS): Promise<number> {
  await con.run(`
    CREATE TABLE code_buckets AS
    WITH per_code AS (
      SELECT k.billing_code, sum(r.n) AS n
      FROM (SELECT source_id, item_id, count(*) AS n FROM raw_rates GROUP BY ALL) r JOIN rate_items k USING (source_id, item_id)
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
