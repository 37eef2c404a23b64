/**
 * Builds the app (src/ + workers/) with Vite's `build()` API and the project's vite.config.ts.
 * Used by `npm start` and the end-to-end tests; same output as `npm run build`.
 */
import { resolve } from 'node:path';
import { build } from 'vite';
import { PROJECT_ROOT } from './project-root';

export { PROJECT_ROOT };

/**
 * Builds into `outDir` (absolute, or relative to the project root), emptying it first.
 * Vite logs errors only by default (DuckDB-WASM's bundle draws a page of harmless `eval`
 * warnings); pass `logLevel: 'warn'` to see them. Throws Vite's error when the build fails.
 */
export async function buildApp(
  outDir: string,
  options: { logLevel?: 'info' | 'warn' | 'error' | 'silent' } = {},
): Promise<{ outDir: string }> {
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
