/**
 * The Node platform for tests and benchmarks: DuckDB-WASM's Node build, parquet-wasm's Node build
 * and a directory on disk as the dataset. Never imported by the browser entry.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { openNodeDatabase } from './db/open-node';
import { SourceError } from './db/errors';
import type { ByteSource, ParquetToIpc, Platform } from './platform';

const require = createRequire(import.meta.url);

/** Reads files under a directory (a path, or a `file:` URL). */
export function fsSource(dir: string): ByteSource {
  const root = dir.startsWith('file:') ? fileURLToPath(dir) : dir;
  return {
    async read(file: string): Promise<Uint8Array> {
      try {
        return new Uint8Array(await readFile(join(root, file)));
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        throw new SourceError(`cannot read ${file}: ${code ?? String(e)}`, code === 'ENOENT' ? 404 : undefined);
      }
    },
  };
}

export const nodePlatform: Platform = {
  origin: 'local',
  openDatabase: openNodeDatabase,
  async parquetDecoder(): Promise<ParquetToIpc> {
    const pq = require('parquet-wasm/node') as typeof import('parquet-wasm/node');
    return (bytes: Uint8Array) => pq.readParquet(bytes).intoIPCStream();
  },
  source: fsSource,
};
