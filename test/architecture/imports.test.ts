/**
 * The import rules of docs/architecture.md (Layers and folders), checked on the source text of every
 * TypeScript file under contract/, workers/, src/ and scripts/: which side reaches which, the order
 * of the converter's stages, the rooms of src/ and workers/, and no circle of value imports.
 */
import { describe, expect, it } from 'vitest';
import { builtinModules } from 'node:module';
import { importGraph, type ImportEdge } from './import-graph';

const graph = await importGraph(['contract', 'workers', 'src', 'scripts']);

/** The edges from files under `from` whose target is under none of `allowed`. */
function outside(from: string, allowed: readonly string[], edges: readonly ImportEdge[] = graph.edges): string[] {
  return edges
    .filter((e) => e.from.startsWith(from) && !allowed.some((a) => e.to.startsWith(a)))
    .map((e) => `${e.from} -> ${e.to}`);
}

describe('the four sides', () => {
  it('contract/ imports only contract/ and no Node module (it runs in the browser and in Node alike)', () => {
    expect(outside('contract/', ['contract/'])).toEqual([]);
    const node = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
    expect(graph.packages.filter((p) => p.from.startsWith('contract/') && (node.has(p.name) || p.name.startsWith('node:')))).toEqual([]);
  });

  it('workers/ imports only workers/ and contract/', () => {
    expect(outside('workers/', ['workers/', 'contract/'])).toEqual([]);
  });

  it('src/ imports only src/ and contract/ (the worker is started by URL, never imported)', () => {
    expect(outside('src/', ['src/', 'contract/'])).toEqual([]);
  });

  it('scripts/ imports scripts/, contract/ and workers/; src/ only from the map geometry generator', () => {
    const bad = outside('scripts/', ['scripts/', 'contract/', 'workers/'])
      .filter((e) => e !== 'scripts/state-shapes.ts -> src/components/map/us-map-compute.ts');
    expect(bad).toEqual([]);
  });
});

describe('the converter by stage', () => {
  /** Each stage's folder, in order: a folder imports only itself and the folders before it. */
  const STAGES = ['common', 'plan', 'spool', 'store', 'ingest', 'build'].map((s) => `scripts/convert/${s}/`);

  it('imports its stages in the order common, plan, spool, store, ingest, build', () => {
    const bad: string[] = [];
    STAGES.forEach((stage, k) => {
      const later = STAGES.slice(k + 1);
      const own = graph.edges.filter((e) => e.from.startsWith(stage) && e.to.startsWith('scripts/convert/'));
      bad.push(...own.filter((e) => later.some((l) => e.to.startsWith(l)) || /^scripts\/convert\/(cli\/|index\.ts)/.test(e.to))
        .map((e) => `${e.from} -> ${e.to}`));
    });
    // run.ts (what both stages share) comes before ingest; only the build reads it back
    bad.push(...graph.edges.filter((e) => e.to === 'scripts/convert/run.ts' && !/^scripts\/convert\/(build\/|cli\/|index\.ts)/.test(e.from))
      .filter((e) => e.from.startsWith('scripts/convert/')).map((e) => `${e.from} -> ${e.to}`));
    bad.push(...outside('scripts/convert/run.ts', ['scripts/convert/common/', 'scripts/convert/plan/', 'scripts/convert/store/', 'contract/']));
    expect(bad).toEqual([]);
  });

  it('the reader (scripts/mrf/) imports nothing of the converter', () => {
    expect(outside('scripts/mrf/', ['scripts/mrf/', 'contract/'])).toEqual([]);
  });
});

describe('the rooms of src/ and workers/', () => {
  it('the shared parts of src/ import neither the live screens nor the sample ones', () => {
    const shared = graph.edges.filter((e) => /^src\/(components|charts|store|api)\//.test(e.from));
    expect(shared.filter((e) => /^src\/(live|sample|routes)\//.test(e.to)).map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  it('src/live/ and src/sample/ do not import each other', () => {
    expect(graph.edges.filter((e) => (e.from.startsWith('src/live/') && e.to.startsWith('src/sample/'))
      || (e.from.startsWith('src/sample/') && e.to.startsWith('src/live/'))).map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  it('the pricing engine and the database layer import no endpoint', () => {
    expect(graph.edges.filter((e) => /^workers\/(pricing|db)\//.test(e.from) && e.to.startsWith('workers/api/'))
      .map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
    expect(graph.edges.filter((e) => e.from.startsWith('workers/db/') && e.to.startsWith('workers/pricing/'))
      .map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });
});

it('has no circle of modules that import values from each other', () => {
  expect(graph.valueCycles()).toEqual([]);
});

it('resolves every relative import to a file (the graph misses nothing)', () => {
  expect(graph.unresolved).toEqual([]);
});
