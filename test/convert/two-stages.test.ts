/**
 * The converter's two stages (docs/converter.md, Two stages): source partitions in a store, reused
 * when a file is unchanged, on the embedded sample (scripts/sample: 10 insurers x 4 monthly
 * snapshots, 2025-08 to 2025-11). Three months are converted, then the fourth: only the fourth's
 * files are read, and the tables equal a from-scratch run byte for byte. Also: a changed file or
 * filter is read again, an interrupted run resumes, ingest and build run apart, and a file served
 * over HTTP is checked by ETag, by Last-Modified and size, or by its SHA-256.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { convertCatalog, ingestCatalog } from '../../scripts/convert/index';
import { generateSample } from '../../scripts/sample/index';
import { findPartitions, sourceKey } from '../../scripts/convert/store/source-store';
import type { Catalog } from '../../contract/files/catalog';
import type { DatasetManifest } from '../../contract/files/dataset';
import { parquetFiles } from './parquet-files';
import { sharedShape } from '../datasets-once';
import { startLocalHttp, type LocalHttp } from './local-http';

let tmp: string;
let sampleDir: string;
/** The sample's own catalog.json. */
let samplePath: string;
let catalog: Catalog;

/** Writes a catalog of the sample's insurers keeping the files `keep` selects; returns its path. */
async function sampleCatalog(name: string, keep: (f: { snapshot?: string; url?: string }) => boolean, extra: Partial<Catalog> = {}): Promise<string> {
  const c: Catalog = { ...catalog, ...extra, insurers: catalog.insurers.map((i) => ({ ...i, files: i.files.filter(keep) })) };
  const p = path.join(sampleDir, name);
  await writeFile(p, JSON.stringify(c));
  return p;
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-stages-'));
  sampleDir = path.join(tmp, 'sample');
  samplePath = (await generateSample(sampleDir)).catalogPath;
  catalog = JSON.parse(await readFile(samplePath, 'utf8')) as Catalog;
}, 60_000);

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('a monthly run', () => {
  it('reads only the new month\'s files, and its tables equal a from-scratch run byte for byte', async () => {
    const three = await sampleCatalog('catalog-3.json', (f) => f.snapshot !== '2025-11');
    // the fourth month's catalog is the sample's own, which the run's shared sample dataset converts from scratch
    const four = samplePath;
    const out = path.join(tmp, 'monthly');
    const store = path.join(tmp, 'monthly-store');

    const first = (await convertCatalog(three, out, { quiet: true, store })).manifest;
    expect(first.sources).toHaveLength(30);
    expect(first.sources.every((s) => s.reused === false)).toBe(true);
    const file0 = catalog.insurers[0]!.files[0]!;
    const before = (await findPartitions(store, { insurerId: catalog.insurers[0]!.id, snapshot: file0.snapshot, url: file0.url!, location: '' }))[0]!;

    const lines: string[] = [];
    const second = (await convertCatalog(four, out, { log: (l) => lines.push(l), store })).manifest;
    expect(second.sources).toHaveLength(40);
    const read = second.sources.filter((s) => !s.reused);
    expect(read.map((s) => s.snapshot)).toEqual(Array(10).fill('2025-11'));
    expect(second.sources.filter((s) => s.reused)).toHaveLength(30);
    expect(lines.filter((l) => l.endsWith('unchanged (SHA-256), partition reused'))).toHaveLength(30);
    // a reused partition is the very one the first run wrote
    const after = (await findPartitions(store, { insurerId: catalog.insurers[0]!.id, snapshot: file0.snapshot, url: file0.url!, location: '' }))[0]!;
    expect(after.record.ingested_at).toBe(before.record.ingested_at);
    expect(after.dir).toBe(path.join(store, 'sources', `insurer=${catalog.insurers[0]!.id}`, `snapshot=${file0.snapshot}`, sourceKey(file0.url!)));

    // the sample converted from nothing, once for the test run (test/datasets-once.ts; its created_at fixed)
    const scratch = path.join(tmp, 'scratch');
    const fresh = await sharedShape('sample', scratch);
    const [a, b] = [await parquetFiles(out), await parquetFiles(scratch)];
    expect([...a.keys()]).toEqual([...b.keys()]);
    expect(a.size).toBeGreaterThan(5);
    for (const [f, bytes] of a) expect(bytes.equals(b.get(f)!), f).toBe(true);
    const strip = (m: DatasetManifest): unknown => ({ ...m, created_at: null, sources: m.sources.map((s) => ({ ...s, reused: null })) });
    expect(strip(second)).toEqual(strip(fresh));
  }, 180_000);

  it('reads a file again when its bytes change under the same name, or when the billing-code filter changes', async () => {
    const dir = path.join(sampleDir, 'mrf', 'moving');
    await mkdir(dir, { recursive: true });
    const src = (snap: string): string => path.join(sampleDir, catalog.insurers[1]!.files.find((f) => f.snapshot === snap)!.url!);
    await copyFile(src('2025-08'), path.join(dir, 'latest.json.gz'));
    const c = await sampleCatalog('catalog-moving.json', () => false);
    const moving: Catalog = JSON.parse(await readFile(c, 'utf8')) as Catalog;
    moving.insurers[0]!.files = [{ url: 'mrf/moving/latest.json.gz' }];
    moving.insurers[1]!.files = [{ snapshot: '2025-08', url: catalog.insurers[1]!.files[0]!.url! }];
    moving.insurers = moving.insurers.slice(0, 2);
    moving.reference_insurer = moving.insurers[0]!.id;
    await writeFile(c, JSON.stringify(moving));
    const out = path.join(tmp, 'moving');
    const store = path.join(tmp, 'moving-store');
    const m1 = (await convertCatalog(c, out, { quiet: true, store })).manifest;
    expect(m1.sources.map((s) => [s.snapshot, s.reused])).toEqual([['2025-08', false], ['2025-08', false]]);

    // the publisher replaces the file in place with next month's
    await copyFile(src('2025-09'), path.join(dir, 'latest.json.gz'));
    const m2 = (await convertCatalog(c, out, { quiet: true, store })).manifest;
    expect(m2.sources.map((s) => [s.snapshot, s.reused])).toEqual([['2025-09', false], ['2025-08', true]]);
    // the month without a catalog snapshot comes from last_updated_on: both months' partitions are kept
    const parts = await findPartitions(store, { insurerId: moving.insurers[0]!.id, url: 'mrf/moving/latest.json.gz', location: '' });
    expect(parts.map((p) => p.record.snapshot).sort()).toEqual(['2025-08', '2025-09']);

    // another filter gives other rows: every file is read again
    const codes = ['99213', '99214'];
    const filtered = { ...moving, filters: { billing_codes: codes } };
    await writeFile(c, JSON.stringify(filtered));
    const m3 = (await convertCatalog(c, out, { quiet: true, store })).manifest;
    expect(m3.sources.map((s) => s.reused)).toEqual([false, false]);
    expect(m3.counts.services).toBeLessThanOrEqual(2);
  }, 120_000);
});

