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
import { sha256File } from '../../scripts/convert/build/output/write-parquet';
import type { DatasetManifest } from '../../contract/files/dataset';
import { rateRowsSql } from '../../contract/sql/rate-rows-sql';

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
  // the rate rows, as the worker unnests a part's prices (contract/files/dataset.ts)
  await con.run(`CREATE VIEW rates AS ${rateRowsSql('rate_parts')}`);
});

afterAll(async () => {
  con?.closeSync();
  db?.closeSync();
  await rm(tmp, { recursive: true, force: true });
});

describe('convertCatalog on hand-made MRFs', () => {
  it('writes the manifest of docs/dataset.md', () => {
    expect(manifest.format).toBe('compete-dataset');
    expect(manifest.format_version).toBe(6);
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

  it('pre-computes the medians of docs/methodology.md in price_stats, per comparison unit, with the Medicare amount', async () => {
    const s = await rows(`SELECT insurer_id, billing_class, setting, state, median_rate, rate_count, provider_count, medicare_rate
                          FROM price_stats WHERE billing_code = '99213' AND component = 'global' AND scope = 'market' ORDER BY 1, 2, 3, 4`);
    // 99213 PFS: non-facility 2.75 RVU, facility 1.97 RVU x $32.3465; institutional: G0463's OPPS rate $128.87
    const nf = 88.95;
    const f = 63.72;
    expect(s).toEqual([
      { insurer_id: 'comp', billing_class: 'institutional', setting: 'facility', state: 'ALL', median_rate: 130, rate_count: 1, provider_count: 1, medicare_rate: 128.87 },
      { insurer_id: 'comp', billing_class: 'institutional', setting: 'facility', state: 'CA', median_rate: 130, rate_count: 1, provider_count: 1, medicare_rate: 128.87 },
      // the fee schedule 90 at place of service 22 (outpatient hospital): the facility unit
      { insurer_id: 'comp', billing_class: 'professional', setting: 'facility', state: 'ALL', median_rate: 90, rate_count: 1, provider_count: 1, medicare_rate: f },
      { insurer_id: 'comp', billing_class: 'professional', setting: 'facility', state: 'CA', median_rate: 90, rate_count: 1, provider_count: 1, medicare_rate: f },
      // office (11): NPI 3333333334 80, TIN:550000001 70 -> (70 + 80) / 2 = 75; CA holds 3333333334 only (the TIN has no state)
      { insurer_id: 'comp', billing_class: 'professional', setting: 'non-facility', state: 'ALL', median_rate: 75, rate_count: 2, provider_count: 2, medicare_rate: nf },
      { insurer_id: 'comp', billing_class: 'professional', setting: 'non-facility', state: 'CA', median_rate: 80, rate_count: 1, provider_count: 1, medicare_rate: nf },
      // ref: the duplicate 100 counts once per NPI; percentage 80 and unresolved 999 excluded -> 100, 100
      { insurer_id: 'ref', billing_class: 'professional', setting: 'non-facility', state: 'ALL', median_rate: 100, rate_count: 2, provider_count: 2, medicare_rate: nf },
      { insurer_id: 'ref', billing_class: 'professional', setting: 'non-facility', state: 'CA', median_rate: 100, rate_count: 1, provider_count: 1, medicare_rate: nf },
      { insurer_id: 'ref', billing_class: 'professional', setting: 'non-facility', state: 'NY', median_rate: 100, rate_count: 1, provider_count: 1, medicare_rate: nf },
    ]);
    // RC 0450 is no service: no statistic.
    expect(await rows(`SELECT * FROM price_stats WHERE billing_code = '0450'`)).toEqual([]);
  });

  it('gives every dollar rate of a service its Medicare amount and validation, and records both in the manifest', async () => {
    expect(await rows(`SELECT billing_code, negotiated_type, negotiated_rate, medicare_rate, validation FROM rate_parts
                       ORDER BY billing_code, negotiated_rate`)).toEqual([
      { billing_code: '0450', negotiated_type: 'negotiated', negotiated_rate: 5000, medicare_rate: null, validation: null },
      { billing_code: '99213', negotiated_type: 'negotiated', negotiated_rate: 70, medicare_rate: 88.95, validation: null },
      { billing_code: '99213', negotiated_type: 'negotiated', negotiated_rate: 80, medicare_rate: 88.95, validation: null },
      { billing_code: '99213', negotiated_type: 'percentage', negotiated_rate: 80, medicare_rate: null, validation: null },
      { billing_code: '99213', negotiated_type: 'fee schedule', negotiated_rate: 90, medicare_rate: 63.72, validation: null },
      // ref's 100 twice, in two items
      { billing_code: '99213', negotiated_type: 'negotiated', negotiated_rate: 100, medicare_rate: 88.95, validation: null },
      { billing_code: '99213', negotiated_type: 'negotiated', negotiated_rate: 100, medicare_rate: 88.95, validation: null },
      { billing_code: '99213', negotiated_type: 'negotiated', negotiated_rate: 130, medicare_rate: 128.87, validation: null },
      // 999 / 88.95 = 11.2 x Medicare: within the default 0.3-30 bounds
      { billing_code: '99213', negotiated_type: 'negotiated', negotiated_rate: 999, medicare_rate: 88.95, validation: null },
    ]);
    expect(manifest.validation).toEqual({ min_ratio: 0.3, max_ratio: 30, source_min_ratio: 0.1, outlier_factor: 10, min_providers: 2 });
    expect(manifest.sources.map((s) => s.validation)).toEqual([
      { source_not_dollars: 0, below_benchmark: 0, above_benchmark: 0, outlier: 0 },
      { source_not_dollars: 0, below_benchmark: 0, above_benchmark: 0, outlier: 0 },
    ]);
    // ref's distinct benchmarked prices: 100 and 999 over $88.95 -> median of 112.4 % and 1123.1 %
    expect(manifest.sources[0]!.median_medicare_pct).toBeCloseTo(100 * (100 / 88.95 + 999 / 88.95) / 2, 6);
    expect(manifest.medicare).toMatchObject({ year: 2025, conversion_factor: 32.3465, cpt_descriptors: true });
    expect(manifest.medicare.files.map((f) => f.name)).toContain('PPRRVU2025_Oct.csv.gz');
    expect(manifest.medicare.notices.some((n) => n.includes('American Medical Association'))).toBe(true);
  });

  it('names services by the CMS descriptor, keeps the publishers\' name and derives the category', async () => {
    // both files call 99213 something else once each: the tie goes to the first name in text order
    expect(await rows(`SELECT billing_code, billing_code_type, name, published_name, category FROM services`)).toEqual([
      { billing_code: '99213', billing_code_type: 'CPT', name: 'Office o/p est low 20 min', published_name: 'OFFICE VISIT EST LOW', category: 'Office visit' },
    ]);
  });

  it('enriches providers from the NPI registry and totals claims by state', async () => {
    expect(await rows(`SELECT provider_id, name, state FROM providers ORDER BY 1`)).toEqual([
      { provider_id: '1111111112', name: 'ANA RIVERA', state: 'CA' },
      { provider_id: '2222222220', name: 'BAY MEDICAL GROUP', state: 'NY' },
      { provider_id: '3333333334', name: 'LEE CHEN', state: 'CA' },
      { provider_id: 'TIN:550000001', name: 'TIN:550000001', state: null },
    ]);
    // no billing_class column: the professional class; 99213's own OPPS line pays nothing (SI B) and it has professional units
    expect(await rows(`SELECT state, billing_class, claims_count FROM claims_volume ORDER BY state`)).toEqual([
      { state: 'ALL', billing_class: 'professional', claims_count: 400 },
      { state: 'CA', billing_class: 'professional', claims_count: 300 },
      { state: 'NY', billing_class: 'professional', claims_count: 100 },
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
