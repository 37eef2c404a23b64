/**
 * The DuckDB instance (native client) of a working database (spool.ts), and the instance an ingest
 * run shares between its files: each file's spool is an in-memory database attached to it under a
 * name of its own and detached once the file's partition is written. An instance costs about 25 ms
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

/**
 * A new in-memory instance capped at DUCKDB_MEMORY_LIMIT, spilling to `<workDir>/duckdb-tmp`
 * (`workDir` must exist), two threads, no extension loaded from outside.
 * @throws when DuckDB cannot start.
 */
export function createSpoolInstance(workDir: string): Promise<DuckDBInstance> {
  return DuckDBInstance.create(':memory:', {
    memory_limit: DUCKDB_MEMORY_LIMIT,
    temp_directory: path.join(workDir, 'duckdb-tmp'),
    threads: '2',
    preserve_insertion_order: 'false',
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  });
}

/** An ingest run's DuckDB instance, which hosts the spool of each file it reads (openSpool's `host`). */
export interface SpoolHost {
  db: DuckDBInstance;
  /** A database name no other spool of this host has had: `spool_<n>`. */
  nextName(): string;
  /** Closes the instance; the spools opened in it must be closed first. */
  close(): void;
}

/**
 * Opens the instance of an ingest run whose work directory is `workDir` (removed by the caller
 * after `close()`). @throws when DuckDB cannot start.
 */
export async function openSpoolHost(workDir: string): Promise<SpoolHost> {
  const db = await createSpoolInstance(workDir);
  let n = 0;
  return {
    db,
    nextName: () => `spool_${++n}`,
    close: () => db.closeSync(),
  };
}
