/**
 * 7z archives as the converter reads them (scripts/convert/ingest/open-sources.ts), by the rules of zip
 * archives: a 7z of one JSON entry is one source under the archive's url, one that bundles several
 * a source per JSON entry (`<url>#<entry>`), each with the archive's size and SHA-256, the files
 * that are not JSON noted in report.json (`7z_entries_ignored`), and a 7z that cannot be read
 * fails the run naming the file. The CMS example packed in test/fixtures/archives (a 7z and a gzip
 * of the same JSON, test/fixtures/README.md) must give the same tables row for row; the other
 * archives are packed at test time by the converter's own 7za (test/mrf/seven-zip-helpers.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import type { DatasetManifest } from '../../contract/files/dataset';
import { convertCatalog } from '../../scripts/convert/index';
import type { ConversionReport } from '../../scripts/convert/common/problems';
import { build7z } from '../mrf/seven-zip-helpers';
import { tinyInNetwork } from './tiny-mrf';

const ARCHIVES = path.resolve(__dirname, '../fixtures/archives');
const SEVEN = path.join(ARCHIVES, 'v2.2.0-in-network-rates-all-negotiated-types-sample.json.7z');
const GZIP = path.join(ARCHIVES, 'v2.2.0-in-network-rates-all-negotiated-types-sample.json.gz');

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

const A = Buffer.from(tinyInNetwork('99213', 101));
const B = gzipSync(Buffer.from(tinyInNetwork('99214', 202)));

let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-7z-sources-'));
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

async function convert(name: string, files: object[]): Promise<{ manifest: DatasetManifest; report: ConversionReport; out: string }> {
  const dir = path.join(tmp, name);
  await mkdir(dir);
  await writeFile(path.join(dir, 'catalog.json'), JSON.stringify({ reference_insurer: 'e', insurers: [{ id: 'e', name: 'Evry', files }] }));
  const out = path.join(dir, 'out');
  const { manifest } = await convertCatalog(path.join(dir, 'catalog.json'), out, { quiet: true, jobs: 1, remoteReferences: false });
  return { manifest, report: JSON.parse(await readFile(path.join(out, 'report.json'), 'utf8')) as ConversionReport, out };
}

async function failure(name: string, bytes: Buffer): Promise<string> {
  await writeFile(path.join(tmp, name), bytes);
  const err = await convert(name.replace(/\W/g, '-'), [{ snapshot: '2025-04', url: `../${name}` }]).then(() => null, (e: unknown) => e as Error);
  expect(err).toBeInstanceOf(Error);
  return err!.message;
}

/** Every table of the dataset in `out`: its rows in file order (each part in turn), as JS values. */
async function tableRows(out: string, manifest: DatasetManifest): Promise<Record<string, unknown[][]>> {
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  try {
    const tables: Record<string, unknown[][]> = {};
    for (const [name, t] of Object.entries(manifest.tables)) {
      tables[name] = [];
      for (const f of t.files) {
        const r = await con.runAndReadAll(`SELECT * EXCLUDE (file_row_number) FROM read_parquet('${path.join(out, f)}', file_row_number = true) ORDER BY file_row_number`);
        tables[name].push(...r.getRowsJS());
      }
    }
    return tables;
  } finally {
    con.closeSync();
    db.closeSync();
  }
}

