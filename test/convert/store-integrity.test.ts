/**
 * The integrity of the store of partitions (docs/converter.md, Two stages), on two files of the
 * embedded sample: a partition whose Parquet file is truncated, missing or copied in from another
 * partition is found by the checksums of its record; a run that reads files ingests it again with
 * a warning naming the partition and the file (its tables equal a from-scratch run's), a build alone
 * stops with a message naming them and the remedy. A build alone that finds only a partition made
 * with other settings names the setting and both values. A file listed twice for one insurer and
 * snapshot is read once. In a bucket (s3rver), a reuse checks the sizes its listing gives and the
 * build the SHA-256 of what it downloaded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFile, mkdtemp, readFile, rm, truncate, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { convertCatalog, ingestCatalog } from '../../scripts/convert/index';
import { generateSample } from '../../scripts/sample/index';
import { sourceKey } from '../../scripts/convert/store/source-store';
import type { Catalog, CatalogFile } from '../../contract/files/catalog';
import type { DatasetManifest } from '../../contract/files/dataset';
import type { ConversionReport } from '../../scripts/convert/common/problems';
import { parquetFiles } from './parquet-files';
import S3rver from 's3rver';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

let tmp: string;
let sampleDir: string;
let catalog: Catalog;
/** The catalog of two insurers' 2025-11 files. */
let two: string;
/** The dataset of `two` converted from scratch. */
let scratch: string;
let scratchManifest: DatasetManifest;
let runs = 0;

/** A new directory under the test's temporary directory. */
const fresh = (name: string): string => path.join(tmp, `${name}-${++runs}`);

/** The 2025-11 file of insurer `k` of the sample. */
const fileOf = (k: number): CatalogFile & { url: string; snapshot: string } =>
  catalog.insurers[k]!.files.find((f) => f.snapshot === '2025-11') as CatalogFile & { url: string; snapshot: string };

/** The directory of the partition of insurer `k`'s 2025-11 file in `store`. */
const partitionOf = (store: string, k: number): string =>
  path.join(store, 'sources', `insurer=${catalog.insurers[k]!.id}`, 'snapshot=2025-11', sourceKey(fileOf(k).url));

/** Writes a catalog of insurers 0 and 1 with the files `files(k)` gives each; returns its path. */
async function writeCatalog(name: string, files: (k: number) => CatalogFile[], extra: Partial<Catalog> = {}): Promise<string> {
  const c: Catalog = { ...catalog, ...extra, insurers: [0, 1].map((k) => ({ ...catalog.insurers[k]!, files: files(k) })) };
  c.reference_insurer = c.insurers[0]!.id;
  const p = path.join(sampleDir, name);
  await writeFile(p, JSON.stringify(c));
  return p;
}

/** Expects dataset `out` to hold the very Parquet files of the from-scratch run. */
async function expectScratchTables(out: string): Promise<void> {
  const [a, b] = [await parquetFiles(out), await parquetFiles(scratch)];
  expect([...a.keys()]).toEqual([...b.keys()]);
  for (const [f, bytes] of a) expect(bytes.equals(b.get(f)!), f).toBe(true);
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-integrity-'));
  sampleDir = path.join(tmp, 'sample');
  const { catalogPath } = await generateSample(sampleDir);
  catalog = JSON.parse(await readFile(catalogPath, 'utf8')) as Catalog;
  two = await writeCatalog('catalog-two.json', (k) => [fileOf(k)]);
  scratch = fresh('scratch');
  scratchManifest = (await convertCatalog(two, scratch, { quiet: true, store: fresh('scratch-store') })).manifest;
}, 300_000);

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('a damaged partition, in a run that reads files', () => {
  /**
   * Ingests `two`, damages insurer 0's partition with `damage`, converts: the file is read
   * again with a warning naming the partition and `file` (matching `reason`), the tables are the
   * from-scratch run's, and (`thenReuse`) the run after that reuses both partitions.
   */
  async function readAgain(damage: (dir: string) => Promise<void>, file: string, reason: RegExp, thenReuse = false): Promise<void> {
    const store = fresh('store');
    const out = fresh('out');
    await ingestCatalog(two, store, { quiet: true });
    const dir = partitionOf(store, 0);
    await damage(dir);
    const lines: string[] = [];
    const m = (await convertCatalog(two, out, { log: (l) => lines.push(l), store })).manifest;
    expect(m.sources.map((s) => s.reused)).toEqual([false, true]);
    const warning = lines.find((l) => l.startsWith('warning: ') && l.includes(dir));
    expect(warning, lines.join('\n')).toBeDefined();
    expect(warning).toContain(`partition ${dir}: ${file} `);
    expect(warning).toMatch(reason);
    expect(warning).toContain(`${fileOf(0).url} is read again`);
    const report = JSON.parse(await readFile(path.join(out, 'report.json'), 'utf8')) as ConversionReport;
    expect(report.warnings).toContain(warning!.slice('warning: '.length));
    await expectScratchTables(out);
    if (!thenReuse) return;
    const again = (await convertCatalog(two, out, { quiet: true, store })).manifest;
    expect(again.sources.map((s) => s.reused)).toEqual([true, true]);
  }

  it('a truncated Parquet file: the file is read again, the tables equal a from-scratch run', async () => {
    await readAgain(async (dir) => {
      const f = path.join(dir, 'raw_items.parquet');
      await truncate(f, (await readFile(f)).length >> 1);
    }, 'raw_items.parquet', /has \d+ bytes, its record says \d+/, true);
  }, 300_000);

  it('a missing Parquet file: the same', async () => {
    await readAgain((dir) => unlink(path.join(dir, 'raw_groups.parquet')), 'raw_groups.parquet', /is missing/);
  }, 300_000);

  it('a Parquet file copied in from another partition: the same', async () => {
    await readAgain(async (dir) => {
      const other = dir.replace(`insurer=${catalog.insurers[0]!.id}`, `insurer=${catalog.insurers[1]!.id}`).replace(sourceKey(fileOf(0).url), sourceKey(fileOf(1).url));
      await copyFile(path.join(other, 'raw_values.parquet'), path.join(dir, 'raw_values.parquet'));
    }, 'raw_values.parquet', /has \d+ bytes, its record says|does not match the SHA-256 of its record/);
  }, 300_000);

  it('a record of the format without checksums (version 1): the file is read again', async () => {
    const store = fresh('store');
    const out = fresh('out');
    await ingestCatalog(two, store, { quiet: true });
    const recordFile = path.join(partitionOf(store, 0), 'source.json');
    const { files: _files, ...old } = JSON.parse(await readFile(recordFile, 'utf8')) as Record<string, unknown>;
    await writeFile(recordFile, JSON.stringify({ ...old, version: 1 }));
    const m = (await convertCatalog(two, out, { quiet: true, store })).manifest;
    expect(m.sources.map((s) => s.reused)).toEqual([false, true]);
    await expectScratchTables(out);
  }, 300_000);
});

