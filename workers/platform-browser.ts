/**
 * The browser worker's platform: DuckDB-WASM blocking bindings, parquet-wasm's ESM build, and
 * `fetch` from our own origin. The wasm files are bundled by Vite (`?url`), no CDN.
 */
import initParquet, { readParquet } from 'parquet-wasm/esm';
import parquetWasm from 'parquet-wasm/esm/parquet_wasm_bg.wasm?url';
import { openBrowserDatabase } from './db/open-browser';
import { SourceError } from './db/errors';
import type { ByteSource, ParquetToIpc, Platform } from './platform';

/** Reads `<dataUrl><file>` with `fetch`; `dataUrl` resolves against the worker's location. */
export function fetchSource(dataUrl: string): ByteSource {
  const base = new URL(dataUrl, self.location.href);
  return {
    async read(file: string): Promise<Uint8Array> {
      const url = new URL(file, base);
      let res: Response;
      try {
        res = await fetch(url, { credentials: 'same-origin' });
      } catch (e) {
        throw new SourceError(`cannot fetch ${url.pathname}: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (!res.ok) throw new SourceError(`GET ${url.pathname}: HTTP ${res.status}`, res.status);
      return new Uint8Array(await res.arrayBuffer());
    },
  };
}

let parquetReady: Promise<ParquetToIpc> | undefined;

export const browserPlatform: Platform = {
  origin: 'server',
  openDatabase: openBrowserDatabase,
  parquetDecoder(): Promise<ParquetToIpc> {
    parquetReady ??= initParquet({ module_or_path: parquetWasm }).then(
      () => (bytes: Uint8Array) => readParquet(bytes).intoIPCStream(),
    );
    return parquetReady;
  },
  source: fetchSource,
};
