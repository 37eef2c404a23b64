/**
 * Billing-code buckets (code-buckets.ts): with buckets of one row, price_stats and the rates
 * Parquet parts must hold exactly what one bucket gives, the parts in billing-code order, each
 * sorted, and the manifest's row-group index naming each part. Both are written the conversion's
 * way: statistics, rates parts and tables as tasks on two connections at once (write-dataset.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildWorkingTables } from './working-tables';
import { planCodeBuckets } from '../../scripts/convert/build/stats/code-buckets';
import { writeDataset } from '../../scripts/convert/build/output/write-dataset';
import { openSpool } from '../../scripts/convert/spool/spool';
import type { ManifestTable, TableName } from '../../contract/files/dataset';
import { rateRowsSql } from '../../contract/sql/rate-rows-sql';

let tmp: string;

/** Spools the rows below into a fresh working database in `dir`, builds and writes the tables. */
async function build(dir: string, bucketRows: number): Promise<{ stats: unknown[][]; tables: Record<TableName, ManifestTable> }> {
  await mkdir(dir, { recursive: true });
  const spool = await openSpool(dir);
  try {
    // groups g1 (NPI 1000000001, 1000000002) and g2 (1000000002): NPI ..02 is in both
    await writeFile(path.join(dir, 'g.csv'), '0,g1,1000000001,1000000001,ein,1,,,\n0,g1,1000000002,1000000002,ein,1,,,\n0,g2,1000000002,1000000002,ein,2,,,\n');
    // items 0..3: codes 99213, 0450 (RC), 99214, 99215
    await writeFile(path.join(dir, 'i.csv'), '0,0,CPT,99213,a,,ffs\n0,1,RC,0450,b,,ffs\n0,2,CPT,99214,c,,ffs\n0,3,CPT,99215,d,,ffs\n');
    let seq = 0;
    // source_id, item_id, rate_index, price_index, provider_group_ids, billing_class, negotiated_type, rate, ...
    const rate = (item: number, g: string, cls: string, v: number): string => `0,${item},${seq++},0,${g},${cls},negotiated,${v},11,"",9999-12-31,,\n`;
    await writeFile(path.join(dir, 'r.csv'), [
      rate(3, 'g1', 'professional', 30), rate(0, 'g1', 'professional', 10), rate(0, 'g2', 'professional', 10),
      rate(0, 'g2', 'institutional', 20), rate(2, 'g2', 'both', 40), rate(1, 'g1', 'institutional', 5),
      rate(3, 'g9', 'professional', 31), rate(2, 'g1', 'professional', 41),
    ].join(''));
    await spool.load('raw_groups', [path.join(dir, 'g.csv')]);
    await spool.load('raw_items', [path.join(dir, 'i.csv')]);
    await spool.loadTextPrices([path.join(dir, 'r.csv')]);
    await spool.con.run(`CREATE TABLE sources (source_id INTEGER, insurer_id VARCHAR, snapshot VARCHAR); INSERT INTO sources VALUES (0, 'a', '2025-01');`);
    // prices of $10-$41: valid only with a lower bound under 0.11 x Medicare (99213: $88.95)
    await buildWorkingTables(spool.con, { referenceInsurer: 'a', bucketRows, validation: { min_ratio: 0.01 } });
    const out = path.join(dir, 'out');
    await mkdir(out, { recursive: true });
    const tables = await writeDataset(spool, out);
    const stats = (await spool.con.runAndReadAll(`SELECT billing_code, billing_class, state, median_rate, rate_count, provider_count
      FROM price_stats ORDER BY ALL`)).getRows();
    return { stats, tables };
  } finally {
    await spool.close();
  }
}

