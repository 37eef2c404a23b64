/**
 * The DuckDB instance (native client) that working databases (spool.ts) are attached to: an ingest
 * run shares one between its files, each file's spool an in-memory database attached under a name
 * of its own and detached once the file's partition is written; the build's spool has one alone. An instance costs about 25 ms
 * of CPU to create and close, an attached database about 3 ms: a table of contents of thousands of
 * small files would pay the instance thousands of times.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import path from 'node:path';

/**
 * DuckDB's memory cap for the conversion; its default would take 80 % of RAM (docs/architecture.md).
 * 160 MB keeps the process under 600 MB of RSS together with Node and the idle parser threads;
 * an in-memory database is faster than a disk-backed one here. The last phase, once the parser
 * threads are idle and the spool loaded, raises it (write-dataset.ts LAST_PHASE_MEMORY_LIMIT).
 * An ingest run's files share it (SpoolHost): one at a time unless a worker takes several jobs at once.
 */
export const DUCKDB_MEMORY_LIMIT = '160MB';

/** An ingest run's DuckDB instance, which hosts the spool of each file it reads (openSpool's `host`). */
export interface SpoolHost {
  db: DuckDBInstance;
  /** A database name no other spool of this host has had: `spool_<n>`. */
  nextName(): string;
  /** Closes the instance; the spools opened in it must be closed first. */
  close(): void;
}

/**
 * Opens a new in-memory instance for the spools of an ingest run, or for the build's one spool,
 * whose work directory is `workDir` (it must exist; removed by the caller after `close()`): capped
 * at DUCKDB_MEMORY_LIMIT, spilling to `<workDir>/duckdb-tmp`, two threads, no extension loaded
 * from outside. @throws when DuckDB cannot start.
 */
export async function openSpoolHost(workDir: string): Promise<SpoolHost> {
  const db = await DuckDBInstance.create(':memory:', {
    memory_limit: DUCKDB_MEMORY_LIMIT,
    temp_directory: path.join(workDir, 'duckdb-tmp'),
    threads: '2',
    preserve_insertion_order: 'false',
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  });
  let n = 0;
  return {
    db,
    nextName: () => `spool_${++n}`,
    close: () => db.closeSync(),
  };
}
