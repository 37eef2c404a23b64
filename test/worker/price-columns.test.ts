/**
 * Every price column of contract/files/price-columns.ts, end to end: a price with a value in every CMS
 * field of the table, converted by the real converter (test/fixtures/api with one price replaced),
 * gives that value, normalised by the column's kind, in the `rates` parts' column of the table's
 * name, and in the worker's `GET /api/rate-rows` answer under the column's `api` field. The test
 * walks the table: a new entry is checked without a new test.
 *
 * Two prices: Alpha's (the fast path's shape: values as the converter writes them, the parser
 * threads copy the bytes, scripts/convert/ingest/fast-rates.ts) and Beta's (values to normalise: enums in
 * upper case with spaces, code lists unsorted in lower case, texts with spaces; the slow path,
 * scripts/mrf/normalize-price.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatasetManifest } from '../../contract/files/dataset';
import { PRICE_COLUMN_SPECS, type PriceColumnSpec } from '../../contract/files/price-columns';
import type { RateRowsResult } from '../../contract/api';
import { convertCatalog } from '../../scripts/convert/index';
import { createDataService, type DataService } from '../../workers/data-service';
import { nodePlatform } from '../../workers/platform-node';
import { FIXTURE_CATALOG } from './fixture-dataset';

type Variant = 'fast' | 'slow';

/** The JSON value of column `c` (its index `k`) in a price of `variant`, and what the dataset holds of it. */
function sample(c: PriceColumnSpec, k: number, variant: Variant): { json: unknown; stored: string | number } {
  const slow = variant === 'slow';
  switch (c.kind) {
    case 'enum': {
      const v = c.values![0]!;
      return { json: slow ? ` ${v.toUpperCase()} ` : v, stored: v };
    }
    case 'number': {
      const v = 100 + k + (slow ? 0.75 : 0.25);
      return { json: v, stored: v };
    }
    case 'codes': {
      const stored = `${c.pad ? '01' : '1'},B`;
      return { json: slow ? ['b', '1', 'b'] : stored.split(','), stored };
    }
    case 'text': {
      const v = `${variant}-${c.name}`;
      return slow ? { json: `  ${v} `, stored: c.trim ? v : `  ${v} ` } : { json: v, stored: v };
    }
  }
}

/** The price of `variant` (CMS field -> JSON value) and its stored values (column -> value). */
function priceOf(variant: Variant): { json: Record<string, unknown>; stored: Record<string, string | number> } {
  const json: Record<string, unknown> = {};
  const stored: Record<string, string | number> = {};
  PRICE_COLUMN_SPECS.forEach((c, k) => {
    const s = sample(c, k, variant);
    json[c.field] = s.json;
    stored[c.name] = s.stored;
  });
  return { json, stored };
}

const FILES: Record<Variant, { insurer: string; file: string }> = {
  fast: { insurer: 'alpha', file: 'mrf/alpha-2025-02.json' },
  slow: { insurer: 'beta', file: 'mrf/beta-2025-01.json' },
};
const VARIANTS: Variant[] = ['fast', 'slow'];

let root = '';
let service: DataService | null = null;
const parts: Record<string, Array<Record<string, unknown>>> = {};
const answers: Record<string, RateRowsResult> = {};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'compete-price-columns-'));
  await cp(join(FIXTURE_CATALOG, '..'), root, { recursive: true });
  for (const v of VARIANTS) {
    const file = join(root, FILES[v].file);
    const doc = JSON.parse(await readFile(file, 'utf8')) as { in_network: Array<{ billing_code: string; negotiated_rates: Array<{ negotiated_prices: unknown[] }> }> };
    const item = doc.in_network.find((i) => i.billing_code === '99213')!;
    item.negotiated_rates[0]!.negotiated_prices = [priceOf(v).json];
    await writeFile(file, JSON.stringify(doc));
  }
  const out = join(root, 'dataset');
  await convertCatalog(join(root, 'catalog.json'), out, { quiet: true });
  const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')) as DatasetManifest;
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  for (const v of VARIANTS) {
    const source = manifest.sources.findIndex((s) => s.url === FILES[v].file);
    const cols = PRICE_COLUMN_SPECS.map((c) => c.name).join(', ');
    parts[v] = (await con.runAndReadAll(`SELECT ${cols} FROM read_parquet('${out}/rates/*.parquet')
      WHERE billing_code = '99213' AND source_id = ${source}`)).getRowObjectsJS();
  }
  con.closeSync();
  db.closeSync();
  service = createDataService(nodePlatform);
  expect((await service.init({ dataUrl: out + '/' })).status).toBe('ready');
  for (const v of VARIANTS) {
    const res = await service.handle({ method: 'GET', path: '/api/rate-rows', query: { service_id: '99213', insurer_id: FILES[v].insurer } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    answers[v] = res.body as RateRowsResult;
  }
}, 120_000);

afterAll(async () => {
  await service?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

describe.each(VARIANTS)('every price column of contract/files/price-columns.ts (%s path)', (variant) => {
  const { stored } = priceOf(variant);

  it.each(PRICE_COLUMN_SPECS.map((c) => [c.name, c] as const))('%s is in the rates parts, normalised by its kind', (_, c) => {
    const values = parts[variant]!.map((r) => r[c.name]);
    expect(values, JSON.stringify(parts[variant])).toContainEqual(stored[c.name]);
  });

  it.each(PRICE_COLUMN_SPECS.filter((c) => c.api !== null).map((c) => [c.name, c] as const))('%s is in the rate rows under its api field', (_, c) => {
    const rows = answers[variant]!.rows as unknown as Array<Record<string, unknown>>;
    // the price's row: the one whose every price field is the price's (its rate alone is unique already)
    const row = rows.find((r) => PRICE_COLUMN_SPECS.every((x) => x.kind !== 'number' || r[x.api!] === stored[x.name]));
    expect(row, JSON.stringify(rows)).toBeDefined();
    expect(row![c.api!]).toEqual(stored[c.name]);
  });
});