describe('7z archives', () => {
  it('a 7z of the CMS example gives the tables of its gzip twin row for row; its source is the archive, bytes and SHA-256', async () => {
    const seven = await convert('fixture-7z', [{ snapshot: '2025-04', url: SEVEN }]);
    const gzip = await convert('fixture-gz', [{ snapshot: '2025-04', url: GZIP }]);
    const stored = await readFile(SEVEN);
    expect(seven.manifest.sources.map((s) => [s.url, s.bytes, s.sha256])).toEqual([[SEVEN, stored.length, sha256(stored)]]);
    const gz = await readFile(GZIP);
    expect(gzip.manifest.sources.map((s) => [s.url, s.bytes, s.sha256])).toEqual([[GZIP, gz.length, sha256(gz)]]);
    expect(seven.manifest.sources[0]!.rate_rows).toBe(gzip.manifest.sources[0]!.rate_rows);
    expect(seven.manifest.counts).toEqual(gzip.manifest.counts);
    // one JSON entry and nothing else: no note
    expect(seven.report.problems).toEqual(gzip.report.problems);

    const a = await tableRows(seven.out, seven.manifest);
    const b = await tableRows(gzip.out, gzip.manifest);
    expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort());
    expect(a.rates!.length).toBeGreaterThan(0);
    expect(a.services!.length).toBeGreaterThan(0);
    for (const name of Object.keys(b)) expect([name, a[name]]).toEqual([name, b[name]]);
  });

  it('reads every JSON entry of a bundle as a source of its own, a .json.gz entry as gzip, the README noted', async () => {
    const bundle = await build7z(tmp, [
      { name: 'plans/a.json', data: A },
      { name: 'plans/b.json.gz', data: B },
      { name: 'README.txt', data: Buffer.from('two plans') },
    ]);
    await writeFile(path.join(tmp, 'bundle.7z'), bundle);
    const { manifest, report } = await convert('bundle', [{ snapshot: '2025-04', url: '../bundle.7z' }]);
    const archive = [bundle.length, sha256(bundle)];
    expect(manifest.sources.map((s) => [s.url, s.bytes, s.sha256, s.rate_rows])).toEqual([
      ['../bundle.7z#plans/a.json', ...archive, 1],
      ['../bundle.7z#plans/b.json.gz', ...archive, 1],
    ]);
    expect(manifest.counts.services).toBe(2);
    expect(report.problems.map((p) => [p.file, p.code, p.message])).toEqual([
      ['../bundle.7z#plans/a.json', '7z_entries_ignored', '2 JSON entries of the 7z archive read as sources of their own; 1 other entries ignored (README.txt)'],
    ]);
    expect(manifest.sources.map((s) => s.problems)).toEqual([1, 0]);
  });

  it('a 7z of one JSON entry and other files is one source under the archive url, the others noted', async () => {
    const single = await build7z(tmp, [{ name: 'notes.txt', data: Buffer.from('n') }, { name: 'only.json', data: A }]);
    await writeFile(path.join(tmp, 'single.7z'), single);
    const { manifest, report } = await convert('single', [{ snapshot: '2025-04', url: '../single.7z' }]);
    expect(manifest.sources.map((s) => [s.url, s.bytes, s.sha256, s.rate_rows])).toEqual([['../single.7z', single.length, sha256(single), 1]]);
    expect(report.problems.map((p) => [p.code, p.message])).toEqual([['7z_entries_ignored', '7z entry only.json read; 1 other entries ignored (notes.txt)']]);
  });

  it('a truncated 7z fails the run, naming the file', async () => {
    const stored = await readFile(SEVEN);
    const message = await failure('truncated.json.7z', stored.subarray(0, stored.length - 100));
    expect(message).toMatch(/truncated\.json\.7z: corrupt 7z archive \(.*Unexpected end of archive.*\) at byte 0$/);
  });

  it('a 7z without a JSON entry fails the run, naming the file', async () => {
    const message = await failure('no-json.7z', await build7z(tmp, [{ name: 'README.txt', data: Buffer.from('r') }, { name: 'rates.csv', data: Buffer.from('a,b') }]));
    expect(message).toMatch(/no-json\.7z: 7z archive holds no \.json entry \(2 entries\) at byte 0$/);
  });

  it('garbage after the 7z signature fails the run, naming the file, whatever its name', async () => {
    const message = await failure('garbage.json', Buffer.concat([Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]), Buffer.from('not the rest of a 7z archive '.repeat(4))]));
    expect(message).toMatch(/garbage\.json: corrupt 7z archive \(.+\) at byte 0$/);
  });

  it('refuses a 7z inside a 7z, naming the entry', async () => {
    const inner = await build7z(tmp, [{ name: 'x.json', data: A }]);
    await writeFile(path.join(tmp, 'nested.7z'), await build7z(tmp, [{ name: 'a.json', data: A }, { name: 'inner.json', data: inner }]));
    const err = await convert('nested', [{ snapshot: '2025-04', url: '../nested.7z' }]).then(() => null, (e: unknown) => e as Error);
    expect(err?.message).toMatch(/nested\.7z#inner\.json: a 7z archive inside a 7z archive is not supported at byte 0$/);
  });
});
