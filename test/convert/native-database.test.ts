/**
 * The worker's Database on native DuckDB (scripts/convert/build/output/native-database.ts), which computes the
 * converter's first view, against DuckDB-WASM's Node build, which the browser runs: the same rows
 * for the same statements (parameters bound as DuckDB-WASM binds them, values converted as
 * database.ts converts them, the same refusals), the same tables from the same Arrow IPC stream or
 * Parquet file (read by native DuckDB itself when its path is known), and errors that say what failed. first-view.test.ts and the goldens hold whole
 * datasets' answers equal.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { Bool, Field, Float64, Int32, List, Utf8, tableFromArrays, tableToIPC, vectorFromArray, Table } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNativeDatabase } from '../../scripts/convert/build/output/native-database';
import type { Database } from '../../workers/db/database';
import { DatabaseError } from '../../workers/db/errors';
import { insertTable, withRowGroups } from '../../workers/db/load';
import { openNodeDatabase } from '../../workers/db/open-node';
import { sql } from '../../workers/db/sql';
import { fsSource, nodePlatform } from '../../workers/platform-node';

let wasm: Database;
let native: Database;
let tmp = '';

beforeAll(async () => {
  [wasm, native] = await Promise.all([openNodeDatabase(), openNativeDatabase()]);
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-native-db-'));
});
afterAll(async () => {
  wasm?.close();
  native?.close();
  await rm(tmp, { recursive: true, force: true });
});

/** Runs `run` on both engines and expects the same outcome, serialised (key order included). */
function same(run: (db: Database) => unknown): string {
  const outcome = (db: Database): string => {
    try {
      return JSON.stringify(run(db));
    } catch (e) {
      return `${(e as Error).constructor.name}`;
    }
  };
  const a = outcome(wasm);
  expect(outcome(native)).toBe(a);
  return a;
}

/** Rows of every column type the dataset's tables hold, with NULLs and text needing UTF-8. */
function sampleIpc(): Uint8Array {
  const table = tableFromArrays({
    billing_code: ['99213', 'J0897', null, 'Ärztliche'],
    rate_count: Int32Array.from([3, 0, -7, 2_000_000_000]),
    median_rate: Float64Array.from([112.47, 0.1 + 0.2, Number.NaN, -0]),
  });
  const withMore = new Table({
    ...Object.fromEntries(table.schema.fields.map((f) => [f.name, table.getChildAt(table.schema.fields.indexOf(f))!])),
    claims_open: vectorFromArray([true, false, null, true], new Bool()),
    provider_group_ids: vectorFromArray([['1', '2'], [], null, ['x']], new List(new Field('item', new Utf8(), true))),
    nullable_int: vectorFromArray([null, 5, null, 6], new Int32()),
    nullable_float: vectorFromArray([1.5, null, null, 2], new Float64()),
  });
  return tableToIPC(withMore, 'stream');
}

