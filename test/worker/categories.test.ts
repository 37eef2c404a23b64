/**
 * The live comparison's category filter over the fixture dataset: the categories it offers
 * (src/live/url-state/categories.ts datasetCategories over `GET /api/service-categories`) are exactly the
 * distinct categories of the dataset's services table, names the services file gave included
 * ('Vaccines' is none of the derived ones), the same as those of `GET /api/service-names`, and
 * choosing one filters the rows to it.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServiceListItem, ServicePricingResult } from '../../contract/api';
import type { DatasetManifest } from '../../contract/files/dataset';
import { CATEGORIES } from '../../contract/rules/metrics';
import { sqlList } from '../../scripts/convert/spool/spool';
import { datasetCategories } from '../../src/live/url-state/categories';
import { bootStrictAndLoose, okBody, type BootedFixture } from './fixture-dataset';

const fx = bootStrictAndLoose();

/** `SELECT DISTINCT category FROM services` on the dataset's own Parquet, with native DuckDB. */
async function distinctCategories(f: BootedFixture): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(f.dir, 'manifest.json'), 'utf8')) as DatasetManifest;
  const files = manifest.tables.services.files.map((file) => join(f.dir, file));
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  try {
    const rows = (await con.runAndReadAll(`SELECT DISTINCT category FROM read_parquet([${sqlList(files)}])`)).getRowsJS();
    return rows.map((r) => String(r[0]));
  } finally {
    con.closeSync();
    db.closeSync();
  }
}

describe('category filter', () => {
  it('offers exactly the distinct categories of the dataset\'s services', async () => {
    const listed = await okBody<string[]>(fx.strict, '/api/service-categories');
    const offered = datasetCategories(listed);
    const distinct = await distinctCategories(fx.strict);
    expect([...offered].sort()).toEqual([...distinct].sort());
    expect(listed).toEqual(offered); // already distinct and in order
    // the categories of every service: the same list, without loading every service
    expect(datasetCategories((await okBody<ServiceListItem[]>(fx.strict, '/api/service-names')).map((s) => s.category))).toEqual(offered);
    expect(new Set(offered).size).toBe(offered.length);
    // the fixture's services.csv names them; 'Vaccines' is not a derived category, 'Surgical' not in the data
    expect(offered).toEqual(['Emergency', 'Lab', 'Office visit', 'Radiology', 'Vaccines']);
    expect(offered.filter((c) => !(CATEGORIES as readonly string[]).includes(c))).toEqual(['Vaccines']);
  });

  it('every row carries an offered category, and choosing one keeps only its rows', async () => {
    const offered = datasetCategories(await okBody<string[]>(fx.loose, '/api/service-categories'));
    const all = await okBody<ServicePricingResult>(fx.loose, '/api/service-pricing', { only_overpaying: 'false' });
    expect(all.records.length).toBeGreaterThan(0);
    for (const r of all.records) expect(offered).toContain(r.category);
    let seen = 0;
    for (const category of offered) {
      const some = await okBody<ServicePricingResult>(fx.loose, '/api/service-pricing', { only_overpaying: 'false', category });
      expect(some.records.map((r) => r.category).every((c) => c === category)).toBe(true);
      expect(some.records.map((r) => r.service_code).sort()).toEqual(all.records.filter((r) => r.category === category).map((r) => r.service_code).sort());
      seen += some.records.length;
    }
    expect(seen).toBe(all.records.length);
  });
});
