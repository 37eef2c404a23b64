/**
 * The Parquet files of a dataset directory, for tests that compare two datasets table for table
 * (byte for byte): every `*.parquet` under it by relative path, sorted.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** Every Parquet file under `dir`: relative path -> bytes, in path order. */
export async function parquetFiles(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const f of (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.parquet')).sort()) out.set(f, await readFile(path.join(dir, f)));
  return out;
}
