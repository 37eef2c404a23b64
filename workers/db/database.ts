/**
 * The worker's handle on DuckDB-WASM: prepared statements in, plain rows out.
 *
 * Both openers (open-browser.ts, open-node.ts) wrap a synchronous DuckDB-WASM connection in this
 * interface, so the /api handlers run the same SQL in the browser and under vitest. BIGINTs and
 * Arrow values become plain JSON-safe values here, once (docs/architecture.md).
 */
import type { SqlFragment } from './sql';
import { DatabaseError } from './errors';

/** A plain value of a result row: JSON-safe (no bigint, no Arrow objects). */
export type PlainValue = string | number | boolean | null | PlainValue[] | { [key: string]: PlainValue };

/**
 * What Database.insertParquet reads: a Parquet file on this machine, whole or these row groups
 * (0-based, in this order), every column or these (by name, in this order).
 */
export interface ParquetInput {
  path: string;
  rowGroups?: readonly number[];
  columns?: readonly string[];
}

/** The query surface the handlers use. Every call is synchronous (DuckDB's blocking bindings). */
export interface Database {
  /**
   * Runs `query` as a prepared statement and returns its rows as plain objects; `Row` is the
   * caller's promise about the columns it selected.
   * @throws DatabaseError with DuckDB's message.
   */
  all<Row extends Record<string, PlainValue>>(query: SqlFragment): Row[];
  /** Runs a statement without parameters (settings at boot). @throws DatabaseError */
  exec(query: SqlFragment): void;
  /** Creates table `name` from an Arrow IPC stream, or appends to it when `append`. @throws DatabaseError */
  insertArrowIpc(name: string, ipc: Uint8Array, append: boolean): void;
  /**
   * Creates table `name` from a local Parquet file, whole or some of its row groups in the order
   * given, or appends to it when `append`. An engine that reads Parquet itself (native DuckDB,
   * scripts/convert/build/output/native-database.ts) offers it, and load.ts then skips the Arrow decoding;
   * DuckDB-WASM does not (its Parquet reader is an extension fetched from an outside host).
   * @throws DatabaseError
   */
  insertParquet?(name: string, parquet: ParquetInput, append: boolean): void;
  close(): void;
}

/** The parts of DuckDB-WASM's `DuckDBConnection` we use, typed structurally (its Arrow is v17). */
export interface DuckConnectionLike {
  query(text: string): unknown;
  prepare(text: string): { query(...params: unknown[]): unknown; close(): void };
  insertArrowFromIPCStream(buffer: Uint8Array, options: { name: string; create?: boolean }): void;
  close(): void;
}

/** The parts of an Arrow table (apache-arrow v17) the result conversion reads. */
interface ArrowTableLike {
  numRows: number;
  schema: { fields: Array<{ name: string }> };
  getChildAt(index: number): Iterable<unknown> | null;
}

/**
 * Converts a result cell to a plain value: bigint -> number (counts stay far below 2^53),
 * list vectors -> arrays, struct rows -> objects, null/undefined -> null. Also takes native
 * DuckDB's JS values (scripts/convert/build/output/native-database-thread.ts): plain objects for structs, and a
 * DATE's `Date` as its milliseconds since 1970, the number DuckDB-WASM's Arrow gives.
 */
export function toPlain(value: unknown): PlainValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map(toPlain);
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'object') {
    // Arrow vectors (lists) serialise to arrays, struct rows to objects; either may hold more Arrow.
    // Native DuckDB's structs are plain objects already.
    const toJSON = (value as { toJSON?: () => unknown }).toJSON;
    const j = typeof toJSON === 'function' ? toJSON.call(value) : Object.getPrototypeOf(value) === Object.prototype ? value : undefined;
    if (Array.isArray(j)) return j.map(toPlain);
    if (j !== null && typeof j === 'object') {
      const out: { [key: string]: PlainValue } = {};
      for (const [k, x] of Object.entries(j as Record<string, unknown>)) out[k] = toPlain(x);
      return out;
    }
  }
  throw new DatabaseError(`unsupported value in result: ${String(value)}`);
}

/**
 * The rows of an Arrow result as plain objects. Column by column: iterating a column vector costs a
 * fraction of Arrow's row proxies (`toArray()` + `toJSON()` per row), which dominated the pricing
 * queries' 40,000-row answers.
 */
function rowsOf<Row>(result: unknown): Row[] {
  const table = result as ArrowTableLike;
  const rows: Array<Record<string, PlainValue>> = [];
  for (let i = 0; i < table.numRows; i++) rows.push({});
  table.schema.fields.forEach((field, c) => {
    const column = table.getChildAt(c);
    if (column === null) throw new DatabaseError(`result column ${field.name} is missing`);
    let i = 0;
    for (const value of column) rows[i++]![field.name] = toPlain(value);
  });
  return rows as Row[];
}

function wrap<T>(what: string, run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof DatabaseError) throw e;
    throw new DatabaseError(`${what}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Wraps an open DuckDB-WASM connection. */
export function databaseOf(conn: DuckConnectionLike): Database {
  return {
    all<Row extends Record<string, PlainValue>>(query: SqlFragment): Row[] {
      return wrap('query failed', () => {
        // Closed after its one use: a prepared statement keeps its physical plan, and the plan keeps
        // the rows of each materialized CTE of its last run (DuckDB's PhysicalCTE working table),
        // megabytes per selection statement in memory a browser worker never gets back.
        const stmt = conn.prepare(query.text);
        try {
          return rowsOf<Row>(stmt.query(...query.params));
        } finally {
          stmt.close();
        }
      });
    },
    exec(query: SqlFragment): void {
      if (query.params.length > 0) throw new DatabaseError('exec takes no parameters');
      wrap('statement failed', () => conn.query(query.text));
    },
    insertArrowIpc(name: string, ipc: Uint8Array, append: boolean): void {
      wrap(`loading table ${name} failed`, () => conn.insertArrowFromIPCStream(ipc, { name, create: !append }));
    },
    close(): void {
      conn.close();
    },
  };
}
