/**
 * The thread behind native-database.ts: DuckDB's native client (@duckdb/node-api), whose calls
 * return promises, answering the synchronous calls of the worker's `Database` interface
 * (workers/db/database.ts) one at a time while the caller's thread waits (native-database.ts). It mirrors
 * DuckDB-WASM's conventions, so that the worker's SQL gives the same answers on both engines:
 * every number parameter is bound as DOUBLE (as DuckDB-WASM binds them), result values become
 * plain values by the same `toPlain` (64-bit integers and dates as numbers, lists as arrays, structs
 * as objects), and tables come from the dataset's Parquet files, read by DuckDB itself.
 * DuckDB runs on one thread, as in the browser: an aggregate's order of additions, hence its last
 * bit, is then that of a single pipeline. The two engines are different DuckDB releases:
 * test/worker/first-view.test.ts and the golden datasets hold their answers equal.
 */
import {
  BOOLEAN, DOUBLE, DuckDBInstance, DuckDBListType, DuckDBStructType, DuckDBTypeId, SQLNULL, VARCHAR, type DuckDBConnection, type DuckDBType,
} from '@duckdb/node-api';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { sqlString } from '../../../../contract/sql/sql-text';
import { toPlain, type ParquetInput, type PlainValue } from '../../../../workers/db/database';
import type { SqlValue } from '../../../../workers/db/sql';

const require = createRequire(import.meta.url);
type ParquetNode = typeof import('parquet-wasm/node');
/** parquet-wasm's Node build, loaded by the first Arrow IPC insert (none in a first view). */
const parquetWasm = (): ParquetNode => require('parquet-wasm/node') as ParquetNode;

/** One call of the facade. `db` is the handle `open` returned. */
export type NativeCall =
  | { op: 'open' }
  | { op: 'all'; db: number; text: string; params: readonly SqlValue[] }
  | { op: 'exec'; db: number; text: string }
  | { op: 'insert'; db: number; name: string; ipc: Uint8Array; append: boolean }
  | { op: 'insertParquet'; db: number; name: string; parquet: ParquetInput; append: boolean }
  | { op: 'close'; db: number };

/** A result, column by column: `values[c][r]` is row r's value of column `names[c]`. */
export interface NativeColumns {
  names: string[];
  values: PlainValue[][];
}

/** What a call returns: the handle (`open`), the columns (`all`), nothing otherwise. */
export type NativeReply = number | NativeColumns | null;

const open = new Map<number, { instance: DuckDBInstance; con: DuckDBConnection }>();
let nextHandle = 1;

function connection(db: number): DuckDBConnection {
  const held = open.get(db);
  if (!held) throw new Error(`native database ${db} is closed`);
  return held.con;
}

/**
 * Whether a result column of this type converts as it does through DuckDB-WASM's Arrow: 128-bit
 * integers and decimals do not (`toPlain` refuses them), so they are refused here too.
 */
function convertible(type: DuckDBType): boolean {
  if (type.typeId === DuckDBTypeId.HUGEINT || type.typeId === DuckDBTypeId.UHUGEINT || type.typeId === DuckDBTypeId.DECIMAL) return false;
  if (type instanceof DuckDBListType) return convertible(type.valueType);
  if (type instanceof DuckDBStructType) return type.entryTypes.every(convertible);
  return true;
}

/** A table's name double-quoted for DuckDB. */
const quoted = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** Row groups' first rows and row counts of the Parquet files read by row group, by path, size and modification time. */
const rowGroupRanges = new Map<string, Array<[number, number]>>();

/** The 0-based first row and the row count of each row group of the Parquet file at `file`. */
async function rangesOf(con: DuckDBConnection, file: string): Promise<Array<[number, number]>> {
  const { size, mtimeMs } = await stat(file);
  const key = `${file}\0${size}\0${mtimeMs}`;
  let ranges = rowGroupRanges.get(key);
  if (!ranges) {
    const rows = (await con.runAndReadAll(`SELECT row_group_id, any_value(row_group_num_rows) FROM parquet_metadata(${sqlString(file)})
      GROUP BY row_group_id ORDER BY row_group_id`)).getRows();
    let at = 0;
    ranges = rows.map(([, n]) => {
      const range: [number, number] = [at, Number(n)];
      at += Number(n);
      return range;
    });
    rowGroupRanges.set(key, ranges);
  }
  return ranges;
}

/**
 * Creates (unless `append`) or fills table `name` from a local Parquet file by DuckDB's own reader:
 * whole, or the row groups asked, one after the other in that order (each selected by its rows'
 * `file_row_number`, which DuckDB prunes to that row group), every column or those asked. Rows come in the file's order, on one
 * thread; the column types are the file's, as DuckDB-WASM's Arrow import of the same file gives them.
 */
