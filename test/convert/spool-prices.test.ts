/**
 * The spool's price rows (spool-rows.ts -> spool.ts): one CSV row per negotiated price carrying the
 * ids of the groups its rate names, expanded by the `raw_rates` view to one row per price x group
 * (never x NPIs), with NULL for a rate that names no group, and ids kept exactly as text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openSpool, type Spool } from '../../scripts/convert/spool';
import { SpoolRows } from '../../scripts/convert/spool-rows';
import type { MrfPrice } from '../../scripts/mrf/types';

const price = (rate: number): MrfPrice => ({
  negotiated_type: 'negotiated', negotiated_rate: rate, expiration_date: '9999-12-31', billing_class: 'professional',
  service_code: ['11'], billing_code_modifier: [], additional_information: '', setting: '',
});

let tmp: string;
let spool: Spool;
let rows: SpoolRows;
let csv: string;
let expanded: Array<[number, string | null, number]>;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-spool-prices-'));
  rows = new SpoolRows(path.join(tmp, 'w0-s3'), 3);
  // item 0: two prices named by groups 690.64470 and "a,\"b" -> 2 x 2 = 4 rows
  rows.rate(0, 0, { provider_references: ['690.64470', 'a,"b'], provider_groups: [], prices: [price(10), price(20)] });
  // item 1: one price naming no group -> 1 row, group NULL
  rows.rate(1, 0, { provider_references: [], provider_groups: [], prices: [price(30)] });
  // item 2: one price, one inline group of one NPI -> 1 row, group inline:<hash>
  rows.rate(2, 0, { provider_references: [], provider_groups: [[{ npi: '1000000001', tin_type: 'ein', tin_value: '11-1' }]], prices: [price(40)] });
  const files = rows.close();
  csv = await readFile(files.raw_prices!, 'utf8');
  spool = await openSpool(tmp);
  await spool.load('raw_prices', [files.raw_prices!]);
  const r = await spool.con.runAndReadAll(
    'SELECT item_id, provider_group_id, negotiated_rate FROM raw_rates ORDER BY item_id, negotiated_rate, provider_group_id');
  expanded = r.getRows().map(([i, g, v]) => [Number(i), g === null ? null : String(g), Number(v)]);
});

afterAll(async () => {
  spool?.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('spooled price rows', () => {
  it('writes one CSV row per price, not per price x group', () => {
    // 2 + 1 + 1 prices
    expect(csv.trimEnd().split('\n')).toHaveLength(4);
    // the expanded count is still what the manifest reports: 2 x 2 + 1 + 1 = 6
    expect(rows.priceRows).toBe(6);
  });

  it('expands them in SQL to one row per price and group, ids as published', () => {
    const inline = expanded.find((e) => e[0] === 2)![1]!;
    expect(inline).toMatch(/^inline:[0-9a-f]{16}$/);
    expect(expanded).toEqual([
      [0, '690.64470', 10], [0, 'a,"b', 10],
      [0, '690.64470', 20], [0, 'a,"b', 20],
      [1, null, 30],
      [2, inline, 40],
    ]);
  });
});
