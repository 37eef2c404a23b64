/**
 * What differs between the browser worker and Node tests, behind one small interface: how DuckDB
 * opens, how Parquet becomes Arrow IPC, and where dataset bytes come from. Everything else (the
 * SQL, the loaders, the handlers) is shared (architecture.md §4).
 */
import type { Database } from './db/database';

/** Reads files of a dataset directory by their manifest-relative path (`manifest.json`, `price_stats.parquet`). */
export interface ByteSource {
  /** @throws SourceError (with `httpStatus` when a server answered non-2xx). */
  read(file: string): Promise<Uint8Array>;
}

/** Decodes a whole Parquet file to an Arrow IPC stream (parquet-wasm). @throws Error on a corrupt file. */
export type ParquetToIpc = (parquet: Uint8Array) => Uint8Array;

export interface Platform {
  /** Boots DuckDB-WASM (blocking bindings) with extension auto-install/auto-load off. */
  openDatabase(): Promise<Database>;
  /** Initialises parquet-wasm once and returns its decoder. */
  parquetDecoder(): Promise<ParquetToIpc>;
  /** The byte source of a dataset at `dataUrl` (a URL or directory ending in '/'). */
  source(dataUrl: string): ByteSource;
  /** Where the dataset comes from, as BootState reports it. */
  origin: 'server' | 'local';
}
