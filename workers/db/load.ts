/**
 * Loads dataset tables into DuckDB: Parquet bytes -> parquet-wasm -> Arrow IPC stream ->
 * `insertArrowFromIPCStream` (docs/architecture.md: DuckDB-WASM's own Parquet reader is an
 * extension fetched from an outside host, so it is not used).
 */
import type { Database } from './database';
import type { ManifestTable } from '../../contract/files/dataset';
import type { ByteSource, ParquetToIpc, ReadRowGroups, RowGroupFile } from '../platform';
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
 * list (contract/files/dataset.ts TABLE_NAMES).
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

/**
 * The files of a table (manifest entry `table`) opened for row-group reads on first use, each once
 * per dataset (its footer is read once); a failed open is tried again on the next call.
 * @throws DatabaseError when the manifest names no such file; SourceError or Error as the open
 */
export function openedFiles(table: ManifestTable, source: ByteSource, open: Promise<ReadRowGroups>): (file: number) => Promise<RowGroupFile> {
  const files = new Map<number, Promise<RowGroupFile>>();
  return (file) => {
    let f = files.get(file);
    if (!f) {
      const name = table.files[file];
      const size = table.bytes[file];
      if (name === undefined || size === undefined) return Promise.reject(new DatabaseError(`manifest.json lists no file ${file} of size known for this table`));
      f = open.then((openFile) => openFile(source.blob(name, size)));
      files.set(file, f);
      f.catch(() => files.delete(file));
    }
    return f;
  };
}

/** A row group of one of a table's files. */
export interface RowGroupRef {
  file: number;
  row_group: number;
}

/**
 * Loads row groups once each per dataset through `load(file, rowGroups)`: the returned `ensure`
 * starts, in one load per file, the groups of `groups` nobody has started, in the order given, and
 * settles once those and the ones already in flight are in. A failed load is tried again by the
 * next `ensure` that asks for its groups. (rates.ts and provider-groups.ts; stats.ts loads one row
 * group at a time in a queue of its own.)
 * @throws what `load` throws
 */
export function rowGroupsOnce(load: (file: number, rowGroups: number[]) => Promise<void>): (groups: Iterable<RowGroupRef>) => Promise<void> {
  const started = new Map<string, Promise<void>>();
  return async (groups) => {
    const waits: Promise<void>[] = [];
    const fresh = new Map<number, number[]>();
    for (const g of groups) {
      const p = started.get(`${g.file}:${g.row_group}`);
      if (p) waits.push(p);
      else fresh.set(g.file, [...(fresh.get(g.file) ?? []), g.row_group]);
    }
    for (const [file, rowGroups] of fresh) {
      const p = load(file, rowGroups);
      for (const rg of rowGroups) started.set(`${file}:${rg}`, p);
      p.catch(() => rowGroups.forEach((rg) => started.delete(`${file}:${rg}`)));
      waits.push(p);
    }
    await Promise.all(waits);
  };
}

/**
 * A loader of table `name` (files `files` of `source`) that reads and inserts it on its first call
 * and settles once it is in; a failed load is tried again by the next call. For a table no request
 * may need (contract/files/dataset.ts `billing_providers`), so that it costs nothing until one does.
 * @throws SourceError, DatabaseError naming the file (from the call that loads it)
 */
export function onFirstUse(db: Database, decode: ParquetToIpc, source: ByteSource, name: string, files: readonly string[]): () => Promise<void> {
  let loading: Promise<void> | null = null;
  return () => {
    loading ??= fetchTable(source, name, files)
      .then((table) => insertTable(db, decode, table))
      .catch((e: unknown) => {
        loading = null;
        throw e;
      });
    return loading;
  };
}