let one: Awaited<ReturnType<typeof build>>;
let many: Awaited<ReturnType<typeof build>>;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-buckets-'));
  one = await build(path.join(tmp, 'one'), 1_000_000);
  many = await build(path.join(tmp, 'many'), 1);
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('billing-code buckets', () => {
  it('give the same price_stats as one bucket', () => {
    // 99213 professional: NPI ..01 10 (g1), NPI ..02 10 (g1 and g2: once) -> 10, 2 rows, 2 providers; institutional 20 (g2)
    expect(one.stats).toContainEqual(['99213', 'professional', 'ALL', 10, 2, 2]);
    expect(one.stats).toContainEqual(['99213', 'institutional', 'ALL', 20, 1, 1]);
    expect(many.stats).toEqual(one.stats);
  });

  it('write one sorted part per bucket, in billing-code order, indexed in the manifest', async () => {
    expect(one.tables.rates.files).toEqual(['rates/part-0.parquet']);
    // codes in text order: 0450, 99213, 99214, 99215 -> 4 buckets of one code each
    expect(many.tables.rates.files).toEqual(['rates/part-0.parquet', 'rates/part-1.parquet', 'rates/part-2.parquet', 'rates/part-3.parquet']);
    // a part's row is a price with its groups' ids; each price here names one group
    expect(many.tables.rates.rows).toBe(8);
    expect(many.tables.rates.row_groups!.map((g) => [g.file, g.min_billing_code, g.max_billing_code, g.rows])).toEqual([
      [0, '0450', '0450', 1], [1, '99213', '99213', 3], [2, '99214', '99214', 2], [3, '99215', '99215', 2],
    ]);
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const read = async (d: string, t: ManifestTable): Promise<unknown[][]> => (await con.runAndReadAll(
      `SELECT billing_code, provider_group_key, negotiated_rate
       FROM (${rateRowsSql(`read_parquet([${t.files.map((f) => `'${path.join(tmp, d, 'out', f)}'`).join(', ')}])`)})`)).getRows();
    // the parts read in order give the rows of the single sorted file
    expect(await read('many', many.tables.rates)).toEqual(await read('one', one.tables.rates));
    // each code's rows in the order of their prices in the file (rate_index here), g9 undeclared: a key no group has
    expect(await read('one', one.tables.rates)).toEqual([
      ['0450', '0:g1', 5], ['99213', '0:g1', 10], ['99213', '0:g2', 10], ['99213', '0:g2', 20],
      ['99214', '0:g2', 40], ['99214', '0:g1', 41], ['99215', '0:g1', 30], ['99215', '0:g9', 31],
    ]);
    con.closeSync();
    db.closeSync();
  });
});

describe('planCodeBuckets', () => {
  it('counts a price as one rate row per group id it names, one when it names none', async () => {
    const dir = path.join(tmp, 'plan');
    await mkdir(dir, { recursive: true });
    const spool = await openSpool(dir);
    try {
      const price = (item: number, ids: string): string => `0,${item},0,0,${ids},professional,negotiated,1,,,,,\n`;
      // code A: one price naming 3 groups (3 rows); B: a price naming none (1) and one naming 2 (2); C: one (1)
      await writeFile(path.join(dir, 'r.csv'), [price(0, 'g1\x1fg2\x1fg3'), price(1, ''), price(1, 'g1\x1fg2'), price(2, 'g1')].join(''));
      await spool.loadTextPrices([path.join(dir, 'r.csv')]);
      await spool.con.run(`CREATE TABLE rate_items AS SELECT * FROM (VALUES (0, 0, 'A'), (0, 1, 'B'), (0, 2, 'C')) t(source_id, item_id, billing_code)`);
      // rows before each code 0, 3, 6: buckets of 3 rows cut them apart (counting prices would give 0, 1, 3)
      expect(await planCodeBuckets(spool.con, 3)).toBe(3);
      expect((await spool.con.runAndReadAll('SELECT billing_code, bucket FROM code_buckets ORDER BY ALL')).getRows()).toEqual([['A', 0], ['B', 1], ['C', 2]]);
      // the same rows as the expansion of raw_rates
      expect((await spool.con.runAndReadAll(`SELECT k.billing_code, count(*) FROM raw_rates r JOIN rate_items k USING (source_id, item_id)
        GROUP BY ALL ORDER BY ALL`)).getRows()).toEqual([['A', 3n], ['B', 3n], ['C', 1n]]);
    } finally {
      await spool.close();
    }
  });
});
