/**
 * The converter end to end on hand-made MRFs (test/fixtures/convert): every figure below is
 * computed by hand from those files in the comments.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { convertCatalog } from '../../scripts/convert/index';
import { sha256File } from '../../scripts/convert/write-parquet';
import { rateRowsSql, type DatasetManifest } from '../../contract/dataset';

const FIXTURES = path.resolve(__dirname, '../fixtures/convert');
let tmp: string;
let out: string;
let manifest: DatasetManifest;
let db: DuckDBInstance;
let con: DuckDBConnection;

async function rows(sql: string): Promise<Record<string, unknown>[]> {
  return (await con.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-convert-'));
  out = path.join(tmp, 'dataset');
  ({ manifest } = await convertCatalog(path.join(FIXTURES, 'catalog.json'), out, { quiet: true, remoteReferences: false }));
  db = await DuckDBInstance.create(':memory:');
  con = await db.connect();
  for (const [name, t] of Object.entries(manifest.tables)) {
    await con.run(`CREATE VIEW ${name === 'rates' ? 'rate_parts' : name} AS SELECT * FROM read_parquet('${path.join(out, t.files[0]!)}')`);
  }
  // the rate rows, as the worker unnests a part's prices (contract/dataset.ts)
  await con.run(`CREATE VIEW rates AS ${rateRowsSql('rate_parts')}`);
});

afterAll(async () => {
  con?.closeSync();
  db?.closeSync();
  await rm(tmp, { recursive: true, force: true });
});

describe('convertCatalog on hand-made MRFs', () => {
  it('writes the manifest of contracts.md §3', () => {
    expect(manifest.format).toBe('compete-dataset');
    expect(manifest.format_version).toBe(1);
    expect(manifest.reference_insurer).toBe('ref');
    // ref has no catalog snapshot: month of last_updated_on 2025-02-03; comp's catalog says 2025-02.
    expect(manifest.snapshots).toEqual(['2025-02']);
    expect(manifest.sources.map((s) => [s.insurer_id, s.snapshot, s.version])).toEqual([
      ['ref', '2025-02', '1.3.1'],
      ['comp', '2025-02', '1.0.0'],
    ]);
    // ref: 99213 has 3 prices x 1 group + 1 price x 1 group; RC 0450 1 price = 5 rows; comp: 3 + 1 = 4.
    expect(manifest.sources.map((s) => s.rate_rows)).toEqual([5, 4]);
    expect(manifest.counts.rate_rows).toBe(9);
    // The 999 rate names group 20, a remote `location` not fetched: unresolved, counted.
    expect(manifest.sources[0]!.unresolved_rate_rows).toBe(1);
    expect(manifest.counts.unresolved_rate_rows).toBe(1);
    expect(manifest.counts.unresolved_provider_references).toBe(1);
    expect(manifest.sources[0]!.reporting_entity_name).toBe('Reference Health Plan');
  });

  it('records the SHA-256 and size of every file, and a row-group index covering every rate', async () => {
    for (const t of Object.values(manifest.tables)) {
      expect(t.sha256[0]).toBe(await sha256File(path.join(out, t.files[0]!)));
    }
    const groups = manifest.tables.rates.row_groups!;
    expect(groups.reduce((a, g) => a + g.rows, 0)).toBe(9);
    expect(groups[0]!.min_billing_code).toBe('0450');
    expect(groups.at(-1)!.max_billing_code).toBe('99213');
  });

  it('keeps provider_group_id as written and gives TIN-only groups a TIN provider', async () => {
    const g = await rows(`SELECT DISTINCT provider_group_id, provider_id FROM provider_groups ORDER BY 2`);
    expect(g).toContainEqual({ provider_group_id: '10.50', provider_id: '1111111112' });
    expect(g).toContainEqual({ provider_group_id: '10.50', provider_id: '2222222220' });
    expect(g.map((r) => r.provider_id)).toContain('TIN:550000001');
    // the rate naming the unfetched remote group 20 keeps its id, which no provider group resolves: no provider
    const unresolved = await rows(`SELECT negotiated_rate, provider_group_key FROM rates ANTI JOIN provider_groups USING (provider_group_key)`);
    expect(unresolved).toEqual([{ negotiated_rate: 999, provider_group_key: '0:20' }]);
    expect(await rows(`SELECT provider_group_ids FROM rate_parts WHERE negotiated_rate = 999`)).toEqual([{ provider_group_ids: ['20'] }]);
  });

  it('pre-computes the medians of metrics.md in price_stats', async () => {
    const s = await rows(`SELECT insurer_id, class_selection, state, median_rate, rate_count, provider_count
                          FROM price_stats WHERE billing_code = '99213' ORDER BY 1, 2, 3`);
    expect(s).toEqual([
      // comp all: NPI 3333333334 {80, 90, 130} + TIN:550000001 {70} -> 70 80 90 130 -> (80 + 90) / 2 = 85
      { insurer_id: 'comp', class_selection: 'all', state: 'ALL', median_rate: 85, rate_count: 4, provider_count: 2 },
      // CA holds 3333333334 only (the TIN has no state): 80 90 130 -> 90
      { insurer_id: 'comp', class_selection: 'all', state: 'CA', median_rate: 90, rate_count: 3, provider_count: 1 },
      { insurer_id: 'comp', class_selection: 'institutional', state: 'ALL', median_rate: 130, rate_count: 1, provider_count: 1 },
      { insurer_id: 'comp', class_selection: 'institutional', state: 'CA', median_rate: 130, rate_count: 1, provider_count: 1 },
      // professional: 70 80 90 -> 80
      { insurer_id: 'comp', class_selection: 'professional', state: 'ALL', median_rate: 80, rate_count: 3, provider_count: 2 },
      { insurer_id: 'comp', class_selection: 'professional', state: 'CA', median_rate: 85, rate_count: 2, provider_count: 1 },
      // ref: the duplicate 100 counts once per NPI; percentage 80 and unresolved 999 excluded -> 100, 100
      { insurer_id: 'ref', class_selection: 'all', state: 'ALL', median_rate: 100, rate_count: 2, provider_count: 2 },
      { insurer_id: 'ref', class_selection: 'all', state: 'CA', median_rate: 100, rate_count: 1, provider_count: 1 },
      { insurer_id: 'ref', class_selection: 'all', state: 'NY', median_rate: 100, rate_count: 1, provider_count: 1 },
      { insurer_id: 'ref', class_selection: 'professional', state: 'ALL', median_rate: 100, rate_count: 2, provider_count: 2 },
      { insurer_id: 'ref', class_selection: 'professional', state: 'CA', median_rate: 100, rate_count: 1, provider_count: 1 },
      { insurer_id: 'ref', class_selection: 'professional', state: 'NY', median_rate: 100, rate_count: 1, provider_count: 1 },
    ]);
    // RC 0450 is no service: no statistic.
    expect(await rows(`SELECT * FROM price_stats WHERE billing_code = '0450'`)).toEqual([]);
  });

  it('names services after the reference insurer and derives the category', async () => {
    expect(await rows(`SELECT billing_code, billing_code_type, name, category FROM services`)).toEqual([
      { billing_code: '99213', billing_code_type: 'CPT', name: 'Office visit, established patient', category: 'Office visit' },
    ]);
  });

  it('enriches providers from the NPI registry and totals claims by state', async () => {
    expect(await rows(`SELECT provider_id, name, state FROM providers ORDER BY 1`)).toEqual([
      { provider_id: '1111111112', name: 'ANA RIVERA', state: 'CA' },
      { provider_id: '2222222220', name: 'BAY MEDICAL GROUP', state: 'NY' },
      { provider_id: '3333333334', name: 'LEE CHEN', state: 'CA' },
      { provider_id: 'TIN:550000001', name: 'TIN:550000001', state: null },
    ]);
    expect(await rows(`SELECT state, claims_count FROM claims_volume ORDER BY state`)).toEqual([
      { state: 'ALL', claims_count: 400 },
      { state: 'CA', claims_count: 300 },
      { state: 'NY', claims_count: 100 },
    ]);
    expect(manifest.claims_by_state).toBe(true);
  });

  it('reports the unknown catalog field as a warning and the unfetched remote group as a problem', async () => {
    const report = JSON.parse(await readFile(path.join(out, 'report.json'), 'utf8')) as {
      warnings: string[];
      problems: Array<{ file: string; code: string; path: string; offset: number }>;
    };
    expect(report.warnings).toContain('unknown field ignored: favourite_colour');
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]).toMatchObject({ file: 'ref-2025-02.json', code: 'unresolved_remote_reference', path: '$.provider_references[1]' });
    expect(report.problems[0]!.offset).toBeGreaterThan(0);
    expect(manifest.sources[0]!.problems).toBe(1);
  });

  it('reports rates naming an undeclared provider group as dangling and keeps them unresolved', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'compete-convert-dangling-'));
    try {
      await cp(FIXTURES, dir, { recursive: true });
      const file = path.join(dir, 'ref-2025-02.json');
      await writeFile(file, (await readFile(file, 'utf8')).replace('"provider_references": [20]', '"provider_references": [77]'));
      const { manifest: m } = await convertCatalog(path.join(dir, 'catalog.json'), path.join(dir, 'dataset'), { quiet: true, remoteReferences: false });
      const report = JSON.parse(await readFile(path.join(dir, 'dataset', 'report.json'), 'utf8')) as { problems: Array<{ code: string; message: string }> };
      expect(report.problems.map((p) => p.code).sort()).toEqual(['dangling_provider_reference', 'unresolved_remote_reference']);
      expect(report.problems.find((p) => p.code === 'dangling_provider_reference')!.message).toMatch(/^1 rate rows name provider group 77,/);
      expect(m.sources[0]!.unresolved_rate_rows).toBe(1);
      expect(m.sources[0]!.problems).toBe(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('convertCatalog failures leave the previous dataset intact', () => {
  it('names the file and byte offset of a truncated gzip and keeps the old dataset', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'compete-convert-bad-'));
    try {
      await cp(FIXTURES, dir, { recursive: true });
      const target = path.join(dir, 'dataset');
      await convertCatalog(path.join(dir, 'catalog.json'), target, { quiet: true, remoteReferences: false });
      const before = await readFile(path.join(target, 'manifest.json'), 'utf8');
      const gz = gzipSync(await readFile(path.join(dir, 'comp-2025-02.json')));
      await writeFile(path.join(dir, 'comp-2025-02.json'), gz.subarray(0, gz.length >> 1));
      await expect(convertCatalog(path.join(dir, 'catalog.json'), target, { quiet: true, remoteReferences: false })).rejects.toThrow(
        /comp-2025-02\.json.*byte \d+/,
      );
      expect(await readFile(path.join(target, 'manifest.json'), 'utf8')).toBe(before);
      expect((await readdir(dir)).filter((f) => f.includes('.tmp-'))).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('names a missing required catalog field', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'compete-convert-cat-'));
    try {
      await writeFile(path.join(dir, 'catalog.json'), JSON.stringify({ insurers: [] }));
      await expect(convertCatalog(path.join(dir, 'catalog.json'), path.join(dir, 'out'), { quiet: true, remoteReferences: false })).rejects.toThrow(
        /missing required field reference_insurer/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
