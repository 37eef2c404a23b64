/**
 * Zip archives as the converter reads them (scripts/convert/ingest/open-sources.ts): a zip that bundles
 * several in-network files gives one source per JSON entry (`<url>#<entry>`), a zip of one JSON
 * entry one source under the archive's url, each with the archive's size and SHA-256, the
 * files that are not JSON are noted in report.json, and an entry that cannot be read fails alone
 * when a table of contents listed the archive (recorded, the run goes on) and fails the run naming
 * the entry and the byte offset when the catalog named it. The zips are built by hand
 * (test/mrf/mrf-test-helpers.ts buildZip), served from disk and from a local HTTP server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { convertCatalog } from '../../scripts/convert/index';
import type { ConversionReport } from '../../scripts/convert/common/problems';
import { buildZip } from '../mrf/mrf-test-helpers';
import { startLocalHttp, type LocalHttp } from './local-http';
import { tinyInNetwork } from './tiny-mrf';

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

const A = Buffer.from(tinyInNetwork('99213', 101));
const B = gzipSync(Buffer.from(tinyInNetwork('99214', 202)));
const C = Buffer.from(tinyInNetwork('99215', 303));
/** Three in-network files (one gzip inside the zip), a readme and a directory entry's worth of noise. */
const BUNDLE = buildZip([
  { name: 'README.txt', data: Buffer.from('three plans') },
  { name: 'plans/a.json', data: A, deflate: true },
  { name: 'plans/b.json.gz', data: B },
  { name: 'plans/c.JSON', data: C, deflate: true },
]);
/** The same bundle whose second entry is a gzip cut short. */
const BROKEN = buildZip([
  { name: 'a.json', data: A },
  { name: 'b.json.gz', data: B.subarray(0, B.length - 30) },
  { name: 'c.json', data: C },
]);

let tmp: string;
let http: LocalHttp;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-zip-sources-'));
  await writeFile(path.join(tmp, 'bundle.zip'), BUNDLE);
  await writeFile(path.join(tmp, 'broken.bin'), BROKEN);
  await writeFile(path.join(tmp, 'single.zip'), buildZip([{ name: 'notes.txt', data: Buffer.from('n') }, { name: 'only.json', data: A, deflate: true }]));
  http = await startLocalHttp({
    '/mrf/broken.zip': (_req, res) => void res.end(BROKEN),
    '/mrf/toc.json': (_req, res) => void res.end(JSON.stringify({
      reporting_entity_name: 'Zip Index', reporting_entity_type: 'issuer',
      reporting_structure: [{ reporting_plans: [], in_network_files: [{ description: 'bundle', location: 'broken.zip' }] }],
    })),
  });
});

afterAll(async () => {
  await http.close();
  await rm(tmp, { recursive: true, force: true });
});

async function convert(name: string, files: object[]): Promise<{ manifest: Awaited<ReturnType<typeof convertCatalog>>['manifest']; report: ConversionReport; out: string }> {
  const dir = path.join(tmp, name);
  await mkdir(dir);
  await writeFile(path.join(dir, 'catalog.json'), JSON.stringify({ reference_insurer: 'z', insurers: [{ id: 'z', name: 'Zip', files }] }));
  const out = path.join(dir, 'out');
  const { manifest } = await convertCatalog(path.join(dir, 'catalog.json'), out, { quiet: true, jobs: 1 });
  return { manifest, report: JSON.parse(await readFile(path.join(out, 'report.json'), 'utf8')) as ConversionReport, out };
}

describe('zip archives', () => {
  it('reads every JSON entry of a bundle as a source of its own, described by the archive', async () => {
    const { manifest, report } = await convert('bundle', [{ snapshot: '2025-04', url: '../bundle.zip' }]);
    const zip = [BUNDLE.length, sha256(BUNDLE)];
    expect(manifest.sources.map((s) => [s.url, s.bytes, s.sha256, s.rate_rows])).toEqual([
      ['../bundle.zip#plans/a.json', ...zip, 1],
      ['../bundle.zip#plans/b.json.gz', ...zip, 1],
      ['../bundle.zip#plans/c.JSON', ...zip, 1],
    ]);
    expect(manifest.counts.rate_rows).toBe(3);
    expect(manifest.counts.services).toBe(3);
    const notes = report.problems.filter((p) => p.code === 'zip_entries_ignored');
    expect(notes.map((p) => [p.file, p.message])).toEqual([
      ['../bundle.zip#plans/a.json', '3 JSON entries of the zip archive read as sources of their own; 1 other entries ignored (README.txt)'],
    ]);
    expect(manifest.sources.map((s) => s.problems)).toEqual([1, 0, 0]);
  });

  it('a zip of one JSON entry is one source: the archive url, size and SHA-256', async () => {
    const { manifest, report } = await convert('single', [{ snapshot: '2025-04', url: '../single.zip' }]);
    const zip = await readFile(path.join(tmp, 'single.zip'));
    expect(manifest.sources.map((s) => [s.url, s.bytes, s.sha256, s.rate_rows])).toEqual([['../single.zip', zip.length, sha256(zip), 1]]);
    expect(report.problems.filter((p) => p.code === 'zip_entries_ignored').map((p) => p.message))
      .toEqual(['zip entry only.json read; 1 other entries ignored (notes.txt)']);
  });

  it('an entry that cannot be read, listed by a table of contents: recorded by name, the other entries converted', async () => {
    const { manifest, report } = await convert('toc', [{ snapshot: '2025-04', table_of_contents: `${http.base}/mrf/toc.json` }]);
    // urls as the table of contents wrote them
    expect(manifest.sources.map((s) => [s.url, s.rate_rows])).toEqual([['broken.zip#a.json', 1], ['broken.zip#c.json', 1]]);
    expect(report.failed_files).toEqual([{
      file: 'broken.zip#b.json.gz',
      reason: expect.stringMatching(/^broken\.zip#b\.json\.gz: truncated gzip stream .* at byte \d+$/) as string,
    }]);
    expect(manifest.reporting_structures!.map((s) => [s.in_network_files, s.source_ids])).toEqual([[1, [0, 1]]]);
  });

  it('the same entry named by the catalog fails the run, naming the entry and the byte offset, whatever the file name', async () => {
    const err = await convert('named', [{ snapshot: '2025-04', url: '../broken.bin' }]).then(() => null, (e: unknown) => e as Error);
    expect(err?.message).toMatch(/broken\.bin#b\.json\.gz: truncated gzip stream .* at byte \d+$/);
  });

  it('refuses a zip inside a zip, naming the entry', async () => {
    await writeFile(path.join(tmp, 'nested.zip'), buildZip([{ name: 'a.json', data: A }, { name: 'inner.json', data: buildZip([{ name: 'x.json', data: C }]) }]));
    const err = await convert('nested', [{ snapshot: '2025-04', url: '../nested.zip' }]).then(() => null, (e: unknown) => e as Error);
    expect(err?.message).toMatch(/nested\.zip#inner\.json: a zip archive inside a zip archive is not supported at byte 0$/);
  });
});