describe('an interrupted run', () => {
  it('keeps the partitions of the files it finished; the next run reads only the rest', async () => {
    const files = catalog.insurers[2]!.files.slice(0, 3).map((f) => f.url!);
    const dir = path.join(sampleDir, 'mrf', 'resume');
    await mkdir(dir, { recursive: true });
    for (const [k, f] of files.entries()) await copyFile(path.join(sampleDir, f), path.join(dir, `f${k}.json.gz`));
    // the third is cut short: the run stops on it
    const third = await readFile(path.join(dir, 'f2.json.gz'));
    await writeFile(path.join(dir, 'f2.json.gz'), third.subarray(0, third.length >> 1));
    const c = await sampleCatalog('catalog-resume.json', () => false);
    const resume: Catalog = JSON.parse(await readFile(c, 'utf8')) as Catalog;
    resume.insurers = [{ ...resume.insurers[2]!, files: [0, 1, 2].map((k) => ({ snapshot: `2025-0${k + 1}`, url: `mrf/resume/f${k}.json.gz` })) }];
    resume.reference_insurer = resume.insurers[0]!.id;
    await writeFile(c, JSON.stringify(resume));
    const out = path.join(tmp, 'resume');
    const store = path.join(tmp, 'resume-store');
    await expect(convertCatalog(c, out, { quiet: true, store })).rejects.toThrow(/f2\.json\.gz/);
    await expect(readdir(out)).rejects.toThrow(/ENOENT/);
    const kept = await readdir(path.join(store, 'sources', `insurer=${resume.insurers[0]!.id}`));
    expect(kept.sort()).toEqual(['snapshot=2025-01', 'snapshot=2025-02']);

    await writeFile(path.join(dir, 'f2.json.gz'), third);
    const m = (await convertCatalog(c, out, { quiet: true, store })).manifest;
    expect(m.sources.map((s) => s.reused)).toEqual([true, true, false]);
  }, 120_000);
});

