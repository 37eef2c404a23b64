/**
 * The import graph of the project's source, read from its text: every `import ... from`, `export
 * ... from`, `import '...'` and `import('...')` of the .ts/.tsx files under the given folders, the
 * relative ones resolved to repository paths as TypeScript's bundler resolution does (`.js` written
 * for `.ts`, a folder's `index.ts`).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** One relative import: repository paths of the importer and the imported file. */
export interface ImportEdge {
  from: string;
  to: string;
  /** `import type` / `export type`: erased at run time. */
  typeOnly: boolean;
}

export interface ImportGraph {
  files: string[];
  edges: ImportEdge[];
  /** Imports of packages and Node modules: the importer and the specifier. */
  packages: Array<{ from: string; name: string }>;
  /** Relative specifiers that name no file. */
  unresolved: string[];
  /** The strongly connected sets (more than one file) of the value imports, each sorted. */
  valueCycles(): string[][];
}

/** Every .ts/.tsx file under `dir` (repository path), sorted. */
export async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(path.join(ROOT, dir), { withFileTypes: true })) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...(await sourceFiles(p)));
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out.sort();
}

const STATIC = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The import graph of the files under `dirs` (repository folders). */
export async function importGraph(dirs: readonly string[]): Promise<ImportGraph> {
  const files = (await Promise.all(dirs.map(sourceFiles))).flat();
  const known = new Set(files);
  const resolve = (from: string, spec: string): string | null => {
    const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
    for (const c of [base, base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), `${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) {
      if (known.has(c)) return c;
    }
    return null;
  };
  const edges: ImportEdge[] = [];
  const packages: Array<{ from: string; name: string }> = [];
  const unresolved: string[] = [];
  for (const from of files) {
    // comments may show imports as examples: only code counts
    const text = (await readFile(path.join(ROOT, from), 'utf8')).replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    const specs: Array<[string, boolean]> = [
      ...[...text.matchAll(STATIC)].map((m): [string, boolean] => [m[3]!, m[2] !== undefined]),
      ...[...text.matchAll(DYNAMIC)].map((m): [string, boolean] => [m[1]!, false]),
    ];
    for (const [spec, typeOnly] of specs) {
      if (!spec.startsWith('.')) {
        packages.push({ from, name: spec });
        continue;
      }
      if (/\.(css|json|wasm|svg|png)(\?.*)?$/.test(spec) || spec.includes('?')) continue;
      const to = resolve(from, spec);
      if (to === null) unresolved.push(`${from} -> ${spec}`);
      else edges.push({ from, to, typeOnly });
    }
  }
  return {
    files, edges, packages, unresolved,
    valueCycles: () => stronglyConnected(files, edges.filter((e) => !e.typeOnly)),
  };
}

/** Tarjan's strongly connected components of more than one file, each sorted, in file order. */
function stronglyConnected(files: readonly string[], edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let counter = 0;
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const set: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        set.push(w);
      } while (w !== v);
      if (set.length > 1) out.push(set.sort());
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return out;
}
