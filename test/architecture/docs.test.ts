/**
 * The docs hold against the code: every repository path that README.md and docs/*.md name exists,
 * every code name they give in backticks (a function, type or constant: `convertCatalog`,
 * `MarketBandParams`, `PRICE_COLUMNS`) is defined in the source, and docs/architecture.md's list of
 * files (Files, one line each) names every source file once and nothing else. CHANGELOG.md is a
 * history and is not held to today's tree.
 */
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { ROOT, sourceFiles } from './import-graph';

const DOCS = ['README.md', ...(await readdir(path.join(ROOT, 'docs'))).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const TEXTS = await Promise.all(DOCS.map(async (file) => ({ file, text: await readFile(path.join(ROOT, file), 'utf8') })));
const SOURCE_DIRS = ['src', 'workers', 'scripts', 'contract', 'bench', 'test'];
/** The configuration files at the root, which define names the docs give too (`ISOLATED_TESTS`). */
const ROOT_SOURCES = ['vite.config.ts', 'vitest.config.ts', 'vitest.e2e.config.ts'];
/** Names the docs give of things outside the code: Node's and the AWS SDK's environment, Kubernetes. */
const OUTSIDE = new Set(['NODE_OPTIONS', 'NODE_ENV', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_REGION', 'AWS_ENDPOINT_URL_S3', 'ReadWriteMany']);

/** Repository paths named in a text: tokens that start at one of the project's top folders. */
function namedPaths(text: string): string[] {
  const re = /(?<![\w./-])((?:src|workers|scripts|contract|bench|test|docs|reference-data|\.ci)\/[\w./<>*-]*[\w/])/g;
  return [...text.matchAll(re)].map((m) => m[1]!)
    // a placeholder (`data/<dataset>/`), a glob (`bench/*.bench.ts`) or a URL path is not a file
    .filter((p) => !/[<>*]/.test(p));
}

/** Code names in backticks: camelCase, PascalCase with an inner capital, or UPPER_SNAKE. */
function codeNames(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/`([^`\n]+)`/g)) {
    const name = m[1]!.replace(/\(\)$/, '');
    if (/^[a-z]+[A-Z]\w*$/.test(name) || /^[A-Z][a-z]+[A-Z]\w*$/.test(name) || /^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(name)) out.push(name);
  }
  return out;
}

describe('docs/ and the README', () => {
  it('name only paths that exist', () => {
    const missing = TEXTS.flatMap(({ file, text }) => namedPaths(text).filter((p) => !existsSync(path.join(ROOT, p))).map((p) => `${file}: ${p}`));
    expect(missing).toEqual([]);
  });

  it('name only code that is defined', async () => {
    const files = [...(await Promise.all(SOURCE_DIRS.map(sourceFiles))).flat(), ...ROOT_SOURCES];
    const source = (await Promise.all(files.map((f) => readFile(path.join(ROOT, f), 'utf8')))).join('\n');
    const defined = new Set([...source.matchAll(/\b(?:function\*?|class|interface|type|const|let|enum|var)\s+([A-Za-z_$][\w$]*)/g)].map((m) => m[1]!));
    // members and keys (`item.run`, `{ name: ... }`, method definitions) count as defined too
    for (const m of source.matchAll(/^\s*(?:(?:async|static|private|readonly|public|get|set)\s+)*([A-Za-z_$][\w$]*)\s*[(:?<]/gm)) defined.add(m[1]!);
    // a name the code reads without defining it (an environment variable, a browser global) must at
    // least appear in the code, comments left out
    const code = new Set(source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '').match(/[A-Za-z_$][\w$]*/g));
    const missing = TEXTS.flatMap(({ file, text }) => codeNames(text).filter((n) => !defined.has(n) && !code.has(n) && !OUTSIDE.has(n))
      .map((n) => `${file}: ${n}`));
    expect([...new Set(missing)]).toEqual([]);
  });
});

describe("docs/architecture.md's files, one line each", () => {
  it('lists every source file once, and only those', async () => {
    const text = (await readFile(path.join(ROOT, 'docs/architecture.md'), 'utf8'));
    const section = text.slice(text.indexOf('## Files, one line each'));
    expect(section.length).toBeGreaterThan(0);
    const listed = [...section.matchAll(/^- `([^`]+)`/gm)].map((m) => m[1]!);
    const files = (await Promise.all(['contract', 'workers', 'src', 'scripts'].map(sourceFiles))).flat();
    expect([...listed].sort()).toEqual(files.sort());
  });
});
