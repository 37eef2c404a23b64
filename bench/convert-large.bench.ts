/**
 * Benchmark (run by `npm run bench`): the converter on generated files (never committed,
 * written to a temp dir and deleted). Generates deterministically (scripts/mrf/generate-large-mrf.ts)
 * a 1 GB in-network file with one 200 MB item, 50k provider references of 1-50 NPIs (about 10 on
 * average), rates naming 1-5 references, its items billing real PFS codes priced at 0.6-12x their
 * Medicare amount (bench/pfs-codes.ts), and a second insurer's 0.5 GB file that repeats every other
 * provider group of the first; gzips them, and reports in MB/s of uncompressed JSON
 * (1 MB = 10^6 bytes): Node's gunzip alone, gunzip + byte scan, two stream-json baselines (its
 * documented pipeline giving every array element as an object, bench/stream-json-baseline.ts, which
 * the target's ratio is taken against; and its bare tokenizer, which builds no value), the full
 * conversion gz -> dataset (rows/s, peak RSS), the same with a billing-code filter keeping 5 % of
 * the items (median of three runs), the peak RSS of the conversion of a 2 GB file beside the 1 GB one,
 * and a 0.3 GB file whose every price has its own `additional_information` (generateLargeMrf
 * `freeText`: the value codes' worst case), under the same memory target.
 * `npm run bench -- convert-large --gb 0.2` scales the files down (0.2 GB, 0.4 GB and 0.06 GB).
 * Tiny mode (bench/tiny.ts): 2 MB files with 500 provider references, one filtered run.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createGunzip } from 'node:zlib';
import { parserStream } from 'stream-json';
import { generateLargeMrf } from '../scripts/mrf/generate-large-mrf';
import { RootScanner, type ScanEvent } from '../scripts/mrf/root-scanner';
import { measureConversion, type Measured } from './convert-process';
import { pfsCodes } from './pfs-codes';
import { numberArg, sized } from './tiny';

const GB = numberArg('--gb', sized(1, 0.002));
/** Provider references of each generated file: the generator's default (50k), 500 in tiny mode. */
const PROVIDER_REFERENCES = sized<number | undefined>(undefined, 500);
const ROOT = path.resolve(import.meta.dirname, '..');
/** Runs of the filtered conversion whose median is reported (a short run varies most with the machine's load). */
const FILTERED_RUNS = sized(3, 1);

async function timed(fn: () => Promise<void>): Promise<number> {
  const t = performance.now();
  await fn();
  return (performance.now() - t) / 1000;
}

const gunzipOnly = (f: string): Promise<void> => new Promise((resolve, reject) => {
  createReadStream(f, { highWaterMark: 1 << 20 }).pipe(createGunzip({ chunkSize: 256 * 1024 }))
    .on('data', () => {}).on('end', resolve).on('error', reject);
});

async function gunzipScan(f: string): Promise<void> {
  const scanner = new RootScanner(f, () => true);
  const out: ScanEvent[] = [];
  for await (const c of createReadStream(f, { highWaterMark: 1 << 20 }).pipe(createGunzip({ chunkSize: 256 * 1024 }))) {
    scanner.push(c as Buffer, out);
    out.length = 0;
  }
  scanner.finish();
}

/** stream-json's bare tokenizer (packed values, no streamed pieces, no objects built) over the same gzip file. */
const streamJson = (f: string): Promise<void> => new Promise((resolve, reject) => {
  const p = parserStream({ packValues: true, streamValues: false, streamKeys: false, streamNumbers: false, streamStrings: false });
  p.on('data', () => {}).on('end', resolve).on('error', reject);
  createReadStream(f, { highWaterMark: 1 << 20 }).pipe(createGunzip()).pipe(p);
});

/** stream-json's documented pipeline, in its own process (bench/stream-json-baseline.ts); seconds. */
function streamJsonObjects(f: string): number {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/stream-json-baseline.ts'), f],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`stream-json baseline failed: ${r.stderr}`);
  return (JSON.parse(r.stdout.trim().split('\n').pop()!) as { seconds: number }).seconds;
}

const tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-bench-large-'));
try {
  const real = await pfsCodes();
  const f1 = path.join(tmp, 'large-1.json.gz');
  const g1 = await generateLargeMrf(f1, { targetBytes: GB * 1e9, bigItemBytes: GB * 200e6, codes: real, providerReferences: PROVIDER_REFERENCES });
  // a second insurer, half the size, whose every other provider group is one of the first file's
  const f1b = path.join(tmp, 'large-1b.json.gz');
  const g1b = await generateLargeMrf(f1b, { targetBytes: GB * 0.5e9, seed: 43, sharedWith: 42, codes: real, providerReferences: PROVIDER_REFERENCES });
  const mb = g1.jsonBytes / 1e6;
  const bothMb = (g1.jsonBytes + g1b.jsonBytes) / 1e6;
  const codes = path.join(tmp, 'codes.txt');
  await writeFile(codes, g1.keptCodes.join('\n'));
  const catalog = (file: string, filter: boolean, second?: string): string => JSON.stringify({
    reference_insurer: 'a',
    insurers: [{ id: 'a', name: 'Bench', files: [{ snapshot: '2025-01', url: file }] },
      ...(second ? [{ id: 'b', name: 'Second', files: [{ snapshot: '2025-01', url: second }] }] : [])],
    ...(filter ? { filters: { billing_codes: codes } } : {}),
  });
  await writeFile(path.join(tmp, 'c1.json'), catalog(f1, false, f1b));
  await writeFile(path.join(tmp, 'c1f.json'), catalog(f1, true, f1b));
  const gz = await timed(() => gunzipOnly(f1));
  const scan = await timed(() => gunzipScan(f1));
  const sjTokens = await timed(() => streamJson(f1));
  const sj = streamJsonObjects(f1);
  const load = os.loadavg()[0]!;
  const full = measureConversion(path.join(tmp, 'c1.json'), path.join(tmp, 'out1'));
  await rm(path.join(tmp, 'out1'), { recursive: true, force: true });
  // the filtered run is short (~5 s) and its target close: the median of FILTERED_RUNS, with the range
  const filteredRuns: Measured[] = [];
  for (let i = 0; i < FILTERED_RUNS; i++) {
    filteredRuns.push(measureConversion(path.join(tmp, 'c1f.json'), path.join(tmp, 'out1f')));
    await rm(path.join(tmp, 'out1f'), { recursive: true, force: true });
  }
  const bySeconds = [...filteredRuns].sort((a, b) => a.seconds - b.seconds);
  const filtered = bySeconds[(FILTERED_RUNS - 1) >> 1]!;
  const f2 = path.join(tmp, 'large-2.json.gz');
  const g2 = await generateLargeMrf(f2, { targetBytes: 2 * GB * 1e9, bigItemBytes: GB * 200e6, seed: 7, codes: real, providerReferences: PROVIDER_REFERENCES });
  await rm(f1);
  await rm(f1b);
  await writeFile(path.join(tmp, 'c2.json'), catalog(f2, false));
  const full2 = measureConversion(path.join(tmp, 'c2.json'), path.join(tmp, 'out2'));
  await rm(f2);
  await rm(path.join(tmp, 'out2'), { recursive: true, force: true });
  // the worst case of the price value codes: no two prices share their free text
  const f3 = path.join(tmp, 'notes.json.gz');
  const g3 = await generateLargeMrf(f3, { targetBytes: 0.3 * GB * 1e9, bigItemBytes: GB * 60e6, seed: 3, freeText: true, codes: real, providerReferences: PROVIDER_REFERENCES });
  await writeFile(path.join(tmp, 'c3.json'), catalog(f3, false));
  const notes = measureConversion(path.join(tmp, 'c3.json'), path.join(tmp, 'out3'));
  const rate = (s: number, bytes = g1.jsonBytes): string => `${(bytes / 1e6 / s).toFixed(1)} MB/s`;
  const e2e = bothMb / full.seconds;
  console.log(`generated ${mb.toFixed(0)} MB JSON (${g1.items} items of real PFS codes priced at 0.6-12x Medicare, one of ${(GB * 200).toFixed(0)} MB, ` +
    `${g1.rateRows.toLocaleString('en-US')} rate rows) and a second insurer's ${(g1b.jsonBytes / 1e6).toFixed(0)} MB sharing half its provider groups; ` +
    `${os.availableParallelism()} cores, load average ${load.toFixed(1)} before the conversions, ${os.loadavg()[0]!.toFixed(1)} after`);
  const rows: Array<[string, string, string]> = [
    ['gunzip alone', rate(gz), `${(e2e / (mb / gz)).toFixed(2)}x of it`],
    ['gunzip + byte scan', rate(scan), `${(e2e / (mb / scan)).toFixed(2)}x of it`],
    ['stream-json, elements as objects', rate(sj), `end to end = ${(e2e / (mb / sj)).toFixed(1)}x it (target >= 5x)`],
    ['stream-json, bare tokenizer', rate(sjTokens), `end to end = ${(e2e / (mb / sjTokens)).toFixed(2)}x it`],
    ['full conversion gz -> dataset', rate(full.seconds, g1.jsonBytes + g1b.jsonBytes), `both files, ${Math.round(full.rateRows / full.seconds).toLocaleString('en-US')} rate rows/s, ` +
      `peak RSS ${full.maxRssMb.toFixed(0)} MB, ${full.cpuSeconds.toFixed(0)} CPU s (target >= 80 MB/s, < 600 MB)`],
    ['  with a 5 % billing-code filter', rate(filtered.seconds, g1.jsonBytes + g1b.jsonBytes),
      `median of ${FILTERED_RUNS} runs (${bySeconds.map((m) => m.seconds.toFixed(1)).join(', ')} s), ` +
      `peak RSS ${Math.max(...filteredRuns.map((m) => m.maxRssMb)).toFixed(0)} MB, ${filtered.cpuSeconds.toFixed(0)} CPU s (target >= 200 MB/s)`],
    [`  ${(g2.jsonBytes / 1e6).toFixed(0)} MB file`, rate(full2.seconds, g2.jsonBytes),
      `peak RSS ${full2.maxRssMb.toFixed(0)} MB vs ${full.maxRssMb.toFixed(0)} MB for ${mb.toFixed(0)} MB, ${full2.cpuSeconds.toFixed(0)} CPU s`],
    [`  ${(g3.jsonBytes / 1e6).toFixed(0)} MB, a note per price`, rate(notes.seconds, g3.jsonBytes),
      `${g3.prices.toLocaleString('en-US')} distinct additional_information, peak RSS ${notes.maxRssMb.toFixed(0)} MB (target < 600 MB), ` +
      `${notes.cpuSeconds.toFixed(0)} CPU s`],
  ];
  for (const r of rows) console.log(`  ${r[0].padEnd(34)} ${r[1].padStart(12)}  ${r[2]}`);
} finally {
  await rm(tmp, { recursive: true, force: true });
}
