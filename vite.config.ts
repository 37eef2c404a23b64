// Vite build of the app (src/) and its data worker (workers/). Everything the app loads is
// bundled here: DuckDB-WASM, parquet-wasm and the map topology; nothing comes from a CDN.
import { defineConfig, type Plugin } from 'vite';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const duckdbBlocking = fileURLToPath(
  new URL('./node_modules/@duckdb/duckdb-wasm/dist/duckdb-browser-blocking.mjs', import.meta.url),
);

const brotli = promisify(brotliCompress);

/**
 * Writes a Brotli sibling (`x.wasm.br`) of every text or WebAssembly asset over 1 KiB after the
 * build, so the server sends DuckDB's 39 MB wasm as ~7 MB without compressing it per request
 * (scripts/server serves precompressed siblings). Quality 6: ~1 s for the largest file.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'compete-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true })).filter((f) => /\.(wasm|js|mjs|css|html|svg|json)$/.test(f));
      await Promise.all(
        files.map(async (f) => {
          const path = `${outDir}/${f}`;
          const bytes = await readFile(path);
          if (bytes.length < 1024) return;
          const out = await brotli(bytes, {
            params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 6, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
          });
          await writeFile(`${path}.br`, out);
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
  resolve: {
    // Not in the package's `exports` (architecture.md §2, Gotcha): reach the file directly.
    alias: { '@duckdb/duckdb-wasm/blocking': duckdbBlocking },
  },
  worker: { format: 'es' },
  // One stylesheet for the whole app, loaded with the entry: the screens are lazy chunks
  // (src/router.tsx), and a component may rely on a rule another screen's module imports.
  build: { target: 'es2022', sourcemap: true, chunkSizeWarningLimit: 4096, cssCodeSplit: false },
  server: { port: 5173 },
});
