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
 * Decodes each file and creates the DuckDB table `table.name` from the first, appending the
 * others. `name` must come from a closed list (contract/dataset.ts TABLE_NAMES).
 * @throws DatabaseError when decoding or inserting fails.
 */
export function insertTable(db: Database, decode: ParquetToIpc, table: TableBytes): void {
  table.parts.forEach((bytes, i) => {
    let ipc: Uint8Array;
    try {
      ipc = decode(bytes);
    } catch (e) {
      throw new DatabaseError(`cannot decode ${table.files[i]}: ${e instanceof Error ? e.message : String(e)}`);
    }
    db.insertArrowIpc(table.name, ipc, i > 0);
  });
}