async function insertParquet(con: DuckDBConnection, name: string, { path: file, rowGroups, columns }: ParquetInput, append: boolean): Promise<void> {
  const into = async (rows: string, first: boolean): Promise<void> => {
    await con.run(append || !first ? `INSERT INTO ${quoted(name)} ${rows}` : `CREATE TABLE ${quoted(name)} AS ${rows}`);
  };
  const list = columns === undefined ? '*' : columns.map(quoted).join(', ');
  if (rowGroups === undefined) {
    await into(`SELECT ${list} FROM read_parquet(${sqlString(file)})`, true);
    return;
  }
  const ranges = await rangesOf(con, file);
  for (const [k, rg] of rowGroups.entries()) {
    const range = ranges[rg];
    if (!range) throw new Error(`${file} has no row group ${rg}`);
    await into(`SELECT ${columns === undefined ? '* EXCLUDE (file_row_number)' : list} FROM read_parquet(${sqlString(file)}, file_row_number = true)
      WHERE file_row_number >= ${range[0]} AND file_row_number < ${range[0] + range[1]}`, k === 0);
  }
}

/**
 * Creates (unless `append`) or fills table `name` from an Arrow IPC stream: parquet-wasm writes it
 * as a Parquet file (uncompressed, in a temp directory), which insertParquet reads, so that the
 * column types are those of a Parquet file of the same columns, as DuckDB-WASM's Arrow import
 * gives them. No load of the first view goes this way (it reads the dataset's files); a caller of
 * the Database interface with Arrow only does.
 */
async function insertArrowIpc(con: DuckDBConnection, name: string, ipc: Uint8Array, append: boolean): Promise<void> {
  const pq = parquetWasm();
  const table = pq.Table.fromIPCStream(ipc);
  const properties = new pq.WriterPropertiesBuilder().setCompression(pq.Compression.UNCOMPRESSED).build();
  const bytes = pq.writeParquet(table, properties);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'compete-native-'));
  try {
    const file = path.join(dir, 'table.parquet');
    await writeFile(file, bytes);
    await insertParquet(con, name, { path: file }, append);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The types DuckDB-WASM binds parameters as: every number DOUBLE. */
function paramType(value: SqlValue): DuckDBType {
  if (value === null) return SQLNULL;
  if (typeof value === 'number') return DOUBLE;
  if (typeof value === 'boolean') return BOOLEAN;
  return VARCHAR;
}

async function all(con: DuckDBConnection, text: string, params: readonly SqlValue[]): Promise<NativeColumns> {
  const prepared = await con.prepare(text);
  try {
    if (params.length > 0) prepared.bind([...params], params.map(paramType));
    const reader = await prepared.runAndReadAll();
    const names = reader.columnNames();
    reader.columnTypes().forEach((type, c) => {
      if (!convertible(type)) throw new Error(`unsupported value in result: column ${names[c]} is ${type.toString()}`);
    });
    return { names, values: reader.getColumnsJS().map((column) => column.map(toPlain)) };
  } finally {
    prepared.destroySync();
  }
}

/** Answers one call. @throws Error with DuckDB's message */
export async function answer(call: NativeCall): Promise<NativeReply> {
  switch (call.op) {
    case 'open': {
      const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
      const handle = nextHandle++;
      open.set(handle, { instance, con: await instance.connect() });
      return handle;
    }
    case 'all':
      return all(connection(call.db), call.text, call.params);
    case 'exec':
      await connection(call.db).run(call.text);
      return null;
    case 'insert':
      await insertArrowIpc(connection(call.db), call.name, call.ipc, call.append);
      return null;
    case 'insertParquet':
      await insertParquet(connection(call.db), call.name, call.parquet, call.append);
      return null;
    case 'close': {
      const held = open.get(call.db);
      open.delete(call.db);
      held?.con.closeSync();
      held?.instance.closeSync();
      return null;
    }
  }
}

/** What native-database.ts gives the thread: the port calls come on, the word it is woken by. */
export interface NativeThreadData {
  nativeDuckdb: { port: MessagePort; done: Int32Array };
}

/**
 * Answers the calls arriving on `port`, one at a time: each answer (`{ reply }` or `{ error }`) is
 * posted, then `done[0]` set to 1 and notified, which wakes the waiting caller.
 */
function serve({ port, done }: NativeThreadData['nativeDuckdb']): void {
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (c: NativeCall) => {
    queue = queue.then(async () => {
      try {
        port.postMessage({ reply: await answer(c) });
      } catch (e) {
        port.postMessage({ error: e instanceof Error ? e.message : String(e) });
      }
      Atomics.store(done, 0, 1);
      Atomics.notify(done, 0);
    });
  });
}

const data = workerData as Partial<NativeThreadData> | null;
if (data?.nativeDuckdb) {
  serve(data.nativeDuckdb);
  // loaded (DuckDB's native module among the imports above): native-database.ts awaits this, the
  // thread's one message to its parent, before its first synchronous call, so that its caller's
  // thread never blocks on the start
  parentPort?.postMessage('ready');
}
