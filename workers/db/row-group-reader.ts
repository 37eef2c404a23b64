/**
 * Row-group reads of a Parquet file through parquet-wasm's `ParquetFile`, without ever letting
 * parquet-wasm see a failed read.
 *
 * parquet-wasm 0.7 panics (`RuntimeError: unreachable`, the promise never settles) when a
 * `Blob.slice().arrayBuffer()` it awaits while reading row groups rejects, e.g. a 401 once the
 * session has expired; a failed footer read it does report. So:
 * - the footer: a failed read answers an empty buffer (parquet-wasm then rejects with "EOF") and
 *   the recorded SourceError is thrown instead;
 * - the row groups: their bytes are read here first (row group i spans `compressedSize` bytes right
 *   after row group i-1, from byte 4, as DuckDB and the other common writers lay them out), so a
 *   refused read throws here, and parquet-wasm reads from memory. A read outside those ranges
 *   (another layout) goes to the file, errors recorded the same way.
 */
import { PARQUET_BATCH_ROWS, type BlobLike, type RowGroupFile } from '../platform';

/** The parts of parquet-wasm's `ParquetFile` used here (ESM and Node builds alike). */
export interface ParquetFileLike {
  metadata(): { numRowGroups(): number; rowGroup(i: number): { compressedSize(): number; free(): void }; free(): void };
  read(options: { rowGroups: number[]; batchSize?: number; columns?: string[] }): Promise<{ intoIPCStream(): Uint8Array }>;
}

/** Opens a ParquetFile over a blob (parquet-wasm's `ParquetFile.fromFile`). */
export type FromFile = (blob: BlobLike) => Promise<ParquetFileLike>;

/** A blob that serves prefetched ranges from memory and never rejects; errors are kept in `failure`. */
class GuardedBlob implements BlobLike {
  readonly size: number;
  failure: unknown = null;
  private cached: Array<{ start: number; bytes: Uint8Array }> = [];

  constructor(private readonly file: BlobLike) {
    this.size = file.size;
  }

  /** Reads [start, end) into memory. @throws what the file's read throws (SourceError) */
  async prefetch(start: number, end: number): Promise<void> {
    this.cached.push({ start, bytes: new Uint8Array(await this.file.slice(start, end).arrayBuffer()) });
  }

  clear(): void {
    this.cached = [];
  }

  slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> } {
    return {
      arrayBuffer: async () => {
        const hit = this.cached.find((c) => c.start <= start && end <= c.start + c.bytes.byteLength);
        if (hit) return hit.bytes.slice(start - hit.start, end - hit.start).buffer;
        try {
          return await this.file.slice(start, end).arrayBuffer();
        } catch (e) {
          this.failure ??= e;
          return new ArrayBuffer(0);
        }
      },
    };
  }
}

/** Opens `file` for row-group reads (reads its footer now). @throws SourceError, Error */
export async function openRowGroupFile(file: BlobLike, fromFile: FromFile): Promise<RowGroupFile> {
  const blob = new GuardedBlob(file);
  let pf: ParquetFileLike;
  try {
    pf = await fromFile(blob);
  } catch (e) {
    throw blob.failure ?? e;
  }
  if (blob.failure) throw blob.failure;
  const starts: number[] = [];
  const meta = pf.metadata();
  let at = 4; // after the leading magic "PAR1"
  for (let i = 0; i < meta.numRowGroups(); i++) {
    const rg = meta.rowGroup(i);
    starts.push(at);
    at += rg.compressedSize();
    rg.free();
  }
  starts.push(at);
  meta.free();
  let queue = Promise.resolve();
  return {
    ...(file.path === undefined ? {} : { path: file.path }),
    read(rowGroups: readonly number[], columns?: readonly string[]): Promise<Uint8Array> {
      // One read at a time: the prefetched bytes and the recorded failure belong to it.
      const run = queue.then(async () => {
        blob.failure = null;
        try {
          for (const [first, last] of runs(rowGroups)) {
            const [start, end] = [starts[first], starts[last + 1]];
            if (start === undefined || end === undefined) throw new Error(`no row group ${last}`);
            await blob.prefetch(start, end);
          }
          const table = await pf.read({ rowGroups: [...rowGroups], batchSize: PARQUET_BATCH_ROWS, ...(columns ? { columns: [...columns] } : {}) });
          if (blob.failure) throw blob.failure;
          return table.intoIPCStream();
        } finally {
          blob.clear();
        }
      });
      queue = run.then(
        () => undefined,
        () => undefined,
      );
      return run;
    },
  };
}

/** Runs of consecutive row groups, `[first, last]`, ascending: one range read each. */
function runs(rowGroups: readonly number[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const rg of [...new Set(rowGroups)].sort((a, b) => a - b)) {
    const last = out[out.length - 1];
    if (last && last[1] === rg - 1) last[1] = rg;
    else out.push([rg, rg]);
  }
  return out;
}
