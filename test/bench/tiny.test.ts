/**
 * Every benchmark still runs to completion (docs/benchmarks.md): each `bench/*.bench.ts` is run once
 * at its tiny size through bench/run.ts (`<file> --tiny`, bench/tiny.ts), in its own process, and
 * must exit 0 and print its figures. Nothing here asserts a timing: tiny figures mean nothing.
 * They run concurrently (about 280 CPU seconds in all, docs/benchmarks.md: conversions, the api's
 * endpoints on three small datasets, and Chromium for cold-start.bench.ts and screens.bench.ts).
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BENCHES = readdirSync(path.join(ROOT, 'bench')).filter((f) => f.endsWith('.bench.ts')).sort();

/** Lines each benchmark's report must hold (a number where a figure goes). */
const FIGURES: Record<string, RegExp[]> = {
  'api.bench.ts': [
    /real-file shape, [\d,]+ services, [\d,]+ providers, 51 states: [\d,]+ rate rows/,
    /GET \/api\/service-names\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+\S+\s+\S+\s+[\d,]+/,
    /generated dataset: [\d,]+ rate rows/,
    /market-year shape, 3 monthly snapshots, [\d,]+ services, [\d,]+ providers .*: [\d,]+ rate rows/,
    /cold start \(boot \+ first \/api\/service-pricing\): \d+ ms, [\d,]+ bytes read/,
    /GET \/api\/service-pricing\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+/,
    // the price details of a provider the reference insurer rates: more than `[]`
    /GET \/api\/service-price-details\?\S+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+\S+\s+\S+\s+\d[\d,]+\n/,
    /peak RSS \d+ MB/,
  ],
  'cold-start.bench.ts': [
    /real-file shape: [\d,]+ rate rows, [\d,]+ services, [\d,]+ providers, 51 states/,
    /first visit \(nothing cached\)\s+first figure at\s+\d+ ms,\s+[\d,]+ bytes in \d+ responses, longest task \d+ ms, blocking \d+ ms/,
    /second visit \(same profile\)\s+first figure at\s+\d+ ms,\s+[\d,]+ bytes/,
  ],
  'convert-baseline.bench.ts': [
    /generated \d+ MB of JSON \([\d.]+ MB gzip\): [\d,]+ items .*[\d,]+ rate rows/,
    /current \(work tree\)\s+[\d.]+ \([\d.]+-[\d.]+\)\s+[\d.]+ \([\d.]+-[\d.]+\)\s+\d+ \(\d+-\d+\)\s+[\d,]+\s+[\d.]+/,
    /rate rows: .*current [\d,]+ \(the generator wrote [\d,]+\)/,
    /convert-large's file: generated \d+ MB of JSON \([\d.]+ MB gzip\): [\d,]+ items of real PFS codes/,
  ],
  'screens.bench.ts': [
    /real-file shape: [\d,]+ rate rows, [\d,]+ services, [\d,]+ providers, \d+ snapshots/,
    /\/live-dashboard \(Live Overview\)\s+[\d,]+ [ !]\s+[\d,]+ [ !]\s+[\d,]+ [ !]\s+[\d,]+ \/ [\d,]+ [ !]\s+[\d,]+ [ !]\s+\d+ \(\d+ \+ \d+\)/,
    /\/dataset \(Snapshot\)\s+[\d,]+ [ !]\s+[\d,]+/,
    /\/live-comparison: competitor unchecked\s+[\d,]+ [ !]\s+[\d,]+ [ !]\s+[\d,]+ [ !]\s+1/,
    /\/live-dashboard: state modal \(CA\)\s+[\d,]+/,
    /\/live-search: Live Search answer\s+[\d,]+/,
  ],
  'convert-large.bench.ts': [
    /gunzip alone\s+[\d.]+ MB\/s/,
    /stream-json, elements as objects\s+[\d.]+ MB\/s/,
    /full conversion gz -> dataset\s+[\d.]+ MB\/s\s+both files, [\d,]+ rate rows\/s, peak RSS \d+ MB/,
    /with a 5 % billing-code filter\s+[\d.]+ MB\/s/,
    /a note per price\s+[\d.]+ MB\/s\s+[\d,]+ distinct additional_information/,
  ],
  'long-string.bench.ts': [
    /peak RSS without the long string: \d+ MB/,
    /peak RSS with a \d+ MB description: \d+ MB/,
    /difference: -?\d+ MB/,
  ],
  'stages.bench.ts': [
    /ingest, 1 worker \s+[\d.]+ s\s+[\d.]+ MB\/s\s+[\d.]+ MB\/s per worker/,
    // 4 workers at full size, 2 in tiny mode
    /ingest, [24] workers\s+[\d.]+ s\s+[\d.]+ MB\/s/,
    /build alone, all: [\d,]+ rate rows in [\d.]+ s \([\d,]+ rate rows a minute\), peak RSS \d+ MB/,
  ],
  'server-load.bench.ts': [
    /requests: [\d,]+ \(\d+ req\/s\)/,
    /latency: p50 \d+ ms, p99 \d+ ms/,
    /errors: 0, timeouts: 0, non-2xx: 0/,
  ],
};

/** Runs `node --import tsx bench/run.ts <args>` from the repository root; exit code and output. */
function runBench(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/run.ts'), ...args], {
      cwd: ROOT, env: { ...process.env, FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('benchmarks', () => {
  it('each has its expected figures listed here', () => {
    expect(BENCHES.length).toBeGreaterThan(0);
    expect(Object.keys(FIGURES).sort()).toEqual(BENCHES);
  });
});

describe.concurrent('every benchmark at tiny size', () => {
  for (const bench of BENCHES) {
    it(`${bench} runs to completion and prints its figures`, async () => {
      const { code, out } = await runBench([bench, '--tiny']);
      expect(code, out).toBe(0);
      expect(out).toContain(`== ${bench} (tiny)`);
      for (const figure of FIGURES[bench] ?? []) expect(out, out).toMatch(figure);
    }, 600_000);
  }
});
