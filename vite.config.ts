// Vite build of the app (src/) and its data worker (workers/). Everything the app loads is
// bundled here: DuckDB-WASM, parquet-wasm and the map topology; nothing comes from a CDN.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const duckdbBlocking = fileURLToPath(
  new URL('./node_modules/@duckdb/duckdb-wasm/dist/duckdb-browser-blocking.mjs', import.meta.url),
);

export default defineConfig({
  plugins: [react()],
  resolve: {
    // Not in the package's `exports` (architecture.md §2, Gotcha): reach the file directly.
    alias: { '@duckdb/duckdb-wasm/blocking': duckdbBlocking },
  },
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: true, chunkSizeWarningLimit: 4096 },
  server: { port: 5173 },
});