describe('a damaged partition, in a build alone', () => {
  it('stops the run with a message naming the partition, the file and the remedy', async () => {
    const store = fresh('store');
    await ingestCatalog(two, store, { quiet: true });
    const dir = partitionOf(store, 1);
    // one byte changed in the middle: the size is right, the SHA-256 is not
    const f = path.join(dir, 'raw_items.parquet');
    const bytes = await readFile(f);
    const at = bytes.length >> 1;
    bytes[at] = bytes[at]! ^ 0xff;
    await writeFile(f, bytes);
    const build = (): Promise<unknown> => convertCatalog(two, fresh('built'), { quiet: true, store, buildOnly: true });
    const message = `partition ${dir}: raw_items.parquet does not match the SHA-256 of its record; run ingest again to read ${fileOf(1).url} anew (or delete the partition)`;
    await expect(build()).rejects.toThrow(message);

    // truncated: named by its size
    await truncate(f, 100);
    await expect(build()).rejects.toThrow(`partition ${dir}: raw_items.parquet has 100 bytes, its record says ${bytes.length}; run ingest again`);

    // ingest reads the file again, and the build succeeds
    const r = await ingestCatalog(two, store, { quiet: true });
    expect(r).toMatchObject({ ingested: 1, reused: 1 });
    const built = fresh('built');
    await convertCatalog(two, built, { quiet: true, store, buildOnly: true });
    await expectScratchTables(built);
  }, 300_000);
});

describe('a build alone without a partition made with the run\'s settings', () => {
  it('names the setting that differs, with both values', async () => {
    const store = fresh('store');
    await ingestCatalog(two, store, { quiet: true, remoteReferences: false });
    const build = (c: string, remoteReferences = true): Promise<unknown> =>
      convertCatalog(c, fresh('built'), { quiet: true, store, buildOnly: true, remoteReferences });
    const dir = partitionOf(store, 0);
    await expect(build(two)).rejects.toThrow(`${fileOf(0).url}: not ingested: its partition ${dir} was made with remote references not fetched (this run: fetched) (run ingest first)`);

    const filtered = await writeCatalog('catalog-two-filtered.json', (k) => [fileOf(k)], { filters: { billing_codes: ['99213'] } });
    await expect(build(filtered, false)).rejects.toThrow(/not ingested: its partition .* was made with billing-code filter none \(this run: SHA-256 [0-9a-f]{12}\)/);

    const recordFile = path.join(dir, 'source.json');
    const record = JSON.parse(await readFile(recordFile, 'utf8')) as { settings: { converter_version: string } };
    const version = record.settings.converter_version;
    record.settings.converter_version = '0.0.1';
    await writeFile(recordFile, JSON.stringify(record));
    await expect(build(two, false)).rejects.toThrow(`not ingested: its partition ${dir} was made with converter version 0.0.1 (this run: ${version})`);
  }, 300_000);
});

