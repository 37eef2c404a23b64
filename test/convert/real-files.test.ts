/**
 * The converter on every CMS example and real insurer sample of test/fixtures/mrf: the rate rows
 * and unresolved rate rows of the manifest equal an independent count made here with a whole-file
 * JSON.parse and plain loops (fine at these sizes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { convertCatalog } from '../../scripts/convert/index';
import type { DatasetManifest } from '../../contract/files/dataset';

const MRF = path.resolve(__dirname, '../fixtures/mrf');

interface Group { npi?: number[]; tin?: { value?: string } }
interface Json {
  provider_references?: Array<{ provider_group_id: number; provider_groups?: Group[] }>;
  in_network: Array<{ negotiated_rates: Array<{ provider_references?: number[]; provider_groups?: Group[]; negotiated_prices: unknown[] }> }>;
}

const usable = (groups: Group[] | undefined): boolean =>
  (groups ?? []).some((g) => (g.npi ?? []).some((n) => n !== 0) || /[1-9]/.test(g.tin?.value ?? ''));

/** Independent count: rows = prices x max(1, groups named); unresolved = rows whose group has no provider. */
function expectedCounts(doc: Json): { rows: number; unresolved: number } {
  // Ids compared as numbers here: no two groups of these files differ only by trailing zeros.
  const resolvable = new Set((doc.provider_references ?? []).filter((r) => usable(r.provider_groups)).map((r) => r.provider_group_id));
  let rows = 0;
  let unresolved = 0;
  for (const item of doc.in_network) {
    for (const rate of item.negotiated_rates) {
      const refs = rate.provider_references ?? [];
      const inline = rate.provider_groups ?? [];
      const named = refs.length + inline.length;
      const prices = rate.negotiated_prices.length;
      rows += prices * Math.max(1, named);
      const bad = refs.filter((id) => !resolvable.has(id)).length + inline.filter((g) => !usable([g])).length;
      unresolved += prices * (named === 0 ? 1 : bad);
    }
  }
  return { rows, unresolved };
}

let files: string[];
let manifest: DatasetManifest;
let tmp: string;

beforeAll(async () => {
  files = (await readdir(MRF)).filter((f) => /\.json(\.gz)?$/.test(f)).sort();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-real-'));
  const catalog = {
    reference_insurer: 'f0',
    insurers: files.map((f, i) => ({ id: `f${i}`, name: f, files: [{ snapshot: '2025-01', url: path.join(MRF, f) }] })),
  };
  await writeFile(path.join(tmp, 'catalog.json'), JSON.stringify(catalog));
  ({ manifest } = await convertCatalog(path.join(tmp, 'catalog.json'), path.join(tmp, 'dataset'), { quiet: true, remoteReferences: false }));
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('converting every CMS example and real sample', () => {
  it('converts all 13 fixtures, reporting only the remote provider references it did not fetch', async () => {
    expect(files).toHaveLength(13);
    expect(manifest.sources).toHaveLength(13);
    // CareFirst declares 370 remote groups, the v1.3.1 fee-for-service example one.
    const report = JSON.parse(await readFile(path.join(tmp, 'dataset', 'report.json'), 'utf8')) as {
      counts: Record<string, Record<string, number>>;
    };
    const byCode: Record<string, number> = {};
    for (const codes of Object.values(report.counts)) for (const [c, n] of Object.entries(codes)) byCode[c] = (byCode[c] ?? 0) + n;
    expect(byCode).toEqual({ unresolved_remote_reference: 371 });
    expect(manifest.counts.problems).toBe(371);
    expect(manifest.counts.unresolved_provider_references).toBe(371);
  });

  it('writes exactly the rate rows and unresolved rows an independent count expects, file by file', async () => {
    for (const [i, f] of files.entries()) {
      const raw = await readFile(path.join(MRF, f));
      const doc = JSON.parse((f.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8')) as Json;
      const want = expectedCounts(doc);
      const src = manifest.sources[i]!;
      expect([f, src.rate_rows, src.unresolved_rate_rows]).toEqual([f, want.rows, want.unresolved]);
    }
  });

  it('counts the CareFirst rates, whose groups are all remote, as unresolved rather than dropping them', () => {
    const i = files.indexOf('carefirst-examplefile.json.gz');
    const src = manifest.sources[i]!;
    // The published file: 122,310 prices, every provider reference a remote `location`.
    expect(src.rate_rows).toBe(122_310);
    expect(src.unresolved_rate_rows).toBe(122_310);
    expect(src.reporting_entity_name).toBe('CareFirst BlueCross BlueShield');
  });

  it('reads the UnitedHealthcare sample in full', () => {
    const src = manifest.sources[files.indexOf('uhc-ny-TEST_FILE.json.gz')]!;
    expect(src.rate_rows).toBe(51_712);
    expect(src.unresolved_rate_rows).toBe(0);
    expect(src.provider_groups).toBe(3);
  });
});
