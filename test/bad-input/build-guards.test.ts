/**
 * The build stage's guards (scripts/convert/build/build-guards.ts, count-check.ts, write-errors.ts):
 * - filters that leave no rate row fail the run naming the filter and the rows before it, and the
 *   previous dataset stays byte for byte; `--allow-empty` writes the empty dataset with a warning;
 * - a finite rate far outside any dollar amount (5e-324, 1e-300, 1e308, the largest double) is set
 *   aside by validation with its reason, and the run goes on;
 * - the manifest's counts are checked against the Parquet footers;
 * - a write the file system refuses (ENOSPC, with no path in Node's message) names the path.
 * Node's writeFile and mkdir are wrapped (vi.mock) so that one test can make a chosen write fail;
 * every other write goes through unchanged.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { DatasetManifest } from '../../contract/files/dataset';
import { runConvertCli } from '../../scripts/convert/cli/convert';
import { checkManifestCounts, CountMismatchError, countMismatches, readParquetFacts } from '../../scripts/convert/build/count-check';
import { emptyReason } from '../../scripts/convert/build/build-guards';
import { catalogOf, item, leftovers, makeWorkspace, mrf, price, re, runCli, treeHash, type Workspace } from './harness';

/** The write to fail: a path suffix, the call (writeFile or mkdir); null: none fails. */
const failing = vi.hoisted(() => ({ suffix: null as string | null, call: 'writeFile' as 'writeFile' | 'mkdir' }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  // what a full disk gives for a write on an open file: no path in the message, no `path`
  const enospc = (): Error => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
  const fails = (call: string, file: unknown): boolean => failing.suffix !== null && failing.call === call && String(file).endsWith(failing.suffix);
  const writeFile: typeof fs.writeFile = async (file, ...rest) => {
    if (fails('writeFile', file)) throw enospc();
    return fs.writeFile(file, ...rest);
  };
  const mkdir = (async (dir: Parameters<typeof fs.mkdir>[0], options?: Parameters<typeof fs.mkdir>[1]) => {
    if (fails('mkdir', dir)) throw enospc();
    return fs.mkdir(dir, options);
  }) as typeof fs.mkdir;
  return { ...fs, writeFile, mkdir, default: { ...fs, writeFile, mkdir } };
});

let ws: Workspace;

beforeAll(async () => {
  ws = await makeWorkspace('build-guards');
  expect(await runCli(['--catalog', ws.catalog, '--out', ws.out])).toEqual({ code: 0, stderr: '' });
}, 60_000);

afterAll(async () => {
  await rm(ws.dir, { recursive: true, force: true });
});

const manifestOf = async (dir: string): Promise<DatasetManifest> => JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as DatasetManifest;

/** Writes a catalog of good.json with `filters` into the workspace; returns its path. */
async function filteredCatalog(name: string, filters: object): Promise<string> {
  const file = path.join(ws.dir, `${name}.json`);
  await writeFile(file, JSON.stringify(catalogOf(['good.json'], [], { filters })));
  return file;
}

