/**
 * The same catalog converted twice gives byte-identical Parquet files (the manifest's SHA-256), even
 * with two parser threads that share the batches differently from run to run and a rates sort whose
 * leading keys tie often (docs/dataset.md: every table is written in a total order). Auditors
 * re-run a conversion to check a snapshot they were given. The order itself is checked against an
 * expansion of the JSON file done here: billing code, then each price in file order, then its
 * provider references in the order the rate lists them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import type { DatasetManifest } from '../../contract/files/dataset';
import { convertCatalog } from '../../scripts/convert/index';
import { generateLargeMrf } from '../../scripts/mrf/generate-large-mrf';
import { TABLE_ORDER } from '../../scripts/convert/build/output/write-parquet';

let tmp: string;
const hashes: Array<Record<string, string[]>> = [];
let rateFiles: string[] = [];
let priceStatsScopes: Record<string, number> = {};
const orderTies: Record<string, number> = {};

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-repro-'));
  // ~30 MB of JSON (~450k rate rows: DuckDB sorts them on both threads): 2 provider groups per rate on average, rates drawn from few values, so rows
  // equal on (code, group, rate) are many; split items (256 KB) send rates to both threads
  await generateLargeMrf(path.join(tmp, 'in.json.gz'), { targetBytes: 3e7, itemBytes: 400_000, bigItemBytes: 5e6, providerReferences: 2000 });
  // a second insurer that repeats every other provider group of the first: price_stats has rows at shared providers too
  await generateLargeMrf(path.join(tmp, 'b.json.gz'), { targetBytes: 3e6, itemBytes: 100_000, providerReferences: 2000, seed: 7, sharedWith: 42 });
  await writeFile(path.join(tmp, 'catalog.json'), JSON.stringify({
    reference_insurer: 'a', insurers: [{ id: 'a', name: 'A', files: [{ snapshot: '2025-01', url: 'in.json.gz' }] },
      { id: 'b', name: 'B', files: [{ snapshot: '2025-01', url: 'b.json.gz' }] }],
  }));
  // 'whole': the 5 MB item is not split, so it goes to a parser thread as one element larger than
  // a batch's usual buffer (read-source.ts BATCH_CAPACITY, 4 MiB), in a buffer of its size
  for (const [run, splitBytes] of [['one', 256 * 1024], ['two', 256 * 1024], ['whole', 16 << 20]] as const) {
    await convertCatalog(path.join(tmp, 'catalog.json'), path.join(tmp, run), { quiet: true, jobs: 2, splitBytes });
    const m = JSON.parse(await readFile(path.join(tmp, run, 'manifest.json'), 'utf8')) as DatasetManifest;
    hashes.push(Object.fromEntries(Object.entries(m.tables).map(([name, t]) => [name, t.sha256])));
    if (run === 'one') {
      rateFiles = m.tables.rates.files.map((f) => path.join(tmp, run, f));
      const db = await DuckDBInstance.create(':memory:');
      const con = await db.connect();
      // each table's sort columns are a key of its rows: a total order, so ties cannot come out in another order
      for (const [table, order] of Object.entries(TABLE_ORDER)) {
        const r = await con.runAndReadAll(`SELECT count(*) - count(DISTINCT (${order})) FROM read_parquet('${path.join(tmp, run, `${table}.parquet`)}')`);
        orderTies[table] = Number(r.getRowsJS()[0]![0]);
      }
      const scopes = await con.runAndReadAll(`SELECT scope, count(*) FROM read_parquet('${path.join(tmp, run, 'price_stats.parquet')}') GROUP BY ALL ORDER BY 1`);
      priceStatsScopes = Object.fromEntries(scopes.getRowsJS().map(([scope, n]) => [String(scope), Number(n)]));
      con.closeSync();
      db.closeSync();
    }
  }
}, 120_000);

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('a conversion run twice', () => {
  it('writes the same bytes for every table', () => {
    expect(Object.keys(hashes[0]!).sort()).toEqual(['alerts', 'billing_providers', 'claims_volume', 'medicare_benchmarks', 'price_stats', 'provider_groups', 'providers', 'rates', 'services', 'unit_pivot']);
    expect(hashes[1]).toEqual(hashes[0]);
    // price_stats' rows of both scopes (their sort order includes scope and month)
    expect(priceStatsScopes.market).toBeGreaterThan(0);
    expect(priceStatsScopes.shared).toBeGreaterThan(0);
    expect(orderTies).toEqual(Object.fromEntries(Object.keys(TABLE_ORDER).map((t) => [t, 0])));
  });

  it('writes the same bytes when its large item is read whole instead of rate by rate', () => {
    expect(hashes[2]).toEqual(hashes[0]);
  });
});

interface GeneratedItem {
  billing_code: string;
  negotiated_rates: Array<{ provider_references: number[]; negotiated_prices: Array<{ negotiated_rate: number }> }>;
}

describe('the rates files', () => {
  it('hold every price x provider reference of a file in billing-code order, then in file order', async () => {
    const doc = JSON.parse(gunzipSync(await readFile(path.join(tmp, 'in.json.gz'))).toString('utf8')) as { in_network: GeneratedItem[] };
    const items = doc.in_network.map((it, i) => ({ it, i }))
      .sort((a, b) => (a.it.billing_code < b.it.billing_code ? -1 : a.it.billing_code > b.it.billing_code ? 1 : a.i - b.i));
    const expected: string[] = [];
    for (const { it } of items) {
      for (const r of it.negotiated_rates) {
        for (const p of r.negotiated_prices) for (const g of r.provider_references) expected.push(`${it.billing_code} 0:${g} ${p.negotiated_rate}`);
      }
    }
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const actual: string[] = [];
    for (const f of rateFiles) {
      // a row per price, its groups' ids as a list in the file's order (contract/files/dataset.ts)
      const rows = (await con.runAndReadAll(`SELECT billing_code, provider_group_ids, negotiated_rate
        FROM read_parquet('${f}', file_row_number = true) WHERE insurer_id = 'a' ORDER BY file_row_number`)).getRowsJS();
      for (const [code, ids, rate] of rows) for (const id of ids as string[]) actual.push(`${String(code)} 0:${id} ${Number(rate)}`);
    }
    con.closeSync();
    db.closeSync();
    expect(rateFiles.length).toBeGreaterThan(0);
    expect(actual.length).toBe(expected.length);
    const firstDiff = actual.findIndex((row, i) => row !== expected[i]);
    expect(firstDiff === -1 ? null : { at: firstDiff, actual: actual[firstDiff], expected: expected[firstDiff] }).toBeNull();
  });
});
