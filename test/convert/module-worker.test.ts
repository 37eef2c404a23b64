/**
 * scripts/convert/common/module-worker.ts: a `.ts` worker module that imports node builtins only (the
 * parser threads') runs as one esbuild bundle; one that imports a package runs through tsx's loader.
 * Both answer. A bundle's thread takes none of the process's options (`node --import tsx`).
 */
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { bundledScript, startModuleWorker } from '../../scripts/convert/common/module-worker';

/** A caller in the fixtures' folder, as a `.ts` module's import.meta.url. */
const CALLER = new URL('./module-worker/caller.ts', import.meta.url).href;

function answer(worker: Worker): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    worker.once('message', (m: Record<string, unknown>) => void worker.terminate().then(() => resolve(m)));
    worker.once('error', reject);
  });
}

describe('startModuleWorker', () => {
  it('runs a module of node builtins as one bundle, its own imports carried', async () => {
    expect(bundledScript(fileURLToPath(new URL('./module-worker/echo-builtins.ts', import.meta.url)))).toContain('twice');
    expect(await answer(startModuleWorker('echo-builtins', CALLER, { workerData: 21 }))).toEqual({ got: 42, fromFile: false, hash: '2d711642', execArgv: [] });
  });

  it('runs a module that imports a package through tsx', async () => {
    expect(bundledScript(fileURLToPath(new URL('./module-worker/echo-package.ts', import.meta.url)))).toBeNull();
    expect(await answer(startModuleWorker('echo-package', CALLER, { workerData: 4 }))).toEqual({ got: 8, fromFile: true, command: 'function' });
  });

  it("bundles the converter's parser threads, and leaves native DuckDB's thread to tsx", () => {
    expect(bundledScript(fileURLToPath(new URL('../../scripts/convert/ingest/parse-worker.ts', import.meta.url)))).not.toBeNull();
    expect(bundledScript(fileURLToPath(new URL('../../scripts/convert/build/output/native-database-thread.ts', import.meta.url)))).toBeNull();
  });
});
