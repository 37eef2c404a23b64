/**
 * Loads dataset tables into DuckDB: Parquet bytes -> parquet-wasm -> Arrow IPC stream ->
 * `insertArrowFromIPCStream` (docs/architecture.md: DuckDB-WASM's own Parquet reader is an
 * extension fetched from an outside host, so it is not used).
 */
import type { Database } from './database';
import type { ByteSource, ParquetToIpc } from '../platform';
import { DatabaseError } from './errors';

/** The bytes of one table's files, in manifest order. */
export interface TableBytes {
  name: string;
  files: readonly string[];
  parts: readonly Uint8Array[];
}

/** Reads every file of a table in parallel. @throws SourceError */
export async function fetchTable(source: ByteSource, name: string, files: readonly string[]): Promise<TableBytes> {
  return { name, files, parts: await Promise.all(files.map((f) => source.read(f))) };
}

/**
 * Decodes each file and creates the DuckDB table `table.name` from its first row group, appending
 * the others, row group by row group (platform.ts rowGroupDecoder). `between` runs after each row
 * group inserted (the later tables yield to queued requests there). `name` must come from a closed
 * list (contract/dataset.ts TABLE_NAMES).
 * @throws DatabaseError naming the file when decoding fails, or DuckDB's error when inserting does.
 */
export async function insertTable(db: Database, decode: ParquetToIpc, table: TableBytes, between?: () => Promise<void>): Promise<void> {
  let created = false;
  for (const [i, bytes] of table.parts.entries()) {
    const failed = (e: unknown): DatabaseError =>
      new DatabaseError(`cannot decode ${table.files[i]}: ${e instanceof Error ? e.message : String(e)}`);
    const streams = decode(bytes)[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<Uint8Array>;
      try {
        next = await streams.next();
      } catch (e) {
        throw failed(e);
      }
      if (next.done) break;
      try {
        db.insertArrowIpc(table.name, next.value, created);
      } catch (e) {
        await streams.return?.();
        throw e;
      }
      created = true;
      await between?.();
    }
  }
}
