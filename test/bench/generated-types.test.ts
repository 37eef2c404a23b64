/**
 * The benchmarks' generated datasets (bench/api-generate.ts) stand for converted ones: every table
 * must have the converter's column names and types, or the benchmarks time another dataset (a
 * DECIMAL column decodes and loads many times slower than the converter's DOUBLE).
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TABLE_NAMES } from '../../contract/files/dataset';
import { generateApiDataset, REAL_FILE_SHAPE_TINY } from '../../bench/api-generate';
import { convertFixture } from '../worker/fixture-dataset';

const roots: string[] = [];
afterAll(async () => {
  for (const r of roots) await rm(r, { recursive: true, force: true });
});

describe('generated datasets', () => {
  it('have the column names and types of a converted dataset, table by table', async () => {
    const converted = await convertFixture();
    roots.push(converted.root);
    const generated = await mkdtemp(path.join(os.tmpdir(), 'compete-generated-'));
    roots.push(generated);
    const manifest = await generateApiDataset(generated, REAL_FILE_SHAPE_TINY.rateRows, REAL_FILE_SHAPE_TINY);
    const con = await (await DuckDBInstance.create(':memory:')).connect();
    const columns = async (dir: string, file: string): Promise<string[]> =>
      (await con.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${path.join(dir, file).replaceAll("'", "''")}')`)).getRows().map((r) => `${String(r[0])} ${String(r[1])}`);
    const convertedManifest = JSON.parse(await readFile(path.join(converted.dir, 'manifest.json'), 'utf8')) as typeof manifest;
    for (const table of TABLE_NAMES) {
      const want = await columns(converted.dir, convertedManifest.tables[table].files[0]!);
      expect(await columns(generated, manifest.tables[table].files[0]!), table).toEqual(want);
    }
    con.closeSync();
  });
});
