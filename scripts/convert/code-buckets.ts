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

/**
 * Runs `work` while the TEMP table `bucket_prices` holds the prices of bucket `k` (one row per
 * `raw_prices` row, with its item's billing code, code type, snapshot, insurer, arrangement and
 * `ps_series` from `rate_items`), sorted by billing code, snapshot, insurer, source and the price's
 * place in its file (item, rate, price): the order of the `rates` part (write-parquet.ts), whose
 * copy and the bucket's medians (build-price-stats.ts) both read it, so the prices of a bucket are
 * found in `raw_prices` once. TEMP: two connections may each hold their bucket's (write-dataset.ts).
 * @throws when SQL fails or `work` throws; the table is dropped either way.
 */
export async function withBucketPrices<T>(con: DuckDBConnection, k: number, work: () => Promise<T>): Promise<T> {
  await con.run(`CREATE TEMP TABLE bucket_prices AS
    SELECT i.billing_code, i.billing_code_type, i.snapshot, i.insurer_id, i.negotiation_arrangement, i.ps_series, p.source_id,
           p.provider_group_ids, p.billing_class, p.negotiated_type, p.negotiated_rate, p.service_codes, p.modifiers,
           p.expiration_date, p.setting, p.additional_information
    FROM raw_prices p JOIN rate_items i ON i.source_id = p.source_id AND i.item_id = p.item_id
    WHERE i.bucket = ${k}
    ORDER BY i.billing_code, i.snapshot, i.insurer_id, p.source_id, p.item_id, p.rate_index, p.price_index`);
  try {
    return await work();
  } finally {
    await con.run('DROP TABLE bucket_prices');
  }
}
