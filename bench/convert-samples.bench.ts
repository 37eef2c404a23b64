/**
 * Benchmark (run by `npm run bench`): converter throughput on the real insurer samples of test/fixtures/mrf
 * (CareFirst 29.7 MB and UnitedHealthcare 17 MB of JSON, gzip). Reports, best of `--runs`:
 * the reader alone (gunzip + split + parse) and the full conversion gz -> dataset, in MB/s of
 * uncompressed JSON and rate rows/s, plus the process's peak RSS. Issue 3 extends this with the
 * generated 1-2 GB files and the stream-json baseline.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readInNetworkFile } from '../scripts/mrf/read-in-network';
import type { MrfSink } from '../scripts/mrf/types';
import { convertCatalog } from '../scripts/convert/index';

const FILES = ['carefirst-examplefile.json.gz', 'uhc-ny-TEST_FILE.json.gz'].map((f) =>
  path.resolve(import.meta.dirname, '../test/fixtures/mrf', f),
);
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 3;

const nullSink: MrfSink = { header() {}, providerReference() {}, inNetworkItem() {}, problem() {} };

async function best<T>(fn: () => Promise<T>): Promise<{ seconds: number; value: T }> {
  let out: { seconds: number; value: T } | null = null;
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const value = await fn();
    const seconds = (performance.now() - t) / 1000;
    if (!out || seconds < out.seconds) out = { seconds, value };
  }
  return out!;
}

const tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-bench-'));
try {
  let jsonBytes = 0;
  const reader = await best(async () => {
    jsonBytes = 0;
    for (const f of FILES) jsonBytes += (await readInNetworkFile(f, nullSink)).jsonBytes;
    return jsonBytes;
  });
  const catalog = path.join(tmp, 'catalog.json');
  await writeFile(catalog, JSON.stringify({
    reference_insurer: 'a',
    insurers: FILES.map((f, i) => ({ id: `i${i}`.replace('i0', 'a'), name: path.basename(f), files: [{ snapshot: '2025-01', url: f }] })),
  }));
  const full = await best(async () => (await convertCatalog(catalog, path.join(tmp, 'dataset'), { quiet: true })).manifest.counts.rate_rows);
  const mb = jsonBytes / 1e6;
  const rows: Array<[string, string, string]> = [
    ['reader (gunzip + split + parse)', `${(mb / reader.seconds).toFixed(1)} MB/s`, ''],
    ['full conversion gz -> dataset', `${(mb / full.seconds).toFixed(1)} MB/s`, `${Math.round(full.value / full.seconds).toLocaleString('en-US')} rate rows/s`],
  ];
  console.log(`converter on ${FILES.length} real samples, ${mb.toFixed(1)} MB JSON, best of ${RUNS}`);
  for (const r of rows) console.log(`  ${r[0].padEnd(34)} ${r[1].padStart(12)}  ${r[2]}`);
  console.log(`  peak RSS                           ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
} finally {
  await rm(tmp, { recursive: true, force: true });
}
