/**
 * Test helper: rewrites a dataset's `rates/part-0.parquet` with `rows` rows per row group (parquet-wasm's
 * writer; DuckDB's own writer rounds row groups up to 2048+ rows) and updates the manifest's size,
 * SHA-256 and row-group index (read back with DuckDB's parquet_metadata, as the converter does).
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DatasetManifest } from '../../contract/files/dataset';

const require = createRequire(import.meta.url);

/** Returns the new manifest and the compressed size of each row group, bytes. */
export async function splitRateRowGroups(dir: string, rows: number): Promise<{ manifest: DatasetManifest; groupBytes: number[] }> {
  const pq = require('parquet-wasm/node') as typeof import('parquet-wasm/node');
  const file = join(dir, 'rates/part-0.parquet');
  const table = pq.readParquet(new Uint8Array(await readFile(file)));
  const bytes = pq.writeParquet(table, new pq.WriterPropertiesBuilder().setMaxRowGroupSize(rows).build());
  await writeFile(file, bytes);
  const inst = await DuckDBInstance.create(':memory:');
  const con = await inst.connect();
  const r = await con.runAndReadAll(
    `SELECT row_group_id, row_group_num_rows, stats_min_value, stats_max_value FROM parquet_metadata($1)
     WHERE path_in_schema = 'billing_code' ORDER BY row_group_id`,
    [file],
  );
  const sizes = await con.runAndReadAll(
    `SELECT row_group_id, sum(total_compressed_size)::INTEGER AS n FROM parquet_metadata($1) GROUP BY row_group_id ORDER BY row_group_id`,
    [file],
  );
  const groupBytes = sizes.getRowObjects().map((o) => Number(o.n));
  con.closeSync();
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as DatasetManifest;
  manifest.tables.rates.bytes = [bytes.length];
  manifest.tables.rates.sha256 = [createHash('sha256').update(bytes).digest('hex')];
  manifest.tables.rates.row_groups = r.getRowObjects().map((o) => ({
    file: 0,
    row_group: Number(o.row_group_id),
    rows: Number(o.row_group_num_rows),
    min_billing_code: String(o.stats_min_value),
    max_billing_code: String(o.stats_max_value),
  }));
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  return { manifest, groupBytes };
}
