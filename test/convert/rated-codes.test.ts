/**
 * `services` lists the billing codes that have rows in `rates` (build-tables.ts, ratedCodesSql):
 * read from the prices when the states filter emptied no provider group, from the `rates` rows
 * when it did. Both ways on one file: 99213 has a price for groups 1 and 2; 99214 has none left
 * (its only price, a rate written as a string, is rejected into report.json: the item stays, with
 * no rate row); 99215's only price names group 2, whose one provider is in NY
 * (test/fixtures/convert/npi-registry.csv).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { convertCatalog } from '../../scripts/convert/index';
import { item, price } from './mrf-json';

const FILE = `{"reporting_entity_name":"Rated","reporting_entity_type":"issuer","last_updated_on":"2025-06-01","version":"1.0.0",
"provider_references":[
  {"provider_group_id":1,"provider_groups":[{"npi":[1111111112],"tin":{"type":"ein","value":"111111111"}}]},
  {"provider_group_id":2,"provider_groups":[{"npi":[2222222220],"tin":{"type":"ein","value":"222222222"}}]}],
"in_network":[
  ${item('99213', `{"provider_references":[1,2],"negotiated_prices":[${price(100)}]}`)},
  ${item('99214', `{"provider_references":[1],"negotiated_prices":[${price(100).replace('100', '"100"')}]}`)},
  ${item('99215', `{"provider_references":[2],"negotiated_prices":[${price(80)}]}`)}]}`;

let tmp: string;

async function servicesOf(states?: string[]): Promise<string[]> {
  const out = path.join(tmp, `out-${states ? states.join('') : 'all'}`);
  const catalog = path.join(tmp, `catalog-${states ? 'states' : 'all'}.json`);
  await writeFile(catalog, JSON.stringify({
    reference_insurer: 'r', insurers: [{ id: 'r', name: 'R', files: [{ url: 'f.json' }] }],
    npi_registry: 'npi-registry.csv', ...(states ? { filters: { states } } : {}),
  }));
  const { manifest } = await convertCatalog(catalog, out, { quiet: true });
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  try {
    const r = await con.runAndReadAll(`SELECT billing_code FROM read_parquet('${path.join(out, manifest.tables.services.files[0]!)}') ORDER BY 1`);
    return r.getRows().map((row) => String(row[0]));
  } finally {
    con.closeSync();
    db.closeSync();
  }
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-rated-codes-'));
  await writeFile(path.join(tmp, 'f.json'), FILE);
  await copyFile(path.resolve(__dirname, '../fixtures/convert/npi-registry.csv'), path.join(tmp, 'npi-registry.csv'));
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('services of the rated billing codes', () => {
  it('without a states filter: every code with a price, not the item without one', async () => {
    expect(await servicesOf()).toEqual(['99213', '99215']);
  });

  it('with a states filter: not the code whose every row the filter dropped', async () => {
    expect(await servicesOf(['CA'])).toEqual(['99213']);
  });
});
