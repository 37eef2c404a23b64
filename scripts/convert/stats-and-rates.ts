/**
 * The two heavy steps of a conversion at once: `price_stats` (build-price-stats.ts) and the
 * `rates` Parquet parts (write-parquet.ts), one billing-code bucket (code-buckets.ts) per task, on
 * two connections of the working database, each task on one thread.
 *
 * A rates part must be copied on one DuckDB thread (write-parquet.ts: what keeps its rows in order),
 * and `threads` is the database's setting, not a connection's: alone, the copies would leave the
 * second core idle for a third of the SQL time. So the whole phase runs with `threads = 1` and two
 * connections each take the next task, a statistics bucket or a rates part, which keeps both cores
 * busy (1 GB benchmark file: ~24 s of medians then copies -> see README, Benchmark).
 */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { ManifestTable } from '../../contract/dataset';
import { finishPriceStats, preparePriceStats, priceStatsOfBucket } from './build-price-stats';
import { bucketCount } from './code-buckets';
import { describeRates, oneThreadForRates, ratesPartSql, writeRatesPart } from './write-parquet';

/** Connections working at once: one per core of the 2-core machine the converter is sized for. */
const CONNECTIONS = 2;

/**
 * Fills `price_stats` and writes `rates/part-<k>.parquet` for every bucket into `outDir`; returns
 * the rates' manifest entry. On a failure no new task starts, the running one ends, and the first
 * error is thrown.
 * @throws when SQL fails or a file cannot be written.
 */
export async function statsAndRates(db: DuckDBInstance, con: DuckDBConnection, outDir: string): Promise<ManifestTable> {
  await preparePriceStats(con);
  const sql = await ratesPartSql(con);
  const buckets = await bucketCount(con);
  const tasks: Array<(c: DuckDBConnection) => Promise<void>> = [];
  const rows: number[] = new Array<number>(buckets).fill(0);
  for (let k = 0; k < buckets; k++) {
    tasks.push((c) => priceStatsOfBucket(c, k));
    tasks.push(async (c) => { rows[k] = await writeRatesPart(c, sql, k, outDir); });
  }
  const others: DuckDBConnection[] = [];
  try {
    for (let i = 1; i < CONNECTIONS; i++) others.push(await db.connect());
    await oneThreadForRates(con, async () => {
      let next = 0;
      let failed = false;
      const worker = async (c: DuckDBConnection): Promise<void> => {
        while (!failed && next < tasks.length) {
          const task = tasks[next++]!;
          try {
            await task(c);
          } catch (e) {
            failed = true;
            throw e;
          }
        }
      };
      const settled = await Promise.allSettled([con, ...others].map(worker));
      const rejected = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
      if (rejected) throw rejected.reason;
    });
  } finally {
    for (const c of others) c.closeSync();
  }
  await finishPriceStats(con);
  return describeRates(con, outDir, rows);
}