describe('native DuckDB behind the worker\'s Database', () => {
  it('binds every number as a DOUBLE, as DuckDB-WASM does', () => {
    expect(same((db) => db.all(sql`SELECT typeof(${3}) AS a, typeof(${3.5}) AS b, typeof(${'x'}) AS c, typeof(${true}) AS d, ${null} IS NULL AS e, ${7} / 2 AS f`)))
      .toBe('[{"a":"DOUBLE","b":"DOUBLE","c":"VARCHAR","d":"BOOLEAN","e":true,"f":3.5}]');
  });

  it('converts values as database.ts does: 64-bit integers and dates as numbers, lists, structs, NULL; keys in column order', () => {
    expect(same((db) => db.all(sql`SELECT 2::BIGINT AS z, [1, 2]::BIGINT[] AS l, {a: 1::BIGINT, b: 'x'} AS s, NULL AS n,
      DATE '2025-01-01' AS d, 1.5::FLOAT AS f, 'é' AS t, [] AS e`)))
      .toBe('[{"z":2,"l":[1,2],"s":{"a":1,"b":"x"},"n":null,"d":1735689600000,"f":1.5,"t":"é","e":[]}]');
    expect(same((db) => db.all(sql`SELECT x, x / 2 AS h FROM range(3) t(x) ORDER BY x DESC`))).toBe('[{"x":2,"h":1},{"x":1,"h":0.5},{"x":0,"h":0}]');
  });

  it('refuses what DuckDB-WASM\'s conversion refuses: 128-bit integers, decimals', () => {
    for (const e of [sql`SELECT sum(x) AS s FROM range(3) t(x)`, sql`SELECT 1::HUGEINT AS h`, sql`SELECT 1.5::DECIMAL(4, 1) AS d`]) {
      expect(same((db) => db.all(e))).toBe('DatabaseError');
    }
    expect(() => native.all(sql`SELECT 1.5::DECIMAL(4, 1) AS d`)).toThrow(/unsupported value in result: column d is DECIMAL/);
  });

  it('creates and appends a table from an Arrow IPC stream with DuckDB-WASM\'s column types and rows', () => {
    const ipc = sampleIpc();
    const described = same((db) => {
      db.insertArrowIpc('t_ipc', ipc, false);
      db.insertArrowIpc('t_ipc', ipc, true);
      return db.all(sql`SELECT column_name, column_type FROM (DESCRIBE t_ipc)`);
    });
    expect(described).toContain('{"column_name":"provider_group_ids","column_type":"VARCHAR[]"}');
    expect(described).toContain('{"column_name":"rate_count","column_type":"INTEGER"}');
    const rows = same((db) => db.all(sql`SELECT *, isnan(median_rate) AS nan FROM t_ipc`));
    expect(JSON.parse(rows)).toHaveLength(8);
    expect(rows).toContain('"billing_code":"Ärztliche"');
  });

  it('creates and appends a table from whole Parquet files as DuckDB-WASM loads them through parquet-wasm', async () => {
    const file = path.join(tmp, 'part.parquet');
    const maker = await DuckDBInstance.create(':memory:');
    const con = await maker.connect();
    await con.run(`COPY (SELECT 'c' || (i % 7) AS billing_code, CAST(i AS INTEGER) AS rate_count, i / 3.0 AS median_rate,
      CASE WHEN i % 5 = 0 THEN NULL ELSE ['g' || i] END AS provider_group_ids FROM range(5000) t(i)) TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE 1000)`);
    con.closeSync();
    maker.closeSync();
    const bytes = new Uint8Array(await readFile(file));
    const decode = await nodePlatform.parquetDecoder();
    // with the files' paths native DuckDB reads them itself; DuckDB-WASM decodes the bytes
    const table = { name: 't_pq', files: ['a.parquet', 'b.parquet'], parts: [bytes, bytes], paths: [file, file] };
    const read: unknown[] = [];
    const watched: Database = { ...native, insertParquet: (name, input, append) => (read.push(input), native.insertParquet!(name, input, append)) };
    await insertTable(wasm, decode, table);
    await insertTable(watched, decode, table);
    expect(read).toEqual([{ path: file }, { path: file }]);
    const rows = same((db) => db.all(sql`SELECT * FROM t_pq`));
    expect(JSON.parse(rows)).toHaveLength(10_000);
    same((db) => db.all(sql`SELECT column_name, column_type FROM (DESCRIBE t_pq)`));
  });

  it('loads row groups of a local file in the order asked, as DuckDB-WASM does from their Arrow decoding', async () => {
    const file = path.join(tmp, 'groups.parquet');
    const maker = await DuckDBInstance.create(':memory:');
    const con = await maker.connect();
    await con.run(`COPY (SELECT 'c' || i AS billing_code, i / 7.0 AS median_rate FROM range(10240) t(i)) TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE 2048)`);
    con.closeSync();
    maker.closeSync();
    const openFile = await nodePlatform.parquetRowGroups();
    const size = (await readFile(file)).byteLength;
    const local = await openFile(fsSource(tmp).blob('groups.parquet', size));
    expect(local.path).toBe(file);
    for (const db of [wasm, native]) {
      await withRowGroups(db, local, 't_groups_load', [3, 1], () => db.exec(sql`CREATE TABLE t_groups AS SELECT * FROM t_groups_load`));
    }
    expect(same((db) => db.all(sql`SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = 't_groups_load'`))).toBe('[{"n":0}]');
    const rows = same((db) => db.all(sql`SELECT * FROM t_groups`));
    expect(JSON.parse(rows).map((r: { billing_code: string }) => r.billing_code).slice(2046, 2050)).toEqual(['c8190', 'c8191', 'c2048', 'c2049']);
    expect(JSON.parse(rows)).toHaveLength(4096);
    expect(() => native.insertParquet!('t_none', { path: file, rowGroups: [9] }, false)).toThrow(/has no row group 9/);
    // the columns asked, in their order
    for (const db of [wasm, native]) {
      await withRowGroups(db, local, 't_cols_load', [2], () => db.exec(sql`CREATE TABLE t_cols AS SELECT * FROM t_cols_load`), ['median_rate']);
    }
    const cols = JSON.parse(same((db) => db.all(sql`SELECT * FROM t_cols`))) as Array<Record<string, number>>;
    expect(cols).toHaveLength(2048);
    expect(Object.keys(cols[0]!)).toEqual(['median_rate']);
    expect(cols[0]!.median_rate).toBe(4096 / 7);
  });

  it('keeps two loads of row groups started together apart: each scratch table lives only while its rows are appended', async () => {
    const file = path.join(tmp, 'two.parquet');
    const maker = await DuckDBInstance.create(':memory:');
    const con = await maker.connect();
    await con.run(`COPY (SELECT i AS x FROM range(4096) t(i)) TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE 2048)`);
    con.closeSync();
    maker.closeSync();
    const openFile = await nodePlatform.parquetRowGroups();
    const size = (await readFile(file)).byteLength;
    for (const db of [wasm, native]) {
      db.exec(sql`CREATE TABLE t_both (x BIGINT)`);
      for (const withPath of [true, false]) {
        const opened = await openFile(fsSource(tmp).blob('two.parquet', size));
        const f = withPath ? opened : { read: (rg: readonly number[]) => opened.read(rg) };
        await Promise.all([0, 1].map((rg) => withRowGroups(db, f, 't_both_load', [rg], () => db.exec(sql`INSERT INTO t_both SELECT x FROM t_both_load`))));
      }
    }
    expect(same((db) => db.all(sql`SELECT count(*) AS n, count(DISTINCT x) AS d FROM t_both`))).toBe('[{"n":8192,"d":4096}]');
  });

  it('names the file a corrupt Parquet table comes from, and DuckDB\'s message for a failed statement', async () => {
    const decode = await nodePlatform.parquetDecoder();
    const garbage = new TextEncoder().encode('PAR1 not a parquet file PAR1');
    const bad = path.join(tmp, 'bad.parquet');
    await writeFile(bad, garbage);
    for (const paths of [undefined, [bad]]) {
      const corrupt = { name: 't_bad', files: ['rates/part-0.parquet'], parts: [garbage], ...(paths ? { paths } : {}) };
      await expect(insertTable(native, decode, corrupt)).rejects.toThrow(/cannot decode rates\/part-0\.parquet/);
    }
    expect(() => native.all(sql`SELECT * FROM no_such_table`)).toThrow(DatabaseError);
    expect(() => native.all(sql`SELECT * FROM no_such_table`)).toThrow(/query failed: Catalog Error: .*no_such_table/);
    expect(() => native.exec(sql`SELECT ${1}`)).toThrow(/exec takes no parameters/);
  });

  it('keeps each database apart and refuses calls on a closed one', async () => {
    const other = await openNativeDatabase();
    other.exec(sql`CREATE TABLE only_here AS SELECT 1 AS x`);
    expect(() => native.all(sql`SELECT * FROM only_here`)).toThrow(/only_here/);
    expect(other.all(sql`SELECT * FROM only_here`)).toEqual([{ x: 1 }]);
    other.close();
    expect(() => other.all(sql`SELECT 1 AS x`)).toThrow(/native database \d+ is closed/);
  });

  it('never reaches for an extension: one needing a download fails at once', () => {
    expect(() => native.all(sql`SELECT * FROM read_json_auto('x.json')`)).toThrow(DatabaseError);
  });
});
