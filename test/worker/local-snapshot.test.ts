/**
 * An auditor's local snapshot (contract/api/worker.ts openLocal) on the Node platform, with Blobs in the
 * role of the picked Files: a sound directory is checked (every file's SHA-256, progress reported)
 * and then answers every request with origin 'local'; a missing, resized, damaged or foreign
 * snapshot is refused naming the file and the problem, and the dataset in use keeps answering.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { DatasetInfo, ServicePricingResult } from '../../contract/api';
import type { HashProgress, LocalFile } from '../../contract/api';
import { createDataService, type DataService } from '../../workers/data-service';
import { nodePlatform } from '../../workers/platform-node';
import { memoryAckStore } from '../../workers/acks/ack-store';
import { convertFixture } from './fixture-dataset';

let root = '';
let dir = '';
let picked: LocalFile[] = [];
let service: DataService;

async function walk(d: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(d, { withFileTypes: true })) {
    const p = join(d, e.name);
    if (e.isDirectory()) out.push(...(await walk(p)));
    else out.push(p);
  }
  return out;
}

beforeAll(async () => {
  ({ root, dir } = await convertFixture());
  // As `<input webkitdirectory>` gives them: `dataset/rates/part-0.parquet`, ...
  picked = await Promise.all(
    (await walk(dir)).map(async (p) => ({ path: `dataset/${relative(dir, p)}`, file: new Blob([await readFile(p)]) })),
  );
  service = createDataService(nodePlatform, { acks: memoryAckStore() });
  // The dataset in use: the same conversion, from the "server".
  expect((await service.init({ dataUrl: dir + '/' })).status).toBe('ready');
});
afterAll(async () => {
  await service?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

const info = async (): Promise<DatasetInfo> => (await service.handle({ method: 'GET', path: '/api/dataset', query: {} })).body as DatasetInfo;

function replaced(path: string, bytes: Uint8Array<ArrayBuffer> | string): LocalFile[] {
  return picked.map((f) => (f.path === path ? { path, file: new Blob([bytes]) } : f));
}

describe('refused snapshots keep the dataset in use', () => {
  it.each([
    ['no manifest', () => picked.filter((f) => f.path !== 'dataset/manifest.json'), 'manifest.json', /^missing/],
    ['a missing table file', () => picked.filter((f) => f.path !== 'dataset/services.parquet'), 'services.parquet', /^missing from the opened files$/],
    ['a missing derived table the manifest lists', () => picked.filter((f) => f.path !== 'dataset/alerts.parquet'), 'alerts.parquet', /^missing from the opened files$/],
    ['another format version', () => replaced('dataset/manifest.json', JSON.stringify({ format: 'compete-dataset', format_version: 9 })), 'manifest.json', /^unsupported dataset: format compete-dataset version 9/],
    ['a resized file', () => replaced('dataset/providers.parquet', 'short'), 'providers.parquet', /^size 5 bytes, the manifest says \d+$/],
  ])('%s', async (_what, files, file, problem) => {
    const r = await service.openLocal(files());
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.file).toBe(file);
    expect(r.problem).toMatch(problem);
    expect((await info()).origin).toBe('local'); // nodePlatform's own origin, unchanged name below
    expect((await info()).name).toBe(dir + '/');
  });

  it('a damaged file of the right size: SHA-256 mismatch', async () => {
    const original = await readFile(join(dir, 'price_stats.parquet'));
    const damaged = new Uint8Array(original);
    damaged[100] = damaged[100]! ^ 0xff;
    const r = await service.openLocal(replaced('dataset/price_stats.parquet', damaged));
    expect(r).toMatchObject({ ok: false, file: 'price_stats.parquet' });
    expect(!r.ok && r.problem).toMatch(/^SHA-256 [0-9a-f]{64} does not match the manifest's [0-9a-f]{64}: the file is damaged or from another dataset$/);
    expect((await service.handle({ method: 'GET', path: '/api/service-pricing', query: {} })).status).toBe(200);
  });
});

describe('a sound snapshot', () => {
  it('is hashed in full with progress, then answers every request from the local files', async () => {
    const progress: HashProgress[] = [];
    const r = await service.openLocal(picked, (p) => progress.push(p));
    expect(r.ok).toBe(true);
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as { tables: Record<string, { bytes: number[] }> };
    const total = Object.values(manifest.tables).reduce((a, t) => a + t.bytes.reduce((x, y) => x + y, 0), 0);
    // Eight tables and the derived alerts and unit pivot, one file each: a report before each file and one at the end.
    expect(progress).toHaveLength(11);
    expect(progress.at(-1)).toEqual({ file: '', bytesDone: total, bytesTotal: total, filesDone: 10, filesTotal: 10 });
    expect(progress.map((p) => p.filesDone)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(progress.map((p) => p.file)).toContain('alerts.parquet');
    expect(progress.map((p) => p.file)).toContain('unit_pivot.parquet');
    const d = await info();
    expect(d).toMatchObject({ origin: 'local', name: 'dataset', snapshots: ['2025-01', '2025-02'] });
    const pricing = (await service.handle({ method: 'GET', path: '/api/service-pricing', query: { providers: '1111111112' } })).body as ServicePricingResult;
    // A alone: 99213 professional ref 100 vs alpha 90 (rate rows read from the local Blob).
    expect(pricing.records.find((x) => x.service_code === '99213')).toMatchObject({ reference_price: 100, market_average: 90 });
  });

  it('accepts files picked one by one (no directory), by base name', async () => {
    const flat = picked.map((f) => ({ path: f.path.split('/').pop()!, file: f.file }));
    const r = await service.openLocal(flat);
    expect(r.ok).toBe(true);
    expect((await info()).name).toBe('local files');
  });
});

describe('verifyLocal on a file larger than one hash slice', () => {
  it('hashes it incrementally, reporting progress inside the file, and finds a change in its last slice', async () => {
    const { verifyLocal, HASH_SLICE_BYTES } = await import('../../workers/local/verify-local');
    const { TABLE_NAMES, DATASET_FORMAT_VERSION } = await import('../../contract/files/dataset');
    const { createHash } = await import('node:crypto');
    // One 2.5-slice file (20 MiB) standing for every table: 3 slices -> progress at 0, 8 and 16 MiB.
    const big = new Uint8Array(HASH_SLICE_BYTES * 2 + HASH_SLICE_BYTES / 2).map((_, i) => i % 251);
    const sha = createHash('sha256').update(big).digest('hex');
    const tables = Object.fromEntries(
      TABLE_NAMES.map((t) => [t, { files: [`${t}.parquet`], rows: 1, bytes: [big.length], sha256: [sha] }]),
    );
    const manifest = { format: 'compete-dataset', format_version: DATASET_FORMAT_VERSION, created_at: '2025-01-01T00:00:00Z', converter_version: 'test',
      catalog_sha256: '', reference_insurer: 'ref', snapshots: ['2025-01'], insurers: [], tables, sources: [],
      counts: { rate_rows: 0, unresolved_rate_rows: 0, provider_groups: 0, providers: 0, services: 0, problems: 0, unresolved_provider_references: 0 },
      claims_by_state: false };
    const files = new Map<string, Blob>([['manifest.json', new Blob([JSON.stringify(manifest)])]]);
    for (const t of TABLE_NAMES) files.set(`${t}.parquet`, new Blob([big]));
    const seen: number[] = [];
    await verifyLocal(files, (p) => { if (p.file === 'rates.parquet') seen.push(p.bytesDone % big.length); });
    expect(seen).toEqual([0, HASH_SLICE_BYTES, 2 * HASH_SLICE_BYTES]);
    const damaged = big.slice();
    damaged[damaged.length - 1] = (damaged[damaged.length - 1] ?? 0) ^ 1;
    files.set('services.parquet', new Blob([damaged]));
    await expect(verifyLocal(files)).rejects.toThrow(/^services\.parquet: SHA-256 [0-9a-f]{64} does not match/);
  });
});
