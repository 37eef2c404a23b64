/**
 * The thread behind native-database.ts: DuckDB's native client (@duckdb/node-api), whose calls
 * return promises, answering the synchronous calls of the worker's `Database` interface
 * (workers/db/database.ts) one at a time while the caller's thread waits (native-database.ts). It mirrors
 * DuckDB-WASM's conventions, so that the worker's SQL gives the same answers on both engines:
 * every number parameter is bound as DOUBLE (as DuckDB-WASM binds them), result values become
 * plain values as `toPlain` makes them (64-bit integers as numbers, lists as arrays, structs as
 * objects), and a table is created from an Arrow IPC stream with the column types DuckDB-WASM's
 * Arrow import gives (text VARCHAR, Int32 INTEGER, Float64 DOUBLE, lists of text VARCHAR[]).
 * DuckDB runs on one thread, as in the browser: an aggregate's order of additions, hence its last
 * bit, is then that of a single pipeline. The two engines are different DuckDB releases:
 * test/worker/first-view.test.ts and the golden datasets hold their answers equal.
 */
import {
  BIGINT, BOOLEAN, DOUBLE, DuckDBDataChunk, DuckDBInstance, DuckDBListType, DuckDBStructType, DuckDBTypeId, FLOAT, INTEGER, LIST, SMALLINT, SQLNULL,
  TINYINT, VARCHAR, listValue, type DuckDBConnection, type DuckDBType, type DuckDBValue,
} from '@duckdb/node-api';
import { DataType, tableFromIPC, type Field } from 'apache-arrow';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { workerData, type MessagePort } from 'node:worker_threads';
import type { ParquetInput, PlainValue } from '../../workers/db/database';
import type { SqlValue } from '../../workers/db/sql';

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

/** Rows per appended chunk: DuckDB's vector size. */
const CHUNK_ROWS = 2048;

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

/**
 * A JS value of node-api's JS conversion as `toPlain` (workers/db/database.ts) makes a DuckDB-WASM
 * Arrow value: 64-bit integers as numbers, a DATE as its milliseconds since 1970.
 */
function plain(value: unknown): PlainValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: { [key: string]: PlainValue } = {};
    for (const [k, x] of Object.entries(value as Record<string, unknown>)) out[k] = plain(x);
    return out;
  }
  throw new Error(`unsupported value in result: ${String(value)}`);
}

/** The DuckDB type DuckDB-WASM's Arrow import gives an Arrow field. @throws Error on another type */
function duckType(field: Field): DuckDBType {
  const t = field.type;
  if (DataType.isUtf8(t) || DataType.isLargeUtf8(t) || (DataType.isDictionary(t) && (DataType.isUtf8(t.dictionary) || DataType.isLargeUtf8(t.dictionary)))) return VARCHAR;
  if (DataType.isInt(t)) {
    const byWidth: Record<number, DuckDBType> = { 8: TINYINT, 16: SMALLINT, 32: INTEGER, 64: BIGINT };
    const type = t.isSigned ? byWidth[t.bitWidth] : undefined;
    if (type) return type;
  }
  if (DataType.isFloat(t)) return t.precision === 2 ? DOUBLE : FLOAT;
  if (DataType.isBool(t)) return BOOLEAN;
  if (DataType.isList(t) && t.children[0] && duckType(t.children[0]) === VARCHAR) return LIST(VARCHAR);
  throw new Error(`column ${field.name}: Arrow type ${String(t)} is not loaded`);
}

/** A table's column names double-quoted for DuckDB. */
const quoted = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** Creates (unless `append`) and fills table `name` from an Arrow IPC stream, 2,048 rows a chunk. */
async function insert(con: DuckDBConnection, name: string, ipc: Uint8Array, append: boolean): Promise<void> {
  const table = tableFromIPC(ipc);
  const fields = table.schema.fields;
  const types = fields.map(duckType);
  if (!append) await con.run(`CREATE TABLE ${quoted(name)} (${fields.map((f, c) => `${quoted(f.name)} ${types[c]!.toString()}`).join(', ')})`);
  if (table.numRows === 0) return;
  const columns = fields.map((f) => {
    const v = table.getChild(f.name);
    if (!v) throw new Error(`column ${f.name} is missing`);
    return v;
  });
  const appender = await con.createAppender(name);
  try {
    for (let from = 0; from < table.numRows; from += CHUNK_ROWS) {
      const rows = Math.min(CHUNK_ROWS, table.numRows - from);
      const chunk = DuckDBDataChunk.create(types, rows);
      columns.forEach((vector, c) => {
        const values: DuckDBValue[] = new Array<DuckDBValue>(rows);
        const list = types[c]!.toString() === 'VARCHAR[]';
        for (let r = 0; r < rows; r++) {
          const v: unknown = vector.get(from + r);
          if (v === null || v === undefined) values[r] = null;
          else if (list) values[r] = listValue([...(v as Iterable<string | null>)]);
          else values[r] = v as DuckDBValue;
        }
        chunk.setColumnValues(c, values);
      });
      appender.appendDataChunk(chunk);
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
}

/** Row groups' first rows and row counts of the Parquet files read by row group, by path, size and modification time. */
const rowGroupRanges = new Map<string, Array<[number, number]>>();

/** The 0-based first row and the row count of each row group of the Parquet file at `file`. */
async function rangesOf(con: DuckDBConnection, file: string): Promise<Array<[number, number]>> {
  const { size, mtimeMs } = await stat(file);
  const key = `${file}\0${size}\0${mtimeMs}`;
  let ranges = rowGroupRanges.get(key);
  if (!ranges) {
    const rows = (await con.runAndReadAll(`SELECT row_group_id, any_value(row_group_num_rows) FROM parquet_metadata(${literal(file)})
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

/** A text as an SQL string literal. */
const literal = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/**
 * Creates (unless `append`) or fills table `name` from Parquet by DuckDB's own reader: a whole
 * file's bytes (through a temp copy), or row groups of a local file, one after the other in the
 * order given (each selected by its rows' `file_row_number`, which DuckDB prunes to that row
 * group). Column types are the file's, as DuckDB-WASM's Arrow import gives them (duckType); rows
 * come in the file's order, on one thread.
 */
async function insertParquet(con: DuckDBConnection, name: string, input: ParquetInput, append: boolean): Promise<void> {
  const into = async (rows: string, first: boolean): Promise<void> => {
    await con.run(append || !first ? `INSERT INTO ${quoted(name)} ${rows}` : `CREATE TABLE ${quoted(name)} AS ${rows}`);
  };
  if ('path' in input) {
    const ranges = await rangesOf(con, input.path);
    for (const [k, rg] of input.rowGroups.entries()) {
      const range = ranges[rg];
      if (!range) throw new Error(`${input.path} has no row group ${rg}`);
      await into(`SELECT * EXCLUDE (file_row_number) FROM read_parquet(${literal(input.path)}, file_row_number = true)
        WHERE file_row_number >= ${range[0]} AND file_row_number < ${range[0] + range[1]}`, k === 0);
    }
    return;
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'compete-native-'));
  try {
    const file = path.join(dir, 'table.parquet');
    await writeFile(file, input.bytes);
    await into(`SELECT * FROM read_parquet(${literal(file)})`, true);
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
    return { names, values: reader.getColumnsJS().map((column) => column.map(plain)) };
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
      await insert(connection(call.db), call.name, call.ipc, call.append);
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
if (data?.nativeDuckdb) serve(data.nativeDuckdb);
