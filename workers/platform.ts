/**
 * What differs between the browser worker and Node tests, behind one small interface: how DuckDB
 * opens, how Parquet becomes Arrow IPC, and where dataset bytes come from. Everything else (the
 * SQL, the loaders, the handlers) is shared (docs/architecture.md).
 */
import type { Database } from './db/database';

/**
 * A random-access view of one file, shaped like the DOM `Blob` so parquet-wasm's
 * `ParquetFile.fromFile` can read ranges of it (row groups) without the whole file.
 */
export interface BlobLike {
  /** Size of the file, bytes. */
  readonly size: number;
  /** The file's path on this machine, when it is a local file (an engine that reads Parquet itself reads it there). */
  readonly path?: string;
  /** Bytes [start, end). The returned object's `arrayBuffer` rejects with a SourceError. */
  slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

/** Reads files of a dataset directory by their manifest-relative path (`manifest.json`, `price_stats.parquet`). */
export interface ByteSource {
  /** @throws SourceError (with `httpStatus` when a server answered non-2xx). */
  read(file: string): Promise<Uint8Array>;
  /** The file's path on this machine, for a source of local files (an engine that reads Parquet itself reads it there). */
  path?(file: string): string;
  /** Range access to `file` of `size` bytes (from the manifest). Reads happen on `slice().arrayBuffer()`. */
  blob(file: string, size: number): BlobLike;
}

/**
 * Decodes a Parquet file to Arrow IPC streams, one per row group, each decoded when iterated
 * (parquet-wasm). @throws Error on a corrupt file, while iterating.
 */
export type ParquetToIpc = (parquet: Uint8Array) => AsyncIterable<Uint8Array>;

/**
 * Decodes the rows [offset, offset + limit) of a Parquet file (all from `offset` when `limit` is
 * undefined) to one Arrow IPC stream (parquet-wasm `readParquet`): only the row groups holding
 * those rows are decompressed. @throws Error on a corrupt file.
 */
export type ParquetSlice = (parquet: Uint8Array, offset: number, limit?: number) => Uint8Array;

/** Rows per Arrow record batch when parquet-wasm decodes a row group (its default is 1,024). */
export const PARQUET_BATCH_ROWS = 65_536;

/** The parts of parquet-wasm (its Node or ESM build) the table decoder uses. */
export interface ParquetWasmLike {
  readParquet(parquet: Uint8Array, options?: { rowGroups?: number[]; batchSize?: number; offset?: number; limit?: number }): { intoIPCStream(): Uint8Array };
  ParquetFile: {
    fromFile(file: Blob): Promise<{
      metadata(): { numRowGroups(): number; free(): void };
      read(options: { rowGroups: number[]; batchSize: number }): Promise<{ intoIPCStream(): Uint8Array }>;
      free(): void;
    }>;
  };
}

/** The slice decoder of both platforms (ParquetSlice). */
export function parquetSlice(pq: Pick<ParquetWasmLike, 'readParquet'>): ParquetSlice {
  return (parquet, offset, limit) =>
    pq.readParquet(parquet, { offset, batchSize: PARQUET_BATCH_ROWS, ...(limit === undefined ? {} : { limit }) }).intoIPCStream();
}

/**
 * The table decoder of both platforms: one Arrow IPC stream per row group, decoded as iterated, so
 * that the decoded copy of a 2 M-row table never exists whole (decoding price_stats whole grew
 * parquet-wasm's memory to about 0.5 GB and took three times as long). The file is opened once
 * over a Blob of its bytes: its footer is parsed once and each row group's byte range is copied
 * into parquet-wasm alone. A file without row groups gives one stream holding its schema, so that
 * its empty table is still created.
 */
export function rowGroupDecoder(pq: ParquetWasmLike): ParquetToIpc {
  return async function* (parquet) {
    const file = await pq.ParquetFile.fromFile(new Blob([parquet as Uint8Array<ArrayBuffer>]));
    try {
      const meta = file.metadata();
      const count = meta.numRowGroups();
      meta.free();
      if (count === 0) yield pq.readParquet(parquet).intoIPCStream();
      for (let i = 0; i < count; i++) yield (await file.read({ rowGroups: [i], batchSize: PARQUET_BATCH_ROWS })).intoIPCStream();
    } finally {
      file.free();
    }
  };
}

/** A Parquet file opened for range reads: its footer read once, row groups read on demand. */
export interface RowGroupFile {
  /**
   * Reads these row groups (their byte ranges only) as one Arrow IPC stream, every column or
   * `columns` (by name, in that order). @throws SourceError, Error
   */
  read(rowGroups: readonly number[], columns?: readonly string[]): Promise<Uint8Array>;
  /** The file's path on this machine, when it is a local file (BlobLike.path). */
  readonly path?: string;
}

/** Opens a Parquet file for row-group reads (reads its footer). @throws SourceError, Error */
export type ReadRowGroups = (file: BlobLike) => Promise<RowGroupFile>;

export interface Platform {
  /** Boots DuckDB-WASM (blocking bindings) with extension auto-install/auto-load off. */
  openDatabase(): Promise<Database>;
  /** Initialises parquet-wasm once and returns its decoder. */
  parquetDecoder(): Promise<ParquetToIpc>;
  /** Initialises parquet-wasm once and returns its row-group reader. */
  parquetRowGroups(): Promise<ReadRowGroups>;
  /** Initialises parquet-wasm once and returns its slice decoder. */
  parquetSlicer(): Promise<ParquetSlice>;
  /** The byte source of a dataset at `dataUrl` (a URL or directory ending in '/'). */
  source(dataUrl: string): ByteSource;
  /** Where a dataset opened by `init` comes from, as BootState reports it. */
  origin: 'server' | 'local';
}

/** Wraps a source so every byte it delivers is counted in `counter.bytes`. */
export function countingSource(source: ByteSource, counter: { bytes: number }): ByteSource {
  return {
    ...(source.path ? { path: source.path.bind(source) } : {}),
    async read(file) {
      const b = await source.read(file);
      counter.bytes += b.byteLength;
      return b;
    },
    blob(file, size) {
      const inner = source.blob(file, size);
      return {
        size: inner.size,
        ...(inner.path === undefined ? {} : { path: inner.path }),
        slice(start, end) {
          const part = inner.slice(start, end);
          return {
            async arrayBuffer() {
              const buf = await part.arrayBuffer();
              counter.bytes += buf.byteLength;
              return buf;
            },
          };
        },
      };
    },
  };
}
