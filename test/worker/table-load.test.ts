/**
 * Boot tables load row group by row group (workers/platform.ts rowGroupDecoder,
 * workers/db/load.ts insertTable): every row of a file with several row groups arrives once, in
 * file order; a file without rows still creates its table with its columns; a damaged file is
 * named in the error.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../workers/db/database';
import { insertTable } from '../../workers/db/load';
import { SqlFragment } from '../../workers/db/sql';
import { nodePlatform } from '../../workers/platform-node';
import type { ParquetToIpc } from '../../workers/platform';

let dir: string;
let db: Database;
let decode: ParquetToIpc;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'compete-table-load-'));
  const con = await (await DuckDBInstance.create(':memory:')).connect();
  await con.run(`COPY (SELECT i::INTEGER AS i, 'code ' || i AS billing_code FROM range(10000) t(i) ORDER BY i)
    TO '${path.join(dir, 'many.parquet')}' (FORMAT parquet, ROW_GROUP_SIZE 2048)`);
  await con.run(`COPY (SELECT 1::INTEGER AS i, 'x' AS billing_code WHERE false) TO '${path.join(dir, 'empty.parquet')}' (FORMAT parquet)`);
  const groups = await con.runAndReadAll(`SELECT count(DISTINCT row_group_id)::INTEGER FROM parquet_metadata('${path.join(dir, 'many.parquet')}')`);
  expect(groups.getRows()[0]![0]).toBeGreaterThan(2);
  con.closeSync();
  db = await nodePlatform.openDatabase();
  decode = await nodePlatform.parquetDecoder();
});
afterAll(async () => {
  db?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const bytesOf = async (name: string): Promise<Uint8Array> => new Uint8Array(await readFile(path.join(dir, name)));

describe('insertTable', () => {
  it('loads every row group of every file, in order, yielding between row groups', async () => {
    const many = await bytesOf('many.parquet');
    let pauses = 0;
    await insertTable(db, decode, { name: 'many', files: ['a.parquet', 'b.parquet'], parts: [many, many] }, async () => void pauses++);
    const [r] = db.all<{ n: number; distinct: number; first: number; last: number }>(
      new SqlFragment('SELECT count(*)::INTEGER AS n, count(DISTINCT i)::INTEGER AS distinct, first(i)::INTEGER AS first, last(i)::INTEGER AS last FROM many', []),
    );
    expect(r).toEqual({ n: 20000, distinct: 10000, first: 0, last: 9999 });
    expect(pauses).toBeGreaterThan(4);
  });

  it('creates the table of a file without rows, with its columns', async () => {
    await insertTable(db, decode, { name: 'empty', files: ['empty.parquet'], parts: [await bytesOf('empty.parquet')] });
    expect(db.all(new SqlFragment('SELECT * FROM empty', []))).toEqual([]);
    expect(db.all<{ column_name: string }>(new SqlFragment("SELECT column_name FROM duckdb_columns() WHERE table_name = 'empty' ORDER BY column_index", [])).map((c) => c.column_name)).toEqual(['i', 'billing_code']);
  });

  it('names the file it cannot decode', async () => {
    const damaged = (await bytesOf('many.parquet')).slice(0, 5000);
    await expect(insertTable(db, decode, { name: 'damaged', files: ['price_stats.parquet'], parts: [damaged] })).rejects.toThrow(/^cannot decode price_stats\.parquet: /);
  });
});