describe('filters that leave no rate row', () => {
  const cases: Array<[string, object, RegExp]> = [
    // a state no provider of the file is in (a code that is no state stops the run at the catalog)
    ['states-wy', { states: ['WY'] }, /filters\.states \[WY\] kept none of the 1 rate rows before it/],
    ['no-codes', { billing_codes: [] }, /filters\.billing_codes \(0 codes\) matched none of the 1 in_network items/],
  ];

  for (const [name, filters, reason] of cases) {
    it(`${JSON.stringify(filters)}: exit 1 naming the filter, the previous dataset byte for byte unchanged`, async () => {
      const catalog = await filteredCatalog(name, filters);
      const before = await treeHash(ws.out);
      const { code, stderr } = await runCli(['--catalog', catalog, '--out', ws.out]);
      expect(stderr).toMatch(new RegExp(`^convert: no rate row left: ${reason.source}.*${re(ws.out)} is left as it was \\(--allow-empty`));
      expect(stderr.split('\n')).toHaveLength(2);
      expect(code).toBe(1);
      expect(await treeHash(ws.out)).toEqual(before);
      expect(await leftovers(ws.out)).toEqual([]);
    }, 60_000);
  }

  for (const [name, filters, reason] of cases) {
    it(`${JSON.stringify(filters)} with --allow-empty: the empty dataset is written, with a warning (even with --quiet)`, async () => {
      const out = path.join(ws.dir, `empty-${name}`);
      await runCli(['--catalog', ws.catalog, '--out', out]);
      expect((await manifestOf(out)).counts.rate_rows).toBe(1);
      const catalog = await filteredCatalog(name, filters);
      const { code, stderr } = await runCli(['--catalog', catalog, '--out', out, '--allow-empty']);
      expect(stderr).toMatch(new RegExp(`^convert: warning: the dataset written to ${re(out)} holds no rate row \\(--allow-empty\\): ${reason.source}`));
      expect(code).toBe(0);
      const manifest = await manifestOf(out);
      expect(manifest.counts.rate_rows).toBe(0);
      expect(manifest.tables.rates.rows).toBe(0);
      const report = JSON.parse(await readFile(path.join(out, 'report.json'), 'utf8')) as { warnings: string[] };
      expect(report.warnings.some((w) => reason.test(w))).toBe(true);
    }, 60_000);
  }

  it('the reason of inputs without any rate row, and none while rows are left', () => {
    const facts = { rateRows: 0, rowsBeforeStates: 0, items: 0, skippedItems: 0, sources: 1, failedFiles: 1 };
    expect(emptyReason(facts)).toBe('the inputs hold no rate row (1 sources read, 0 in_network items, 1 unreadable (report.json failed_files))');
    expect(emptyReason({ ...facts, rateRows: 3 })).toBeNull();
  });
});

