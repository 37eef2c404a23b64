/**
 * Loads dataset tables into DuckDB: Parquet bytes -> parquet-wasm -> Arrow IPC stream ->
 * `insertArrowFromIPCStream` (docs/architecture.md: DuckDB-WASM's own Parquet reader is an
 * extension fetched from an outside host, so it is not used).
 */
import type { Database } from './database';
import type { ByteSource, ParquetToIpc, RowGroupFile } from '../platform';
import { DatabaseError } from './errors';
import { SqlFragment } from './sql';

/** The bytes of one table's files, in manifest order, and their paths when the source has local files. */
export interface TableBytes {
  name: string;
  files: readonly string[];
  parts: readonly Uint8Array[];
  paths?: readonly string[];
}

/** Reads every file of a table in parallel. @throws SourceError */
export async function fetchTable(source: ByteSource, name: string, files: readonly string[]): Promise<TableBytes> {
  const parts = await Promise.all(files.map((f) => source.read(f)));
  return { name, files, parts, ...(source.path ? { paths: files.map((f) => source.path!(f)) } : {}) };
}

/**
 * Decodes each file and creates the DuckDB table `table.name` from its first row group, appending
 * the others, row group by row group (platform.ts rowGroupDecoder); or, on an engine that reads
 * Parquet itself (Database.insertParquet) and for a local file, has it read the file whole. `between` runs after each row
 * group inserted (the later tables yield to queued requests there). `name` must come from a closed
 * list (contract/dataset.ts TABLE_NAMES).
 * @throws DatabaseError naming the file when decoding fails, or DuckDB's error when inserting does.
 */
export async function insertTable(db: Database, decode: ParquetToIpc, table: TableBytes, between?: () => Promise<void>): Promise<void> {
  let created = false;
  for (const [i, bytes] of table.parts.entries()) {
    const failed = (e: unknown): DatabaseError =>
      new DatabaseError(`cannot decode ${table.files[i]}: ${e instanceof Error ? e.message : String(e)}`);
    const path = table.paths?.[i];
    if (db.insertParquet && path !== undefined) {
      try {
        db.insertParquet(table.name, { path }, created);
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
 * Row groups `rowGroups` of `file` (every column, or `columns`) as the scratch table `scratch` for
 * as long as `use` runs (the loaders of stats.ts, rates.ts and provider-groups.ts append them to
 * their table through it), dropped after. The rows
 * are read by the engine's own Parquet reader when it has one and the file is local
 * (Database.insertParquet), else decoded to Arrow IPC first; from then on everything is
 * synchronous, so no other load meets the scratch table.
 * @throws SourceError as the read, Error when decoding fails, DatabaseError when inserting or `use` does
 */
export async function withRowGroups(db: Database, file: RowGroupFile, scratch: string, rowGroups: readonly number[], use: () => void,
  columns?: readonly string[]): Promise<void> {
  const local = db.insertParquet && file.path !== undefined ? { path: file.path, rowGroups, ...(columns ? { columns } : {}) } : null;
  const ipc = local ? null : await file.read(rowGroups, columns);
  if (local) db.insertParquet!(scratch, local, false);
  else db.insertArrowIpc(scratch, ipc!, false);
  try {
    use();
  } finally {
    db.exec(new SqlFragment(`DROP TABLE IF EXISTS ${scratch}`, []));
  }
}
