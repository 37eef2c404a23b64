/**
 * The generator's price_stats SQL (scripts/generate/price-stats.ts) against the converter's
 * (scripts/convert/build/stats/build-price-stats.ts): on the fixture dataset (test/fixtures/api, converted by
 * the real converter: providers shared between insurers, a TIN-only provider without a state, a
 * `both` unit, insurers whose snapshots are of different months), the SQL run on the dataset's own
 * tables gives every row of its price_stats, market, shared and market_band scope, and no other.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COLUMNS, type DatasetManifest, type TableName } from '../../contract/files/dataset';
import { rateRowsSql } from '../../contract/sql/rate-rows-sql';
import { sqlList } from '../../contract/sql/sql-text';
import { priceStatsSql } from '../../scripts/generate/price-stats';
import { convertFixture } from '../worker/fixture-dataset';

const roots: string[] = [];
afterAll(async () => {
  for (const r of roots) await rm(r, { recursive: true, force: true });
});

describe('the generator\'s price_stats SQL', () => {
  it('gives the converter\'s price_stats rows, market, shared and market_band scope, on a converted dataset', async () => {
    const { root, dir } = await convertFixture();
    roots.push(root);
    const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as DatasetManifest;
    const files = (t: TableName): string => `read_parquet([${sqlList(manifest.tables[t].files.map((f) => path.join(dir, f)))}])`;
    const con = await (await DuckDBInstance.create(':memory:')).connect();
    try {
      const rows = `SELECT r.*, m.provider_id, p.state
        FROM (${rateRowsSql(files('rates'))}) r
        LEFT JOIN (SELECT DISTINCT provider_group_key, provider_id FROM ${files('provider_groups')}) m USING (provider_group_key)
        LEFT JOIN ${files('providers')} p USING (provider_id)`;
      const sql = priceStatsSql({ rows, sources: manifest.sources, reference: manifest.reference_insurer, benchmarks: files('medicare_benchmarks') });
      const read = async (from: string): Promise<string[]> =>
        (await con.runAndReadAll(`SELECT ${COLUMNS.price_stats.join(', ')} FROM (${from}) ORDER BY ALL`)).getRows().map((r) => JSON.stringify(r));
      const want = await read(`SELECT * FROM ${files('price_stats')}`);
      const got = await read(sql);
      expect(want.filter((r) => r.includes('"shared"')).length).toBeGreaterThan(5);
      expect(want.filter((r) => r.includes('"market_band"')).length).toBeGreaterThan(5);
      expect(got).toEqual(want);
    } finally {
      con.closeSync();
    }
  });
});
