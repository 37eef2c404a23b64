/**
 * The ingest stage on BullMQ workers (scripts/convert/ingest/queue.ts, docs/deployment.md) against a real
 * `redis-server`: two worker processes and a producer; one worker is killed (SIGKILL) in the middle
 * of a 40 MB file. Its job is stalled and taken by the other worker; every file ends ingested
 * exactly once and the dataset equals the one-machine run's, table for table. A file that cannot
 * be read fails for good (no retry) and is listed in report.json.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertCatalog } from '../../scripts/convert/index';
import { generateLargeMrf } from '../../scripts/mrf/generate-large-mrf';
import { generateSample } from '../../scripts/sample/index';
import type { Catalog } from '../../contract/files/catalog';
import type { ConversionReport } from '../../scripts/convert/common/problems';
import { parquetFiles } from './parquet-files';
import { startRedis, type LocalRedis } from './redis-server';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WORKER = path.join(ROOT, 'scripts/convert/cli/worker.ts');
/**
 * A silent worker's job goes to another after this long (ms): short, so the test waits little, and
 * long enough that a busy test machine never delays a live worker's lock renewal past it.
 */
const LOCK_MS = 4000;

let tmp: string;
let redis: LocalRedis;
let catalogPath: string;

interface WorkerProcess {
  child: ChildProcess;
  lines: string[];
  exited: Promise<void>;
}

function startWorker(): WorkerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, '--redis', redis.url, '--jobs', '1', '--lock-ms', String(LOCK_MS)],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  const lines: string[] = [];
  let rest = '';
  child.stderr!.setEncoding('utf8').on('data', (t: string) => {
    const parts = (rest + t).split('\n');
    rest = parts.pop()!;
    lines.push(...parts);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, lines, exited };
}

async function waitFor(what: string, ok: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  redis = await startRedis();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-queue-'));
  const sample = path.join(tmp, 'sample');
  const { catalogPath: sampleCatalog } = await generateSample(sample);
  const c = JSON.parse(await readFile(sampleCatalog, 'utf8')) as Catalog;
  // two insurers of the sample, two months each, and a large file for the reference insurer
  await generateLargeMrf(path.join(sample, 'big.json.gz'), { targetBytes: 40e6, providerReferences: 2000, itemBytes: 100_000 });
  c.insurers = c.insurers.slice(0, 2).map((i) => ({ ...i, files: i.files.filter((f) => f.snapshot === '2025-10' || f.snapshot === '2025-11') }));
  c.insurers[0]!.files.push({ snapshot: '2025-11', url: 'big.json.gz' });
  c.reference_insurer = c.insurers[0]!.id;
  catalogPath = path.join(sample, 'catalog-queue.json');
  await writeFile(catalogPath, JSON.stringify(c));
}, 120_000);

afterAll(async () => {
  await redis?.stop();
  await rm(tmp, { recursive: true, force: true });
});

