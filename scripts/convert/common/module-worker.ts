/**
 * Starts a worker thread on a module beside the caller: its compiled `.js` directly; its `.ts`
 * source, when the caller itself runs as TypeScript (`npm run convert`, the tests), bundled by
 * esbuild into one ES module that the worker loads from a `data:` URL, or through tsx's loader when
 * the module needs what such a bundle cannot carry (a package, `import.meta`). Node cannot start a worker on
 * a `.ts` file by itself, and tsx's loader costs each thread about 0.2 s of start (it registers its
 * hooks, in a thread of their own, and resolves every module through them) where the bundle, made
 * once per module and process in about 50 ms, starts a thread in about 0.04 s (docs/benchmarks.md).
 * A bundle's thread takes none of the process's options: it needs none, and under `node --import
 * tsx` (npm run convert) inheriting them would have tsx register its hooks in every parser thread,
 * about 0.12 CPU s and 0.2 s of each thread's start.
 */
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { buildSync } from 'esbuild';

/** Bundles made in this process, by module path: the script, or null when the module runs through tsx. */
const bundles = new Map<string, string | null>();

const BUILTINS: ReadonlySet<string> = new Set(builtinModules);

/**
 * Module `file` (a `.ts` path) and every module it imports as one ES module, or null when it
 * imports a package or reads `import.meta` (a `data:` URL has no folder to resolve either against),
 * or esbuild warns or fails.
 */
export function bundledScript(file: string): string | null {
  const kept = bundles.get(file);
  if (kept !== undefined) return kept;
  let script: string | null = null;
  try {
    const out = buildSync({
      entryPoints: [file], bundle: true, platform: 'node', format: 'esm', packages: 'external',
      target: `node${process.versions.node}`, write: false, metafile: true, logLevel: 'silent',
    });
    const imports = Object.values(out.metafile.outputs).flatMap((o) => o.imports);
    const builtinsOnly = imports.every((i) => !i.external || i.path.startsWith('node:') || BUILTINS.has(i.path));
    const text = out.outputFiles.length === 1 ? out.outputFiles[0]!.text : null;
    if (builtinsOnly && out.warnings.length === 0 && text !== null && !text.includes('import.meta')) script = text;
  } catch {
    script = null;
  }
  bundles.set(file, script);
  return script;
}

/**
 * A worker running module `name` (without extension) of the folder of `caller` (the caller's
 * `import.meta.url`), with `options` (workerData, transferList).
 */
export function startModuleWorker(name: string, caller: string, options: WorkerOptions): Worker {
  const url = new URL(`./${name}${caller.endsWith('.ts') ? '.ts' : '.js'}`, caller);
  if (!url.pathname.endsWith('.ts')) return new Worker(url, options);
  const script = bundledScript(fileURLToPath(url));
  if (script !== null) return new Worker(new URL(`data:text/javascript,${encodeURIComponent(script)}`), { execArgv: [], ...options });
  const code = `import('tsx/esm/api').then((m) => m.tsImport(${JSON.stringify(url.href)}, ${JSON.stringify(caller)}))`;
  return new Worker(code, { ...options, eval: true });
}
