/**
 * The last phase of a conversion: `price_stats` (build-price-stats.ts) and every Parquet file of
 * the dataset (write-parquet.ts), as tasks on two connections of the working database, each task on
 * one thread: one billing-code bucket (its `rates` part and its statistics, each from the bucket's
 * prices, code-buckets.ts bucketPricesSql), or one other table. The provider tables go first and
 * are dropped once written (FIRST_TABLES), so that the buckets have DuckDB's memory to themselves.
 *
 * A rates part must be copied on one DuckDB thread (write-parquet.ts: what keeps its rows in order),
 * and `threads` is the database's setting, not a connection's: alone, the copies would leave the
 * second core idle for a third of the SQL time. So the whole phase runs with `threads = 1` and two
 * connections each take the next task, which keeps both cores busy (docs/benchmarks.md).
 * Two tasks at once share DuckDB's memory limit, raised to LAST_PHASE_MEMORY_LIMIT for the phase.
 * When they still do not fit in it (DuckDB's out-of-memory error), a failed task runs again alone
 * at the end (runTasks), where it fits.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { TABLE_NAMES, type ManifestTable, type TableName } from '../../../../contract/files/dataset';
import { MEDIANS_COLUMNS, preparePriceStats } from '../stats/build-price-stats';
import { bucketCount, bucketPricesPlan, bucketPricesSql } from '../stats/code-buckets';
import { finishClaims } from '../build-tables';
import { mkdir } from 'node:fs/promises';
import { DUCKDB_MEMORY_LIMIT } from '../../spool/spool-host';
import type { Spool } from '../../spool/spool';
import path from 'node:path';
import { describeRates, hasDroppedGroups, onOneThread, ratesPartSql, writeRatesPart, writeTable } from './write-parquet';

/**
 * DuckDB's memory limit during the phase, above spool-host.ts DUCKDB_MEMORY_LIMIT: two buckets at once,
 * one of them a single code of millions of rate rows, need it; more only raises the peak RSS (docs/benchmarks.md).
 */
export const LAST_PHASE_MEMORY_LIMIT = '240MB';

/** Connections working at once: one per core of the 2-core machine the converter is sized for. */
const CONNECTIONS = 2;

/**
 * The tables written first in the phase and dropped once written: the largest apart from the prices
 * (~520k rows each on the 1 GB benchmark file, ~90 MB uncompressed together), which nothing reads
 * after preparePriceStats. Held through the buckets, they would push the working database past
 * DuckDB's memory limit (spool.ts), which then spills and reloads blocks at every bucket.
 */
const FIRST_TABLES: ReadonlySet<Exclude<TableName, 'rates'>> = new Set(['provider_groups', 'providers'] as const);

/** The tables written after the buckets: `rates` (their parts), `price_stats` (their statistics) and `claims_volume` (split by the units of price_stats: build-tables.ts finishClaims). */
const LAST_TABLES: ReadonlySet<TableName> = new Set(['rates', 'price_stats', 'claims_volume'] as const);

/** A task of the phase, run on whichever connection is free. */
export type Task<C> = (con: C) => Promise<void>;

/** DuckDB's error when its memory limit cannot hold what two tasks at once need. */
export const isOutOfMemory = (e: unknown): boolean => e instanceof Error && e.message.startsWith('Out of Memory Error');

/**
 * Runs `tasks` in order on the connections, each connection taking the next task when free. A task
 * that fails with `retryAlone(error)` true (DuckDB's out-of-memory error: two tasks at once did not
 * fit its memory limit, which one alone does) is run again on `cons[0]` after all others, alone.
 * Any other failure starts no new task, lets the running ones end, and is thrown.
 * @throws the first failure that is not retried, or a retried task's second failure.
 */
export async function runTasks<C>(cons: readonly C[], tasks: ReadonlyArray<Task<C>>, retryAlone: (e: unknown) => boolean): Promise<void> {
  let next = 0;
  let failed = false;
  const again: Array<Task<C>> = [];
  const worker = async (c: C): Promise<void> => {
    while (!failed && next < tasks.length) {
      const task = tasks[next++]!;
      try {
        await task(c);
      } catch (e) {
        if (retryAlone(e)) {
          again.push(task);
          continue;
        }
        failed = true;
        throw e;
      }
    }
  };
  const settled = await Promise.allSettled(cons.map(worker));
  const rejected = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (rejected) throw rejected.reason;
  for (const task of again) await task(cons[0]!);
}

/**
 * Fills `price_stats` in `spool` and writes every table of the dataset into `outDir`
 * (`rates/part-<k>.parquet` per bucket, `<name>.parquet` for the others), on the spool's connection
 * and further ones in parallel; returns their manifest entries (runTasks says what happens on a
 * failure).
 * @throws when SQL fails or a file cannot be written.
 */
export async function writeDataset(spool: Pick<Spool, 'con' | 'connect'>, outDir: string): Promise<Record<TableName, ManifestTable>> {
  const { con } = spool;
  await mkdir(path.join(outDir, 'rates'), { recursive: true });
  const stats = await preparePriceStats(con);
  const dropped = await hasDroppedGroups(con);
  const sql = ratesPartSql(dropped);
  const buckets = await bucketCount(con);
  const plan = await bucketPricesPlan(con);
  const tasks: Array<Task<DuckDBConnection>> = [];
  const out = {} as Record<TableName, ManifestTable>;
  // the tables nothing reads once written, first: dropped, they leave DuckDB's memory limit to the buckets
  for (const name of FIRST_TABLES) {
    tasks.push(async (c) => {
      out[name] = await writeTable(c, name, outDir);
      await c.run(`DROP TABLE ${name}`);
    });
  }
  const rows: number[] = new Array<number>(buckets).fill(0);
  for (let k = 0; k < buckets; k++) {
    tasks.push(async (c) => {
      rows[k] = await writeRatesPart(c, sql, bucketPricesSql(plan, k), k, outDir);
      await stats.ofBucket(c, bucketPricesSql(plan, k, MEDIANS_COLUMNS));
    });
  }
  // the other tables that do not wait for the statistics, last: short tasks even out the two connections' ends
  for (const name of TABLE_NAMES) {
    if (name === 'rates' || LAST_TABLES.has(name) || FIRST_TABLES.has(name)) continue;
    tasks.push(async (c) => { out[name] = await writeTable(c, name, outDir); });
  }
  const others: DuckDBConnection[] = [];
  try {
    for (let i = 1; i < CONNECTIONS; i++) others.push(await spool.connect());
    const cons = [con, ...others];
    await con.run(`SET memory_limit = '${LAST_PHASE_MEMORY_LIMIT}'`);
    await onOneThread(cons, () => runTasks(cons, tasks, isOutOfMemory));
  } finally {
    for (const c of others) c.closeSync();
    await con.run(`SET memory_limit = '${DUCKDB_MEMORY_LIMIT}'`);
  }
  await stats.finish(con);
  await finishClaims(con);
  out.price_stats = await writeTable(con, 'price_stats', outDir);
  out.claims_volume = await writeTable(con, 'claims_volume', outDir);
  out.rates = await describeRates(con, outDir, rows);
  return Object.fromEntries(TABLE_NAMES.map((n) => [n, out[n]])) as Record<TableName, ManifestTable>;
}
