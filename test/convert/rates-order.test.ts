/**
 * The row order of `rates` across files (docs/dataset.md, Data dictionary: by billing_code, then snapshot,
 * insurer, source, and the price's place in its file), on one CMS example file
 * (test/fixtures/mrf/v2.2.0-in-network-rates-multiple-plans-sample.json) converted as four sources
 * whose catalog order is neither the snapshots' nor the insurers': the `rates` parts sort every
 * bucket's prices on integers (code-buckets.ts bucketPricesSql, `rate_items.item_order`), which
 * must stand for that whole key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { DatasetManifest } from '../../contract/files/dataset';
import { convertCatalog } from '../../scripts/convert/index';

const FILE = path.resolve(__dirname, '../fixtures/mrf/v2.2.0-in-network-rates-multiple-plans-sample.json');

let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-rates-order-'));
  await copyFile(FILE, path.join(tmp, 'in.json'));
  // sources 0..3: (b, 2025-02), (b, 2025-01), (a, 2025-02), (a, 2025-01)
  await writeFile(path.join(tmp, 'catalog.json'), JSON.stringify({
    reference_insurer: 'a',
    insurers: ['b', 'a'].map((id) => ({ id, name: id, files: ['2025-02', '2025-01'].map((snapshot) => ({ snapshot, url: 'in.json' })) })),
  }));
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** The (billing_code, snapshot, insurer_id, source_id) of every `rates` row, parts in order, each in its file's row order. */
async function rateKeys(out: string): Promise<Array<[string, string, string, number]>> {
  const m = JSON.parse(await readFile(path.join(out, 'manifest.json'), 'utf8')) as DatasetManifest;
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  try {
    const keys: Array<[string, string, string, number]> = [];
    for (const f of m.tables.rates.files) {
      const r = await con.runAndReadAll(`SELECT billing_code, snapshot, insurer_id, source_id
        FROM read_parquet('${path.join(out, f)}', file_row_number = true) ORDER BY file_row_number`);
      for (const row of r.getRows()) keys.push([String(row[0]), String(row[1]), String(row[2]), Number(row[3])]);
    }
    return keys;
  } finally {
    con.closeSync();
    db.closeSync();
  }
}

const compare = (x: [string, string, string, number], y: [string, string, string, number]): number =>
  (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0) || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0) || (x[2] < y[2] ? -1 : x[2] > y[2] ? 1 : 0) || x[3] - y[3];

describe('rates rows of several snapshots and insurers', () => {
  it('come by billing code, snapshot, insurer, then source', async () => {
    const out = path.join(tmp, 'out');
    await convertCatalog(path.join(tmp, 'catalog.json'), out, { quiet: true, remoteReferences: false });
    const keys = await rateKeys(out);
    expect(new Set(keys.map((k) => k[3]))).toEqual(new Set([0, 1, 2, 3]));
    expect(new Set(keys.map((k) => k[0])).size).toBeGreaterThan(1);
    expect(keys).toEqual([...keys].sort(compare));
    // not the sources' own order: the last source (a, 2025-01) comes first within a code
    expect(keys[0]!.slice(1)).toEqual(['2025-01', 'a', 3]);
  });
});
