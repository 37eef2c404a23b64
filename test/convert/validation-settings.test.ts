/**
 * The catalog's validation settings (docs/methodology.md, Validation) on the validation fixture:
 * a setting changes the checks and the figures as worked out by hand below; a bad one fails the run
 * naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { convertCatalog } from '../../scripts/convert/index';
import { fixtureWith as fixtureIn, nf99214, openDataset, rows, variance, weightedMean } from './validation-fixture';

let tmp: string;
let db: DuckDBInstance;
const fixtureWith = (validation: unknown): Promise<string> => fixtureIn(tmp, validation);

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-validation-settings-'));
  db = await DuckDBInstance.create(':memory:');
});

afterAll(async () => {
  db?.closeSync();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('the catalog\'s validation settings', () => {
  it('max_ratio 50 turns the ghost rate (35.95 x Medicare) valid', async () => {
    const catalog = await fixtureWith({ max_ratio: 50 });
    const out = path.join(path.dirname(catalog), 'dataset');
    const { manifest: m } = await convertCatalog(catalog, out, { quiet: true, remoteReferences: false });
    expect(m.validation).toEqual({ min_ratio: 0.3, max_ratio: 50, source_min_ratio: 0.1, outlier_factor: 10, min_providers: 2 });
    expect(m.sources.map((s) => s.validation)).toEqual([
      { source_not_dollars: 0, below_benchmark: 0, above_benchmark: 0, outlier: 1 },
      { source_not_dollars: 0, below_benchmark: 1, above_benchmark: 0, outlier: 0 },
      { source_not_dollars: 25, below_benchmark: 0, above_benchmark: 0, outlier: 0 },
    ]);
    const c = await db.connect();
    try {
      await openDataset(c, out, m, 'm50_');
      expect(await rows(c, `SELECT negotiated_rate, medicare_rate, validation FROM m50_rate_parts WHERE billing_code = '99214' AND insurer_id = 'ref'
        ORDER BY negotiated_rate`)).toEqual([
        { negotiated_rate: 150, medicare_rate: nf99214, validation: null },
        { negotiated_rate: 170, medicare_rate: nf99214, validation: null },
        { negotiated_rate: 4500, medicare_rate: nf99214, validation: null },
      ]);
      // ref 99214 now: P1 150, P2 150, P5 170, P3 4500, P4 4500 -> 170 over 5; NY: P3, P4 4500
      expect(await rows(c, `SELECT state, median_rate, rate_count, provider_count FROM m50_price_stats
        WHERE billing_code = '99214' AND insurer_id = 'ref' AND scope = 'market' ORDER BY state`)).toEqual([
        { state: 'ALL', median_rate: 170, rate_count: 5, provider_count: 5 },
        { state: 'CA', median_rate: 150, rate_count: 3, provider_count: 3 },
        { state: 'NY', median_rate: 4500, rate_count: 2, provider_count: 2 },
      ]);
    } finally {
      c.closeSync();
    }
    // the validated headline with 99214 at 170 vs 140
    const expected = weightedMean([
      [variance(105, 90), 400], [variance(160, 150), 0], [variance(170, 140), 300], [variance(42, 37), 0],
      [variance(12, 11.5), 200], [variance(105, 96), 200], [variance(160, 145), 100], [variance(150, 150.5), 80],
      [variance(13, 10.5), 60],
    ]);
    expect(m.headline.avg_overpayment_validated).toBeCloseTo(expected, 9);
  });

  it('refuses min_ratio >= max_ratio, an unknown key and a non-positive value, naming the field', async () => {
    const opts = { quiet: true, remoteReferences: false };
    const bad = await fixtureWith({ min_ratio: 2, max_ratio: 1 });
    await expect(convertCatalog(bad, path.join(path.dirname(bad), 'out'), opts)).rejects.toThrow(/validation\.min_ratio.*validation\.max_ratio/);
    const unknown = await fixtureWith({ foo: 1 });
    await expect(convertCatalog(unknown, path.join(path.dirname(unknown), 'out'), opts)).rejects.toThrow(/validation\.foo/);
    const zero = await fixtureWith({ min_providers: 0 });
    await expect(convertCatalog(zero, path.join(path.dirname(zero), 'out'), opts)).rejects.toThrow(/validation\.min_providers/);
  });
});
