/**
 * Writes the dataset tables to Parquet with DuckDB's native writer and describes each file for
 * the manifest: size, SHA-256, and for `rates` the billing-code range of every row group
 * (architecture.md §1: parquet-wasm exposes no column statistics, so the manifest carries them).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { COLUMNS, TABLE_NAMES, type ManifestTable, type RowGroupIndexEntry, type TableName } from '../../contract/dataset';
import { bucketCount } from './code-buckets';

/**
 * Rows per Parquet row group of `rates`: small enough that one billing code reads little. Not
 * below 65,536: DuckDB's sorted COPY from the `rates` view (an `unnest` of `raw_prices`) ran out of
 * its 160 MB at 50,000 and 49,152 rows per group on the benchmark's filtered run (one 575k-row
 * bucket, every run), and never at 65,536, 100,000 or its default 122,880.
 */
export const RATES_ROW_GROUP_SIZE = 65_536;

/**
 * Sort order of each table in its file; a total order, so that the same inputs give the same
 * files (SHA-256 in the manifest) from run to run: `rates` ends with the price's place in its file
 * (item, rate, price: build-tables.ts), as rows otherwise equal on these keys are common.
 */
const ORDER: Record<TableName, string> = {
  rates: 'billing_code, snapshot, insurer_id, source_id, provider_group_key, negotiated_rate, ps_item, ps_rate, ps_price',
  provider_groups: 'provider_group_key, provider_id, npi, tin_type, tin_value',
  providers: 'provider_id',
  services: 'billing_code',
  claims_volume: 'billing_code, state',
  price_stats: 'billing_code, snapshot, insurer_id, class_selection, state',
};

/** SHA-256 of a file, hex, streamed. */
export async function sha256File(file: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(file)) h.update(chunk as Buffer);
  return h.digest('hex');
}

async function rowGroups(con: DuckDBConnection, file: string, fileIndex = 0): Promise<RowGroupIndexEntry[]> {
  const r = await con.runAndReadAll(
    `SELECT row_group_id, row_group_num_rows, stats_min_value, stats_max_value
     FROM parquet_metadata($1) WHERE path_in_schema = 'billing_code' ORDER BY row_group_id`,
    [file],
  );
  return r.getRowObjects().map((o) => ({
    file: fileIndex,
    row_group: Number(o.row_group_id),
    rows: Number(o.row_group_num_rows),
    min_billing_code: String(o.stats_min_value ?? ''),
    max_billing_code: String(o.stats_max_value ?? ''),
  }));
}

/** Writes one sorted Parquet file from `select` (a relation); returns its row count (COPY's answer). */
async function copySorted(con: DuckDBConnection, name: TableName, from: string, file: string): Promise<number> {
  const rowGroupSize = name === 'rates' ? RATES_ROW_GROUP_SIZE : 1_000_000;
  const copied = await con.runAndReadAll(
    `COPY (SELECT ${COLUMNS[name].join(', ')} FROM ${from} ORDER BY ${ORDER[name]})
     TO '${file.replace(/'/g, "''")}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${rowGroupSize})`,
  );
  return Number(copied.getRows()[0]![0]);
}

/**
 * `rates` as `rates/part-<k>.parquet`, one part per billing-code bucket (code-buckets.ts) in code
 * order, each read by its bucket (an item_id range of `raw_rates`) and sorted within DuckDB's memory
 * limit; one bucket too.
 */
async function writeRates(con: DuckDBConnection, outDir: string): Promise<ManifestTable> {
  const entry: ManifestTable = { files: [], rows: 0, bytes: [], sha256: [], row_groups: [] };
  const add = async (rel: string, rows: number): Promise<void> => {
    const file = path.join(outDir, rel);
    entry.row_groups!.push(...await rowGroups(con, file, entry.files.length));
    entry.files.push(rel);
    entry.rows += rows;
    entry.bytes.push((await stat(file)).size);
    entry.sha256.push(await sha256File(file));
  };
  for (let k = 0, n = await bucketCount(con); k < n; k++) {
    const rel = `rates/part-${k}.parquet`;
    await add(rel, await copySorted(con, 'rates', `rates WHERE ps_bucket = ${k}`, path.join(outDir, rel)));
  }
  return entry;
}

/**
 * Writes every table of TABLE_NAMES into `outDir` and returns their manifest entries.
 * @throws when DuckDB cannot write a file.
 */
export async function writeTables(con: DuckDBConnection, outDir: string): Promise<Record<TableName, ManifestTable>> {
  await mkdir(path.join(outDir, 'rates'), { recursive: true });
  const out = {} as Record<TableName, ManifestTable>;
  for (const name of TABLE_NAMES) {
    if (name === 'rates') {
      out.rates = await writeRates(con, outDir);
      continue;
    }
    const rel = `${name}.parquet`;
    const file = path.join(outDir, rel);
    const rows = await copySorted(con, name, name, file);
    out[name] = { files: [rel], rows, bytes: [(await stat(file)).size], sha256: [await sha256File(file)] };
  }
  return out;
}
