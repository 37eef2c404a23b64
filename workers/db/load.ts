/**
 * Loads dataset tables into DuckDB: Parquet bytes -> parquet-wasm -> Arrow IPC stream ->
 * `insertArrowFromIPCStream` (docs/architecture.md: DuckDB-WASM's own Parquet reader is an
 * extension fetched from an outside host, so it is not used).
 */
import type { Database } from './database';
import type { ByteSource, ParquetToIpc, RowGroupFile } from '../platform';
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
 * the others, row group by row group (platform.ts rowGroupDecoder); or, on an engine that reads
 * Parquet itself (Database.insertParquet), hands it each file whole. `between` runs after each row
 * group inserted (the later tables yield to queued requests there). `name` must come from a closed
 * list (contract/dataset.ts TABLE_NAMES).
 * @throws DatabaseError naming the file when decoding fails, or DuckDB's error when inserting does.
 */
export async function insertTable(db: Database, decode: ParquetToIpc, table: TableBytes, between?: () => Promise<void>): Promise<void> {
  let created = false;
  for (const [i, bytes] of table.parts.entries()) {
    const failed = (e: unknown): DatabaseError =>
      new DatabaseError(`cannot decode ${table.files[i]}: ${e instanceof Error ? e.message : String(e)}`);
    if (db.insertParquet) {
      try {
        db.insertParquet(table.name, { bytes }, created);
      } catch (e) {
        throw failed(e);
      }
      created = true;
      await between?.();
      continue;
    }
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

/**
 * Creates table `name` from row groups `rowGroups` of `file`, in that order: by the engine's own
 * Parquet reader when it has one and the file is local (Database.insertParquet), else decoded to
 * Arrow IPC. `name` must be a scratch table of the loaders (stats.ts, rates.ts).
 * @throws SourceError as the read, Error when decoding fails, DatabaseError when inserting does
 */
export async function insertRowGroups(db: Database, file: RowGroupFile, name: string, rowGroups: readonly number[]): Promise<void> {
  if (db.insertParquet && file.path !== undefined) db.insertParquet(name, { path: file.path, rowGroups }, false);
  else db.insertArrowIpc(name, await file.read(rowGroups), false);
}
