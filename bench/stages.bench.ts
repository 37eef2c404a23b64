/**
 * Benchmark (run by `npm run bench`): the converter's two stages (docs/converter.md, Two stages;
 * docs/deployment.md) on generated in-network files (scripts/mrf/generate-large-mrf.ts, written to
 * a temp dir and deleted).
 * - Ingest on BullMQ workers (scripts/convert/ingest/queue.ts) against a real `redis-server`: the same
 *   files with 1, 2 and 4 worker processes (one parser thread each), from the enqueue to the last
 *   partition: MB/s of JSON in all and per worker.
 * - Build alone (`--build-only`) from the store's partitions at about 10 M and 50 M rate rows, in
 *   its own process: seconds, rate rows a minute, peak RSS.
 * Options: `--ingest-mb <n>` JSON MB per ingest file (default 100, 4 files), `--rows <m>` millions
 * of rate rows of the larger build (default 50; the smaller is a fifth of it). Tiny mode
 * (bench/tiny.ts): 0.3 MB files on 1 and 2 workers, and the larger build only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generateLargeMrf } from '../scripts/mrf/generate-large-mrf';
import { CONVERTER_VERSION, ingestCatalog } from '../scripts/convert/index';
import { ingestDistributed, type IngestJobData } from '../scripts/convert/ingest/queue';
import { ingestSettings } from '../scripts/convert/store/source-store';
import { DEFAULT_FETCH_POLICY } from '../scripts/convert/plan/fetch-policy';
import type { PlannedFile } from '../scripts/convert/plan/plan-files';
import { startRedis } from '../test/convert/redis-server';
import { measureConversion } from './convert-process';
import { numberArg, sized, TINY } from './tiny';

const ROOT = path.resolve(import.meta.dirname, '..');
const INGEST_MB = numberArg('--ingest-mb', sized(100, 0.3));
const INGEST_FILES = 4;
const ROWS_M = numberArg('--rows', sized(50, 0.05));
/** Rate rows a generated JSON byte gives (the convert-large file: 14.7 M rate rows per GB). */
const ROWS_PER_BYTE = 14.7e6 / 1e9;
/** Worker processes of each ingest run; tiny mode starts 1 and then 2 (each process starts in seconds). */
const WORKERS = sized([1, 2, 4], [1, 2]);

const tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-bench-stages-'));
const redis = await startRedis();
const { fetch: _fetch, ...fetchPolicy } = DEFAULT_FETCH_POLICY;

/** Starts a worker process and resolves once it takes jobs. */
function startWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/convert/cli/worker.ts'), '--redis', redis.url, '--jobs', '1', '--quiet'],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr!.setEncoding('utf8').on('data', (t: string) => {
      err += t;
      if (err.includes('worker: taking jobs')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`worker exited ${code}: ${err}`)));
  });
}

try {
  // ingest on 1, 2, 4 workers
  const files: PlannedFile[] = [];
  let jsonBytes = 0;
  for (let k = 0; k < INGEST_FILES; k++) {
    const f = path.join(tmp, `ingest-${k}.json.gz`);
    const g = await generateLargeMrf(f, { targetBytes: INGEST_MB * 1e6, seed: 100 + k, providerReferences: sized<number | undefined>(undefined, 500) });
    jsonBytes += g.jsonBytes;
    files.push({ insurerId: 'a', snapshot: '2025-01', url: f, location: f });
  }
  console.log(`ingest: ${INGEST_FILES} files, ${(jsonBytes / 1e6).toFixed(0)} MB of JSON, workers of one parser thread each, on ${os.availableParallelism()} cores`);
  const settings = ingestSettings(CONVERTER_VERSION, undefined, true);
  for (const n of WORKERS) {
    const store = path.join(tmp, `store-${n}`);
    const workers = await Promise.all(Array.from({ length: n }, () => startWorker()));
    const job = (file: PlannedFile): IngestJobData => ({ file, store, settings, billingCodes: null, remoteReferences: true, fetchPolicy });
    const t = performance.now();
    const seconds = await ingestDistributed(redis.url, files, job, { quiet: true, log: () => {}, pollMs: 200 }, async () => (performance.now() - t) / 1000);
    for (const w of workers) w.kill('SIGTERM');
    const mbs = jsonBytes / 1e6 / seconds;
    console.log(`ingest, ${n} worker${n > 1 ? 's' : ' '}  ${seconds.toFixed(1)} s  ${mbs.toFixed(1)} MB/s  ${(mbs / n).toFixed(1)} MB/s per worker`);
    await rm(store, { recursive: true, force: true });
  }

  // build alone at ROWS_M / 5 and ROWS_M million rate rows: five files of a fifth each
  const big: string[] = [];
  for (let k = 0; k < 5; k++) {
    const f = path.join(tmp, `build-${k}.json.gz`);
    await generateLargeMrf(f, { targetBytes: (ROWS_M * 1e6) / 5 / ROWS_PER_BYTE, seed: 200 + k, providerReferences: sized<number | undefined>(undefined, 500) });
    big.push(f);
  }
  const catalog = async (name: string, n: number): Promise<string> => {
    const p = path.join(tmp, name);
    await writeFile(p, JSON.stringify({
      reference_insurer: 'i0',
      insurers: big.slice(0, n).map((f, k) => ({ id: `i${k}`, name: `Insurer ${k}`, files: [{ snapshot: '2025-01', url: f }] })),
    }));
    return p;
  };
  const small = await catalog('build-small.json', 1);
  const all = await catalog('build-all.json', 5);
  const store = path.join(tmp, 'build-store');
  await ingestCatalog(all, store, { quiet: true });
  // tiny mode builds all five files only: the fifth is the same path on less
  for (const [label, c] of TINY ? [['all', all] as const] : [['a fifth', small], ['all', all]] as const) {
    const out = path.join(tmp, 'build-out');
    const m = measureConversion(c, out, ['--build-only', '--store', store]);
    console.log(`build alone, ${label}: ${m.rateRows.toLocaleString('en-US')} rate rows in ${m.seconds.toFixed(1)} s ` +
      `(${Math.round(m.rateRows / (m.seconds / 60)).toLocaleString('en-US')} rate rows a minute), peak RSS ${Math.round(m.maxRssMb)} MB, ${m.cpuSeconds.toFixed(0)} CPU s`);
    await rm(out, { recursive: true, force: true });
  }
} finally {
  await redis.stop();
  await rm(tmp, { recursive: true, force: true });
}