describe('a file listed twice for one insurer and snapshot', () => {
  it('is read once, in the catalog\'s files or through two tables of contents, with a warning', async () => {
    // insurer 1's file through two tables of contents
    const toc = (name: string): object => ({
      reporting_entity_name: `${name} index`, reporting_entity_type: 'issuer',
      reporting_structure: [{
        reporting_plans: [{ plan_name: name, plan_id_type: 'EIN', plan_id: '11-1111111', plan_market_type: 'group' }],
        in_network_files: [{ description: name, location: fileOf(1).url }],
      }],
    });
    await writeFile(path.join(sampleDir, 'toc-a.json'), JSON.stringify(toc('A')));
    await writeFile(path.join(sampleDir, 'toc-b.json'), JSON.stringify(toc('B')));
    const twice = await writeCatalog('catalog-twice.json', (k) => (k === 0
      ? [fileOf(0), { ...fileOf(0) }]
      : [{ snapshot: '2025-11', table_of_contents: 'toc-a.json' }, { snapshot: '2025-11', table_of_contents: 'toc-b.json' }]));
    const out = fresh('twice');
    const m = (await convertCatalog(twice, out, { quiet: true, store: fresh('store') })).manifest;
    expect(m.sources.map((s) => s.url)).toEqual([fileOf(0).url, fileOf(1).url]);
    expect(m.counts.rate_rows).toBe(scratchManifest.counts.rate_rows);
    expect(m.reporting_structures?.map((s) => [s.table_of_contents, s.source_ids])).toEqual([['toc-a.json', [1]], ['toc-b.json', [1]]]);
    const report = JSON.parse(await readFile(path.join(out, 'report.json'), 'utf8')) as ConversionReport;
    const id = (k: number): string => catalog.insurers[k]!.id;
    expect(report.warnings).toContain(`${fileOf(0).url}: listed twice for insurer ${id(0)}, snapshot 2025-11 (by the catalog's files and by the catalog's files); read once`);
    expect(report.warnings).toContain(`${fileOf(1).url}: listed twice for insurer ${id(1)}, snapshot 2025-11 (by table of contents toc-a.json and by table of contents toc-b.json); read once`);
    const scratchRates = [...(await parquetFiles(scratch)).entries()].filter(([f]) => f.startsWith('rates'));
    const rates = await parquetFiles(out);
    for (const [f, bytes] of scratchRates) expect(rates.get(f)?.equals(bytes), f).toBe(true);
  }, 300_000);
});

describe('a damaged partition in a bucket', () => {
  let server: S3rver;
  let s3: S3Client;
  const saved = { ...process.env };

  beforeAll(async () => {
    server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: path.join(tmp, 's3'), configureBuckets: [{ name: 'mrf', configs: [] }] });
    const { port } = await server.run();
    const endpoint = `http://127.0.0.1:${port}`;
    Object.assign(process.env, { AWS_ENDPOINT_URL: endpoint, AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' });
    s3 = new S3Client({ endpoint, forcePathStyle: true, region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  });

  afterAll(async () => {
    process.env = saved;
    s3?.destroy();
    await server?.close();
  });

  it('a truncated object is ingested again; one changed in place stops the build after its download', async () => {
    const store = 's3://mrf/integrity';
    const out = fresh('s3-out');
    await convertCatalog(two, out, { quiet: true, store });
    const dir = `${store}/sources/insurer=${catalog.insurers[0]!.id}/snapshot=2025-11/${sourceKey(fileOf(0).url)}`;
    const Key = `${dir.slice('s3://mrf/'.length)}/raw_items.parquet`;
    const original = Buffer.from(await (await s3.send(new GetObjectCommand({ Bucket: 'mrf', Key }))).Body!.transformToByteArray());
    await s3.send(new PutObjectCommand({ Bucket: 'mrf', Key, Body: original.subarray(0, original.length >> 1) }));
    const lines: string[] = [];
    const m = (await convertCatalog(two, out, { log: (l) => lines.push(l), store })).manifest;
    expect(m.sources.map((s) => s.reused)).toEqual([false, true]);
    expect(lines).toContain(`warning: partition ${dir}: raw_items.parquet has ${original.length >> 1} bytes, its record says ${original.length}: ${fileOf(0).url} is read again`);
    await expectScratchTables(out);

    // the same size, other bytes: the listing cannot tell, the download can
    const now = Buffer.from(await (await s3.send(new GetObjectCommand({ Bucket: 'mrf', Key }))).Body!.transformToByteArray());
    const at = now.length >> 1;
    now[at] = now[at]! ^ 0xff;
    await s3.send(new PutObjectCommand({ Bucket: 'mrf', Key, Body: now }));
    await expect(convertCatalog(two, fresh('s3-built'), { quiet: true, store, buildOnly: true }))
      .rejects.toThrow(`partition ${dir}: raw_items.parquet does not match the SHA-256 of its record; run ingest again`);
  }, 300_000);
});
