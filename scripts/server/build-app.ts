/**
 * Builds the app (src/ + workers/) with Vite's `build()` API and the project's vite.config.ts.
 * Used by `npm start` and the end-to-end tests; same output as `npm run build`.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'vite';
import { PROJECT_ROOT } from './project-root';

export { PROJECT_ROOT };

/**
 * A finished build of this tree that buildApp hands out instead of building again: the directory
 * in COMPETE_APP_BUILD, which scripts/test-all.sh sets after building once for the test run (the
 * end-to-end setup and two benchmarks' tiny runs each build otherwise). Null when unset or absent.
 */
export function prebuiltApp(): string | null {
  const dir = process.env.COMPETE_APP_BUILD;
  return dir && existsSync(resolve(dir, 'index.html')) ? resolve(dir) : null;
}

/**
 * Builds into `outDir` (absolute, or relative to the project root), emptying it first, and returns
 * it. With `reusePrebuilt` and a prebuilt app (prebuiltApp), returns that directory instead and
 * leaves `outDir` alone: the caller serves the directory returned and never writes into it.
 * Vite logs errors only by default (DuckDB-WASM's bundle draws a page of harmless `eval`
 * warnings); pass `logLevel: 'warn'` to see them. Throws Vite's error when the build fails.
 */
export async function buildApp(
  outDir: string,
  options: { logLevel?: 'info' | 'warn' | 'error' | 'silent'; reusePrebuilt?: boolean } = {},
): Promise<{ outDir: string }> {
  const prebuilt = options.reusePrebuilt === true ? prebuiltApp() : null;
  if (prebuilt !== null) return { outDir: prebuilt };
  const out = resolve(PROJECT_ROOT, outDir);
  // Vite replaces process.env.NODE_ENV in the bundle by the process's NODE_ENV, when set, rather
  // than by the build's mode: under vitest (NODE_ENV=test) React's development build would ship,
  // with StrictMode running every effect twice. Build for production whatever the caller's
  // NODE_ENV, then restore it, or a server started later in this process would believe it runs in
  // production (auth-config.ts).
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      root: PROJECT_ROOT,
      configFile: resolve(PROJECT_ROOT, 'vite.config.ts'),
      logLevel: options.logLevel ?? 'error',
      build: { outDir: out, emptyOutDir: true },
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  return { outDir: out };
}