describe('a finite rate that is no plausible dollar amount', () => {
  it('5e-324, 1e-300, 1e308 and the largest double convert, each set aside by validation with its reason', async () => {
    const w = await makeWorkspace('build-guards-rates');
    try {
      // 92953's professional amount is 0.97 USD (0.03 RVU): the largest double over it overflows to infinity
      await writeFile(path.join(w.dir, 'good.json'), mrf([
        item('"99214"', price('5e-324')), item('"99215"', price('1e-300')), item('"99205"', price('1e308')),
        item('"92953"', price('1.7976931348623157e308')),
      ]));
      expect(await runCli(['--catalog', w.catalog, '--out', w.out])).toEqual({ code: 0, stderr: '' });
      const manifest = await manifestOf(w.out);
      expect(manifest.sources[0]!.validation).toMatchObject({ below_benchmark: 2, above_benchmark: 2 });
      const db = await DuckDBInstance.create(':memory:');
      const con = await db.connect();
      const files = manifest.tables.rates.files.map((f) => `'${path.join(w.out, f)}'`).join(', ');
      const rows = (await con.runAndReadAll(`SELECT billing_code, CAST(validation AS VARCHAR) FROM read_parquet([${files}]) ORDER BY 1`)).getRows();
      expect(rows).toEqual([['92953', 'above_benchmark'], ['99205', 'above_benchmark'], ['99213', null], ['99214', 'below_benchmark'], ['99215', 'below_benchmark']]);
      con.closeSync();
    } finally {
      await rm(w.dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('the manifest counts against the Parquet files', () => {
  let dir: string;
  let db: DuckDBInstance;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'compete-count-check-'));
    await mkdir(path.join(dir, 'rates'), { recursive: true });
    db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    // 3 prices of source 0: two name one group each, one names two: 4 rate rows
    await con.run(`COPY (SELECT * FROM (VALUES ('99213', 0, ['1']), ('99213', 0, ['2']), ('99214', 0, ['1', '2'])) t(billing_code, source_id, provider_group_ids))
      TO '${path.join(dir, 'rates/part-0.parquet')}' (FORMAT parquet)`);
    await con.run(`COPY (SELECT 'p' || i AS provider_id FROM range(5) r(i)) TO '${path.join(dir, 'providers.parquet')}' (FORMAT parquet)`);
    // 30,000 group rows of sources 0-2 sorted by source, in row groups of 10,240, 10,240 and 9,520 rows
    await con.run(`COPY (SELECT (i // 10000)::INTEGER AS source_id, 'p' || i AS provider_id FROM range(30000) r(i) ORDER BY i)
      TO '${path.join(dir, 'provider_groups.parquet')}' (FORMAT parquet, ROW_GROUP_SIZE 10000)`);
    con.closeSync();
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** A manifest of the two files above, as a correct build records them, with `change` applied. */
  function manifest(change: (m: DatasetManifest) => void = () => {}): DatasetManifest {
    const table = (files: string[], rows: number): DatasetManifest['tables']['rates'] => ({ files, rows, bytes: [], sha256: [] });
    const m = {
      tables: {
        rates: { ...table(['rates/part-0.parquet'], 3), row_groups: [{ file: 0, row_group: 0, rows: 3, min_billing_code: '99213', max_billing_code: '99214' }] },
        providers: table(['providers.parquet'], 5),
        provider_groups: {
          ...table(['provider_groups.parquet'], 30000),
          source_index: [
            { row_group: 0, rows: 10240, source_ids: [0, 1] },
            { row_group: 1, rows: 10240, source_ids: [1, 2] },
            { row_group: 2, rows: 9520, source_ids: [2] },
          ],
        },
      },
      counts: { rate_rows: 4, providers: 5, services: 0 },
      sources: [{ insurer_id: 'good', snapshot: '2025-07', url: 'good.json', rate_rows: 4 }],
    } as unknown as DatasetManifest;
    change(m);
    return m;
  }

  it('a manifest that matches its files passes', async () => {
    const con = await db.connect();
    const facts = await readParquetFacts(con, dir, manifest());
    expect(facts.rows).toEqual({ rates: 3, providers: 5, provider_groups: 30000 });
    expect(countMismatches(manifest(), facts)).toEqual([]);
    await checkManifestCounts(con, dir, manifest());
    con.closeSync();
  });

  it('a manifest counting fewer rate rows than the files hold fails with both numbers', async () => {
    const con = await db.connect();
    const wrong = manifest((m) => {
      m.counts.rate_rows = 3;
      m.sources[0]!.rate_rows = 3;
      m.tables.providers.rows = 4;
      m.tables.provider_groups.source_index![2]!.source_ids = [1, 2];
    });
    const error = await checkManifestCounts(con, dir, wrong).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CountMismatchError);
    expect((error as CountMismatchError).mismatches).toEqual([
      'tables.providers.rows: manifest.json records 4, the Parquet files hold 5',
      'tables.provider_groups.source_index[row group 2] smallest source_id: manifest.json records 1, the Parquet files hold 2',
      'counts.rate_rows: manifest.json records 3, the Parquet files hold 4',
      'the sources\' rate_rows summed: manifest.json records 3, the Parquet files hold 4',
      'sources[0].rate_rows (good 2025-07 good.json): manifest.json records 3, the Parquet files hold 4',
    ]);
    con.closeSync();
  });
});

describe('a write the file system refuses names the path', () => {
  afterAll(() => {
    failing.suffix = null;
  });

  /** Each case: the write that fails, and the message's pattern given the pattern of the run's temporary directory. */
  const cases: Array<[string, 'writeFile' | 'mkdir', (tmp: string) => string]> = [
    ['manifest.json', 'writeFile', (tmp) => `cannot write ${tmp}/manifest\\.json: ENOSPC`],
    ['.work', 'mkdir', (tmp) => `cannot write ${tmp}/\\.work: ENOSPC`],
    // the store's record, written by the ingest: the run's directories are named at the top level
    ['source.json', 'writeFile', (tmp) => `ENOSPC: no space left on device, write \\(while writing the new dataset and its work directory ${tmp}, the store ${re(ws.out)}\\.store\\)`],
  ];
  for (const [k, [suffix, call, message]] of cases.entries()) {
    it(`${call} of ${suffix}: exit 1 naming it, the previous dataset unchanged`, async () => {
      const before = await treeHash(ws.out);
      failing.suffix = suffix;
      failing.call = call;
      // a file no earlier run ingested, so that the ingest runs and writes its partition
      await writeFile(path.join(ws.dir, 'good.json'), mrf([item('"99214"', price(String(120 + k)))]));
      let stderr = '';
      const code = await runConvertCli(['--catalog', ws.catalog, '--out', ws.out, '--quiet', '--jobs', '1'], (t) => void (stderr += t));
      failing.suffix = null;
      await writeFile(path.join(ws.dir, 'good.json'), mrf());
      expect(stderr).toMatch(new RegExp(`^convert: ${message(`${re(path.join(ws.dir, '.dataset.tmp-compete-'))}${process.pid}-\\w+`)}`));
      expect(code).toBe(1);
      expect(await treeHash(ws.out)).toEqual(before);
      expect(await leftovers(ws.out)).toEqual([]);
    }, 60_000);
  }
});