describe('ingest and build apart', () => {
  it('ingest fills the store, build reads no file and gives the same tables as convert', async () => {
    const two = await sampleCatalog('catalog-2.json', (f) => f.snapshot === '2025-10' || f.snapshot === '2025-11');
    const store = path.join(tmp, 'apart-store');
    const r = await ingestCatalog(two, store, { quiet: true });
    expect(r).toMatchObject({ ingested: 20, reused: 0, failed: [] });
    expect(await ingestCatalog(two, store, { quiet: true })).toMatchObject({ ingested: 0, reused: 20 });
    const built = path.join(tmp, 'apart');
    const m = (await convertCatalog(two, built, { quiet: true, store, buildOnly: true })).manifest;
    expect(m.sources.every((s) => s.reused)).toBe(true);
    const whole = path.join(tmp, 'apart-whole');
    await convertCatalog(two, whole, { quiet: true, store: path.join(tmp, 'apart-whole-store') });
    const [a, b] = [await parquetFiles(built), await parquetFiles(whole)];
    for (const [f, bytes] of a) expect(bytes.equals(b.get(f)!), f).toBe(true);

    // a file the catalog names that was never ingested: the build names it
    const three = await sampleCatalog('catalog-2b.json', (f) => f.snapshot !== '2025-08');
    await expect(convertCatalog(three, path.join(tmp, 'apart-missing'), { quiet: true, store, buildOnly: true }))
      .rejects.toThrow(/2025-09-01_\w+_in-network-rates\.json\.gz: not ingested: no partition in/);
  }, 180_000);

  it('refuses a store inside the dataset directory', async () => {
    const one = await sampleCatalog('catalog-1.json', (f) => f.snapshot === '2025-11');
    const out = path.join(tmp, 'inside');
    await expect(convertCatalog(one, out, { quiet: true, store: path.join(out, 'store') })).rejects.toThrow(/the store must be outside the dataset directory/);
  });
});

describe('a file served over HTTP', () => {
  let http: LocalHttp;
  const served = { body: Buffer.alloc(0), etag: '"v1"' as string | null, modified: 'Wed, 01 Oct 2025 00:00:00 GMT' as string | null };
  const methods: string[] = [];

  beforeAll(async () => {
    served.body = await readFile(path.join(sampleDir, catalog.insurers[3]!.files.find((f) => f.snapshot === '2025-10')!.url!));
    http = await startLocalHttp({
      '/mrf/in-network.json.gz': (req, res) => {
        methods.push(req.method ?? '');
        const headers: Record<string, string> = { 'content-length': String(served.body.length), 'content-type': 'application/gzip' };
        if (served.etag) headers.etag = served.etag;
        if (served.modified) headers['last-modified'] = served.modified;
        res.writeHead(200, headers);
        res.end(req.method === 'HEAD' ? undefined : served.body);
      },
    });
  });

  afterAll(async () => {
    await http.close();
  });

  it('is checked by a HEAD request: ETag, else Last-Modified and size, else its SHA-256', async () => {
    const c = await sampleCatalog('catalog-http.json', () => false);
    const remote: Catalog = JSON.parse(await readFile(c, 'utf8')) as Catalog;
    // a signed link, re-signed on every run as publishers do: the same file
    const signed = (n: number): string => `${http.base}/mrf/in-network.json.gz?Expires=${n}&Signature=s${n}`;
    remote.insurers = [{ ...remote.insurers[3]!, files: [{ snapshot: '2025-10', url: signed(1) }] }];
    remote.reference_insurer = remote.insurers[0]!.id;
    await writeFile(c, JSON.stringify(remote));
    const out = path.join(tmp, 'http');
    const store = path.join(tmp, 'http-store');
    // the first run converts the catalog whole; the later ones run the stage that checks the file (ingest)
    const run = async (whole = false): Promise<{ reused: boolean | undefined; methods: string[] }> => {
      methods.length = 0;
      const reused = whole
        ? (await convertCatalog(c, out, { quiet: true, store })).manifest.sources[0]!.reused
        : (await ingestCatalog(c, store, { quiet: true })).reused === 1;
      return { reused, methods: [...methods] };
    };
    expect(await run(true)).toEqual({ reused: false, methods: ['GET'] });
    remote.insurers[0]!.files = [{ snapshot: '2025-10', url: signed(2) }];
    await writeFile(c, JSON.stringify(remote));
    expect(await run()).toEqual({ reused: true, methods: ['HEAD'] });
    // a new ETag: read again
    served.etag = '"v2"';
    expect(await run()).toEqual({ reused: false, methods: ['HEAD', 'GET'] });
    // no ETag: Last-Modified and Content-Length decide
    served.etag = null;
    expect(await run()).toEqual({ reused: true, methods: ['HEAD'] });
    served.modified = 'Sat, 01 Nov 2025 00:00:00 GMT';
    expect(await run()).toEqual({ reused: false, methods: ['HEAD', 'GET'] });
    // no validators at all: the bytes are fetched and hashed, not parsed
    served.modified = null;
    expect(await run()).toEqual({ reused: true, methods: ['HEAD', 'GET'] });
    served.body = await readFile(path.join(sampleDir, catalog.insurers[3]!.files.find((f) => f.snapshot === '2025-11')!.url!));
    const changed = await run();
    expect(changed).toEqual({ reused: false, methods: ['HEAD', 'GET', 'GET'] });
  }, 120_000);
});
