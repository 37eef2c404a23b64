/**
 * The Node platform for tests and benchmarks: DuckDB-WASM's Node build, parquet-wasm's Node build
 * and a directory on disk as the dataset. Never imported by the browser entry.
 */
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { openNodeDatabase } from './db/open-node';
import { SourceError } from './db/errors';
import { openRowGroupFile } from './db/row-group-reader';
import { parquetSlice, rowGroupDecoder, type ParquetSlice, type ParquetWasmLike, type BlobLike, type ByteSource, type ParquetToIpc, type Platform, type ReadRowGroups } from './platform';

const require = createRequire(import.meta.url);
type ParquetNode = typeof import('parquet-wasm/node');
const parquet = (): ParquetNode => require('parquet-wasm/node') as ParquetNode;

function readError(file: string, e: unknown): SourceError {
  const code = (e as NodeJS.ErrnoException).code;
  return new SourceError(`cannot read ${file}: ${code ?? String(e)}`, code === 'ENOENT' ? 404 : undefined);
}

/** Reads files under a directory (a path, or a `file:` URL); ranges by positioned reads. */
export function fsSource(dir: string): ByteSource {
  const root = dir.startsWith('file:') ? fileURLToPath(dir) : dir;
  return {
    path: (file: string) => join(root, file),
    async read(file: string): Promise<Uint8Array> {
      try {
        return new Uint8Array(await readFile(join(root, file)));
      } catch (e) {
        throw readError(file, e);
      }
    },
    blob(file: string, size: number): BlobLike {
      return {
        size,
        path: join(root, file),
        slice: (start, end) => ({
          async arrayBuffer() {
            try {
              const fh = await open(join(root, file));
              try {
                const buf = new Uint8Array(Math.max(0, end - start));
                const { bytesRead } = await fh.read(buf, 0, buf.length, start);
                return buf.buffer.slice(0, bytesRead);
              } finally {
                await fh.close();
              }
            } catch (e) {
              throw readError(file, e);
            }
          },
        }),
      };
    },
  };
}

export const nodePlatform: Platform = {
  origin: 'local',
  openDatabase: openNodeDatabase,
  async parquetDecoder(): Promise<ParquetToIpc> {
    return rowGroupDecoder(parquet() as unknown as ParquetWasmLike);
  },
  async parquetRowGroups(): Promise<ReadRowGroups> {
    const pq = parquet();
    // parquet-wasm reads the footer now, then the row groups' byte ranges (row-group-reader.ts).
    return (file) => openRowGroupFile(file, (blob) => pq.ParquetFile.fromFile(blob as unknown as Blob));
  },
  async parquetSlicer(): Promise<ParquetSlice> {
    return parquetSlice(parquet() as unknown as ParquetWasmLike);
  },
  source: fsSource,
};
