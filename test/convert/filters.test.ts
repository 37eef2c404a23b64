/**
 * The catalog's filters (docs/converter.md, The catalog: `filters`): an `in_network` item whose billing code is
 * filtered out is skipped before any parse (its body here is not even JSON: parsing it would
 * report `invalid_json`, as the kept broken item does); the state filter keeps only providers
 * located in those states, and drops the rates of groups left without provider; a provider group
 * named only by filtered-out items is not in the dataset.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { convertCatalog } from '../../scripts/convert/index';
import type { ConversionReport } from '../../scripts/convert/common/problems';
import type { DatasetManifest, TableName } from '../../contract/files/dataset';
import { rateRowsSql } from '../../contract/sql/rate-rows-sql';
import { item, price } from './mrf-json';

// NPIs 1111111112 and 3333333334 are in CA, 2222222220 in NY (test/fixtures/convert/npi-registry.csv);
// group 3 is named only by 99216, which the billing-code filter drops.
const FILE = `{"reporting_entity_name":"Filter Plan","reporting_entity_type":"issuer","last_updated_on":"2025-06-01","version":"1.0.0",
"provider_references":[
  {"provider_group_id":1,"provider_groups":[{"npi":[1111111112,2222222220],"tin":{"type":"ein","value":"111111111"}}]},
  {"provider_group_id":2,"provider_groups":[{"npi":[2222222220],"tin":{"type":"ein","value":"222222222"}}]},
  {"provider_group_id":3,"provider_groups":[{"npi":[3333333334],"tin":{"type":"ein","value":"333333333"}}]}],
"in_network":[
  ${item('99213', `{"provider_references":[1,2],"negotiated_prices":[${price(100)}]},{"provider_references":[2],"negotiated_prices":[${price(120)}]}`)},
  {"billing_code":"99214","negotiated_rates":[ this is not JSON ]},
  {"billing_code":"99215","negotiated_rates":[ neither is this ]},
  ${item('99216', `{"provider_references":[1,3],"negotiated_prices":[${price(50)}]}`)}]}`;

let tmp: string;
let manifest: DatasetManifest;
let report: ConversionReport;
const lines: string[] = [];

async function query(sql: string): Promise<unknown[]> {
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  try {
    return (await con.runAndReadAll(sql)).getRowObjectsJS();
  } finally {
    con.closeSync();
    db.closeSync();
  }
}

const table = (name: TableName): string => `read_parquet('${path.join(tmp, 'out', manifest.tables[name].files[0]!)}')`;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-filters-'));
  await writeFile(path.join(tmp, 'f.json'), FILE);
  await writeFile(path.join(tmp, 'codes.txt'), '# kept codes\n99213\r\n 99215 \n\n');
  await copyFile(path.resolve(__dirname, '../fixtures/convert/npi-registry.csv'), path.join(tmp, 'npi-registry.csv'));
  await writeFile(path.join(tmp, 'catalog.json'), JSON.stringify({
    reference_insurer: 'f', insurers: [{ id: 'f', name: 'F', files: [{ url: 'f.json' }] }],
    npi_registry: 'npi-registry.csv', filters: { billing_codes: 'codes.txt', states: ['ca'] },
  }));
  ({ manifest } = await convertCatalog(path.join(tmp, 'catalog.json'), path.join(tmp, 'out'), { log: (l) => void lines.push(l) }));
  report = JSON.parse(await readFile(path.join(tmp, 'out', 'report.json'), 'utf8')) as ConversionReport;
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('catalog filters', () => {
  it('skips the filtered-out items before any parse: 99214 and 99216 skipped, only the kept broken 99215 reported', () => {
    expect(lines[0]).toMatch(/^f\.json: 1 items, 2 skipped by the filter, /);
    expect(report.problems.map((p) => [p.code, p.path])).toEqual([['invalid_json', '$.in_network[2]']]);
  });

  it('keeps only providers in the filtered states and the rates of groups that keep one', async () => {
    // 3333333334 (CA) is left out too: its group 3 is named only by the filtered-out 99216
    expect(await query(`SELECT provider_id, state FROM ${table('providers')}`)).toEqual([{ provider_id: '1111111112', state: 'CA' }]);
    expect(await query(`SELECT provider_group_key, provider_id FROM ${table('provider_groups')}`)).toEqual([
      { provider_group_key: '0:1', provider_id: '1111111112' },
    ]);
    // 99213's price of 100 names groups 1 and 2: group 2 (NY only) keeps no provider, its row is dropped;
    // the price of 120 names group 2 alone: the price leaves the rates part
    expect(await query(`SELECT billing_code, provider_group_key, negotiated_rate FROM (${rateRowsSql(table('rates'))})`)).toEqual([
      { billing_code: '99213', provider_group_key: '0:1', negotiated_rate: 100 },
    ]);
    expect(await query(`SELECT negotiated_rate, provider_group_ids FROM ${table('rates')}`)).toEqual([{ negotiated_rate: 100, provider_group_ids: ['1'] }]);
    expect(manifest.counts.rate_rows).toBe(1);
    // group 2 is resolved but emptied by the filter: the manifest counts group 1 only
    expect(manifest.counts.provider_groups).toBe(1);
  });
});

// A schema 2.0 file whose provider references name their networks: one table of contents or file
// can hold several products of an insurer, which a catalog entry's network_name splits.
const NETWORKS_FILE = `{"reporting_entity_name":"Network Plan","reporting_entity_type":"issuer","last_updated_on":"2025-10-01","version":"2.0.0",
"provider_references":[
  {"provider_group_id":1,"network_name":["Choice Plus PPO"],"provider_groups":[{"npi":[1111111112],"tin":{"type":"ein","value":"111111111"}}]},
  {"provider_group_id":2,"network_name":["Navigate HMO"],"provider_groups":[{"npi":[2222222220],"tin":{"type":"ein","value":"222222222"}}]},
  {"provider_group_id":3,"network_name":["Choice Plus PPO","Navigate HMO"],"provider_groups":[{"npi":[3333333334],"tin":{"type":"ein","value":"333333333"}}]}],
"in_network":[
  ${item('99213', `{"provider_references":[1,2],"negotiated_prices":[${price(100)}]},{"provider_references":[2],"negotiated_prices":[${price(120)}]},{"provider_references":[3],"negotiated_prices":[${price(90)}]}`)}]}`;

describe("a files[] entry's network_name", () => {
  let dir: string;
  let split: DatasetManifest;
  let warnings: string[];
  const rows = async (): Promise<unknown[]> => query(
    `SELECT insurer_id, provider_id, negotiated_rate FROM (${rateRowsSql(`read_parquet('${path.join(dir, 'out', split.tables.rates.files[0]!)}')`)})
     JOIN read_parquet('${path.join(dir, 'out', split.tables.provider_groups.files[0]!)}') USING (provider_group_key)
     ORDER BY ALL`);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'compete-networks-'));
    await writeFile(path.join(dir, 'n.json'), NETWORKS_FILE);
    // a schema 1.x file names no network: the filter keeps every group, with a warning
    await writeFile(path.join(dir, 'v1.json'), FILE.replace(/\{"billing_code":"9921[45]","negotiated_rates":\[ [^\]]+\]\},\s*/g, ''));
    await writeFile(path.join(dir, 'catalog.json'), JSON.stringify({
      reference_insurer: 'ppo',
      insurers: [
        { id: 'ppo', name: 'Choice Plus PPO', group: 'Network Co', files: [{ url: 'n.json', network_name: '\\bppo\\b' }] },
        { id: 'hmo', name: 'Navigate HMO', group: 'Network Co', files: [{ url: 'n.json', network_name: 'navigate hmo' }] },
        { id: 'old', name: 'Old', files: [{ url: 'v1.json', network_name: 'ppo' }] },
        // a misspelt network keeps nothing of the file, with a warning naming its networks
        { id: 'typo', name: 'Typo', files: [{ url: 'n.json', network_name: 'choise' }] },
      ],
    }));
    const r = await convertCatalog(path.join(dir, 'catalog.json'), path.join(dir, 'out'), { quiet: true });
    split = r.manifest;
    warnings = (JSON.parse(await readFile(path.join(dir, 'out', 'report.json'), 'utf8')) as ConversionReport).warnings;
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps in each product only the provider groups of its networks, the others filtered out and not unresolved', async () => {
    expect(await rows()).toEqual([
      // group 2 (HMO only) of the price of 100 and the price of 120 are the HMO product's
      { insurer_id: 'hmo', provider_id: '2222222220', negotiated_rate: 100 },
      { insurer_id: 'hmo', provider_id: '2222222220', negotiated_rate: 120 },
      // group 3 is in both networks
      { insurer_id: 'hmo', provider_id: '3333333334', negotiated_rate: 90 },
      // the schema 1.x file keeps every group: 1 (two NPIs) and 2 for the price of 100, 2 for 120, 1 and 3 for 99216's 50
      { insurer_id: 'old', provider_id: '1111111112', negotiated_rate: 50 },
      { insurer_id: 'old', provider_id: '1111111112', negotiated_rate: 100 },
      { insurer_id: 'old', provider_id: '2222222220', negotiated_rate: 50 },
      { insurer_id: 'old', provider_id: '2222222220', negotiated_rate: 100 },
      { insurer_id: 'old', provider_id: '2222222220', negotiated_rate: 100 },
      { insurer_id: 'old', provider_id: '2222222220', negotiated_rate: 120 },
      { insurer_id: 'old', provider_id: '3333333334', negotiated_rate: 50 },
      { insurer_id: 'ppo', provider_id: '1111111112', negotiated_rate: 100 },
      { insurer_id: 'ppo', provider_id: '3333333334', negotiated_rate: 90 },
    ]);
    const counts = Object.fromEntries(split.sources.map((s) => [s.insurer_id, [s.rate_rows, s.unresolved_rate_rows]]));
    expect(counts).toEqual({ ppo: [2, 0], hmo: [3, 0], old: [5, 0], typo: [0, 0] });
    expect(split.insurers.map((i) => [i.id, i.group])).toEqual([['ppo', 'Network Co'], ['hmo', 'Network Co'], ['old', 'Old'], ['typo', 'Typo']]);
  });

  it('warns once for a file that names no network, and for a pattern that matches none of its networks, naming them', () => {
    expect(warnings.filter((w) => w.includes('no provider reference names its network'))).toEqual([
      'v1.json: no provider reference names its network (network_name, schema 2.0); the filter network_name "ppo" keeps every provider group',
    ]);
    expect(warnings.filter((w) => w.includes('matches none of its networks'))).toEqual([
      'n.json: the filter network_name "choise" matches none of its networks ("Choice Plus PPO", "Navigate HMO"); none of its rates is kept',
    ]);
  });
});