describe('ingest on BullMQ workers', () => {
  it('a worker killed mid-file: its job goes to the other, every file is ingested once, the dataset equals the one-machine run', async () => {
    const workers = [startWorker(), startWorker()];
    try {
      await waitFor('the workers', () => workers.every((w) => w.lines.some((l) => l.startsWith('worker: taking jobs'))));
      const out = path.join(tmp, 'queued');
      const store = path.join(tmp, 'queued-store');
      const run = convertCatalog(catalogPath, out, { quiet: true, store, redis: redis.url });
      let failed: unknown = null;
      run.catch((e: unknown) => (failed = e));
      await waitFor('a worker to start the large file', () => failed !== null || workers.some((w) => w.lines.some((l) => /^start big\.json\.gz/.test(l))));
      const victim = workers.find((w) => w.lines.some((l) => /^start big\.json\.gz/.test(l)))!;
      victim.child.kill('SIGKILL');
      await victim.exited;
      const survivor = workers.find((w) => w !== victim)!;
      const manifest = (await run).manifest;

      expect(victim.lines.filter((l) => l.startsWith('ingested big.json.gz'))).toEqual([]);
      // the survivor took the stalled job
      expect(survivor.lines.filter((l) => l.startsWith('ingested big.json.gz'))).toHaveLength(1);
      const ingested = workers.flatMap((w) => w.lines.filter((l) => l.startsWith('ingested ')).map((l) => l.slice('ingested '.length))).sort();
      expect(ingested).toEqual(manifest.sources.map((s) => s.url).sort());
      expect(ingested).toHaveLength(5);

      const single = path.join(tmp, 'single');
      await convertCatalog(catalogPath, single, { quiet: true, store: path.join(tmp, 'single-store') });
      const [a, b] = [await parquetFiles(out), await parquetFiles(single)];
      expect([...a.keys()]).toEqual([...b.keys()]);
      for (const [f, bytes] of a) expect(bytes.equals(b.get(f)!), f).toBe(true);

      // a second run finds every file unchanged: the workers reuse every partition
      const again = (await convertCatalog(catalogPath, out, { quiet: true, store, redis: redis.url })).manifest;
      expect(again.sources.every((s) => s.reused)).toBe(true);
    } finally {
      for (const w of workers) w.child.kill('SIGKILL');
    }
  }, 240_000);

  it('a file of a table of contents that cannot be read fails for good at once and is listed in report.json', async () => {
    const worker = startWorker();
    try {
      await waitFor('the worker', () => worker.lines.some((l) => l.startsWith('worker: taking jobs')));
      const dir = path.join(tmp, 'toc');
      await mkdir(path.join(dir, 'files'), { recursive: true });
      const sample = JSON.parse(await readFile(catalogPath, 'utf8')) as Catalog;
      await copyFile(path.join(path.dirname(catalogPath), sample.insurers[0]!.files[0]!.url!), path.join(dir, 'files', 'good.json.gz'));
      await writeFile(path.join(dir, 'files', 'garbage.json'), 'this is not JSON');
      await writeFile(path.join(dir, 'index.json'), JSON.stringify({
        reporting_entity_name: 'Index', reporting_entity_type: 'issuer',
        reporting_structure: [{
          reporting_plans: [{ plan_name: 'P', plan_id_type: 'EIN', plan_id: '11-1111111', plan_market_type: 'group' }],
          in_network_files: [{ description: 'good', location: 'files/good.json.gz' }, { description: 'bad', location: 'files/garbage.json' }],
        }],
      }));
      const c = { reference_insurer: 'x', insurers: [{ id: 'x', name: 'X', files: [{ snapshot: '2025-10', table_of_contents: 'index.json' }] }] };
      await writeFile(path.join(dir, 'catalog.json'), JSON.stringify(c));
      const out = path.join(dir, 'dataset');
      const m = (await convertCatalog(path.join(dir, 'catalog.json'), out, { quiet: true, redis: redis.url })).manifest;
      expect(m.sources.map((s) => s.url)).toEqual(['files/good.json.gz']);
      const report = JSON.parse(await readFile(path.join(out, 'report.json'), 'utf8')) as ConversionReport;
      expect(report.failed_files).toEqual([{ file: 'files/garbage.json', reason: expect.stringMatching(/garbage\.json/) as string }]);
      // not retried: one attempt
      expect(worker.lines.filter((l) => l.startsWith('start files/garbage.json'))).toHaveLength(1);
    } finally {
      worker.child.kill('SIGKILL');
    }
  }, 120_000);

  it('an unreachable Redis: the producer and the worker stop at once, naming it', async () => {
    await expect(convertCatalog(catalogPath, path.join(tmp, 'nowhere'), { quiet: true, redis: 'redis://127.0.0.1:1' }))
      .rejects.toThrow(/^cannot reach Redis at redis:\/\/127\.0\.0\.1:1: /);
    const lines: string[] = [];
    const { runWorkerCli } = await import('../../scripts/convert/cli/worker');
    expect(await runWorkerCli(['--redis', 'redis://127.0.0.1:1'], new Promise(() => {}), (t) => void lines.push(t))).toBe(1);
    expect(lines.join('')).toMatch(/^worker: cannot reach Redis at redis:\/\/127\.0\.0\.1:1: .+\n$/);
  });
});
