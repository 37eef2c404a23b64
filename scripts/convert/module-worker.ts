/**
 * Starts a worker thread on a module beside the caller: its compiled `.js` directly, its `.ts`
 * source through tsx's loader when the caller itself runs as TypeScript (`npm run convert`, the
 * tests). Node cannot start a worker on a `.ts` file by itself.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker running module `name` (without extension) of the folder of `caller` (the caller's
 * `import.meta.url`), with `options` (workerData, transferList).
 */
export function startModuleWorker(name: string, caller: string, options: WorkerOptions): Worker {
  const url = new URL(`./${name}${caller.endsWith('.ts') ? '.ts' : '.js'}`, caller);
  if (!url.pathname.endsWith('.ts')) return new Worker(url, options);
  const code = `import('tsx/esm/api').then((m) => m.tsImport(${JSON.stringify(url.href)}, ${JSON.stringify(caller)}))`;
  return new Worker(code, { ...options, eval: true });
}
