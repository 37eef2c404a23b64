/**
 * Compiles DuckDB's wasm on the page as soon as the app starts, and hands the compiled module to
 * the data worker (contract/worker.ts `useWasm`). Two reasons (docs/architecture.md, Cold start):
 * - the download and compile of the 34 MB wasm start at once, not after the worker's own script
 *   (about 2 MB) has been fetched and run;
 * - `WebAssembly.compileStreaming` on the server's response lets the browser keep the compiled code
 *   in its cache for the next visit. DuckDB-WASM's own loader wraps the response in a new
 *   `Response` to report progress, which has no URL, so its compile is never cached.
 * The compile itself runs off the main thread.
 */
import mvpWasm from '@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm?url';
import ehWasm from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';
import type { CompiledWasm } from '../../contract/worker';

/**
 * A module using WebAssembly's exception handling (try/catch_all): it validates where the browser
 * supports wasm exceptions. The same probe DuckDB-WASM runs (getPlatformFeatures) to choose its
 * EH build over the MVP build, so the page compiles the bundle the worker asks for.
 */
const EXCEPTIONS_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 10, 8, 1, 6, 0, 6, 64, 25, 11, 11]);

/** The absolute URL of the DuckDB wasm bundle this browser runs (EH where wasm exceptions work, else MVP). */
export function duckdbWasmUrl(): string {
  return new URL(WebAssembly.validate(EXCEPTIONS_PROBE) ? ehWasm : mvpWasm, location.href).href;
}

/**
 * Fetches and compiles the wasm with `nativeFetch` (the page's own fetch, not the interceptor).
 * Resolves to null, never rejects, when the browser lacks `compileStreaming` or the fetch or the
 * compile fails: the worker then loads the wasm itself and reports any error.
 */
export async function compileDuckDbWasm(nativeFetch: typeof fetch): Promise<CompiledWasm | null> {
  try {
    if (typeof WebAssembly.compileStreaming !== 'function') return null;
    const url = duckdbWasmUrl();
    const module = await WebAssembly.compileStreaming(nativeFetch(url, { credentials: 'same-origin' }));
    return { url, module };
  } catch {
    return null;
  }
}
