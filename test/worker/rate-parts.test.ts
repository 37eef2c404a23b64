/**
 * A `rates` part's row is a price with the list of its provider groups' ids (contract/files/dataset.ts);
 * the worker unnests it to the rate rows (workers/db/rates.ts, rateRowsSql). Three datasets that
 * hold the same rate rows must answer every /api call alike:
 * - `merged`: the api fixture (test/fixtures/api) where Alpha's price of 90 for 99213 names groups
 *   1 and 2 in one rate (one part row, a list of two ids);
 * - `split`: the same price written as two rates, one per group (two part rows of one id each).
 * The answers must also differ from the unmodified fixture's, where the price names group 1 only:
 * a worker that kept a list's first id alone would give the fixture's answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatasetManifest } from '../../contract/files/dataset';
import { convertCatalog } from '../../scripts/convert/index';
import { createDataService, type DataService } from '../../workers/data-service';
import { nodePlatform } from '../../workers/platform-node';
import { FIXTURE_CATALOG } from './fixture-dataset';

interface Rate {
  provider_references: number[];
  negotiated_prices: unknown[];
}
interface InNetworkFile {
  in_network: Array<{ billing_code: string; negotiated_rates: Rate[] }>;
}

const REQUESTS: Array<[string, Record<string, string>]> = [
  ['/api/service-pricing', {}],
  ['/api/regional-comparison', {}],
  ['/api/regional-services', { state: 'CA' }],
  ['/api/providers-for-service', { service_id: '99213' }],
  ['/api/providers-for-service', { service_id: '70450' }],
  ['/api/service-price-details', { service_id: '99213', provider_id: '2222222228', insurer_id: 'alpha' }],
  ['/api/service-price-details', { service_id: '99213', provider_id: '1111111112', insurer_id: 'alpha' }],
  ['/api/insurers-for-service', { service_id: '99213' }],
  ['/api/rate-rows', { service_id: '99213', insurer_id: 'alpha' }],
  ['/api/rate-rows', { service_id: '99213', insurer_id: 'alpha', state: 'CA' }],
];

let root = '';
const services: DataService[] = [];

/** Copies the api fixture into `dir`, with Alpha's 99213 rates rewritten by `edit`; converts it; returns the dataset dir. */
async function convertEdited(dir: string, edit: (rates: Rate[]) => Rate[]): Promise<string> {
  await cp(join(FIXTURE_CATALOG, '..'), dir, { recursive: true });
  const file = join(dir, 'mrf/alpha-2025-02.json');
  const doc = JSON.parse(await readFile(file, 'utf8')) as InNetworkFile;
  const item = doc.in_network.find((i) => i.billing_code === '99213')!;
  item.negotiated_rates = edit(item.negotiated_rates);
  await writeFile(file, JSON.stringify(doc));
  const out = join(dir, 'dataset');
  await convertCatalog(join(dir, 'catalog.json'), out, { quiet: true });
  return out;
}

/** Every answer of REQUESTS from the dataset in `dir`. */
async function answers(dir: string): Promise<unknown[]> {
  const service = createDataService(nodePlatform);
  services.push(service);
  expect((await service.init({ dataUrl: dir + '/' })).status).toBe('ready');
  const out: unknown[] = [];
  for (const [path, query] of REQUESTS) {
    const res = await service.handle({ method: 'GET', path, query });
    expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(200);
    out.push(res.body);
  }
  return out;
}

let merged: unknown[];
let split: unknown[];
let original: unknown[];
let mergedParts: unknown[][];
let alphaSource = -1;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'compete-rate-parts-'));
  const m = await convertEdited(join(root, 'merged'), (rates) => {
    expect(rates[0]!.provider_references).toEqual([1]);
    return [{ ...rates[0]!, provider_references: [1, 2] }, ...rates.slice(1)];
  });
  const s = await convertEdited(join(root, 'split'), (rates) => [rates[0]!, { ...rates[0]!, provider_references: [2] }, ...rates.slice(1)]);
  const o = await convertEdited(join(root, 'original'), (rates) => rates);
  const manifest = JSON.parse(await readFile(join(m, 'manifest.json'), 'utf8')) as DatasetManifest;
  alphaSource = manifest.sources.findIndex((x) => x.url === 'mrf/alpha-2025-02.json');
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  mergedParts = (await con.runAndReadAll(`SELECT source_id, negotiated_rate, provider_group_ids FROM read_parquet('${m}/rates/*.parquet')
    WHERE billing_code = '99213' ORDER BY ALL`)).getRowsJS();
  con.closeSync();
  db.closeSync();
  merged = await answers(m);
  split = await answers(s);
  original = await answers(o);
}, 120_000);

afterAll(async () => {
  for (const s of services) await s.close();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('rates parts of one row per price', () => {
  it('hold the merged price once, with both ids in the file\'s order', () => {
    expect(alphaSource).toBeGreaterThanOrEqual(0);
    expect(mergedParts.filter((r) => r[0] === alphaSource)).toEqual([[alphaSource, 90, ['1', '2']], [alphaSource, 110, ['3']]]);
  });

  it('answer as the same rate rows written one group per rate', () => {
    for (const [k, [path, query]] of REQUESTS.entries()) expect(merged[k], `${path} ${JSON.stringify(query)}`).toEqual(split[k]);
  });

  it('count the second group: the answers differ from the fixture\'s, where the price names group 1 only', () => {
    const differ = REQUESTS.filter((_, k) => JSON.stringify(merged[k]) !== JSON.stringify(original[k])).map(([p]) => p);
    // B (group 2) gets Alpha's price of 90: its price details and Alpha's rate rows change
    expect(differ, differ.join()).toEqual(expect.arrayContaining(['/api/service-price-details', '/api/rate-rows']));
  });
});
