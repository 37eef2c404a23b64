/**
 * The browser worker's platform: DuckDB-WASM blocking bindings, parquet-wasm's ESM build, and
 * `fetch` from our own origin (HTTP range requests for row groups). The wasm files are bundled by
 * Vite (`?url`), no CDN.
 */
import initParquet, { ParquetFile, readParquet } from 'parquet-wasm/esm';
import parquetWasm from 'parquet-wasm/esm/parquet_wasm_bg.wasm?url';
import { openBrowserDatabase } from './db/open-browser';
import { SourceError } from './db/errors';
import { openRowGroupFile } from './db/row-group-reader';
import { parquetSlice, rowGroupDecoder, type ParquetSlice, type ParquetWasmLike, type BlobLike, type ByteSource, type ParquetToIpc, type Platform, type ReadRowGroups } from './platform';

async function get(url: URL, range?: [number, number]): Promise<Response> {
  let res: Response;
  try {
    const headers: Record<string, string> = range ? { range: `bytes=${range[0]}-${range[1] - 1}` } : {};
    res = await fetch(url, { credentials: 'same-origin', headers });
  } catch (e) {
    throw new SourceError(`cannot fetch ${url.pathname}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!res.ok) throw new SourceError(`GET ${url.pathname}: HTTP ${res.status}`, res.status);
  return res;
}

/** Reads `<dataUrl><file>` with `fetch`; `dataUrl` resolves against the worker's location. */
export function fetchSource(dataUrl: string): ByteSource {
  const base = new URL(dataUrl, self.location.href);
  return {
    async read(file: string): Promise<Uint8Array> {
      return new Uint8Array(await (await get(new URL(file, base))).arrayBuffer());
    },
    blob(file: string, size: number): BlobLike {
      const url = new URL(file, base);
      return {
        size,
        slice: (start, end) => ({
          async arrayBuffer() {
            if (end <= start) return new ArrayBuffer(0);
            const res = await get(url, [start, end]);
            const buf = await res.arrayBuffer();
            // A server that ignores Range answers 200 with the whole file: cut the range out.
            return res.status === 206 ? buf : buf.slice(start, end);
          },
        }),
      };
    },
  };
}

let parquetReady: Promise<void> | undefined;
const parquetInit = (): Promise<void> => (parquetReady ??= initParquet({ module_or_path: parquetWasm }).then(() => undefined));

export const browserPlatform: Platform = {
  origin: 'server',
  openDatabase: openBrowserDatabase,
  async parquetDecoder(): Promise<ParquetToIpc> {
    await parquetInit();
    return rowGroupDecoder({ readParquet, ParquetFile } as unknown as ParquetWasmLike);
  },
  async parquetRowGroups(): Promise<ReadRowGroups> {
    await parquetInit();
    // parquet-wasm reads the footer now, then the row groups' byte ranges (row-group-reader.ts).
    return (file) => openRowGroupFile(file, (blob) => ParquetFile.fromFile(blob as unknown as Blob));
  },
  async parquetSlicer(): Promise<ParquetSlice> {
    await parquetInit();
    return parquetSlice({ readParquet } as unknown as ParquetWasmLike);
  },
  source: fetchSource,
};
