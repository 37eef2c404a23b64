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
import { rateText, SpoolRows } from '../../scripts/convert/spool-rows';
import { mulberry32 } from '../../contract/prng';
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

describe('the CSV text of rates and long lines', () => {
  let dir: string;
  let db: Spool;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'compete-spool-text-'));
  });
  afterAll(async () => {
    db?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('gives DuckDB the same doubles back, with the whole-cent fast path and without', async () => {
    const rnd = mulberry32(7);
    const rates = [0, -0, 0.1, 0.2, 0.1 + 0.2, 0.3, 1, 1.5, 1.05, 10.1, 99.99, 100, 123.45, 123.456, 1e-7, 5e-324,
      -12.34, 1e21, 123456789012.34, 90071992547409.91, Number.MAX_SAFE_INTEGER, 1.7976931348623157e308, 0.015, 2.675];
    for (let k = 0; k < 3000; k++) rates.push(Number((rnd() * 10_000).toFixed(2)), rnd() * 1000, Number((rnd() * 100).toFixed(3)));
    const rows = new SpoolRows(path.join(dir, 'w0-s1'), 1);
    rates.forEach((r, k) => rows.rate(k, 0, { provider_references: ['1'], provider_groups: [], prices: [price(r)] }));
    const files = rows.close();
    db = await openSpool(dir);
    await db.load('raw_prices', [files.raw_prices!]);
    const back = (await db.con.runAndReadAll('SELECT item_id, negotiated_rate FROM raw_prices ORDER BY item_id')).getRows();
    expect(back.map(([, v]) => Number(v))).toEqual(rates.map((r) => (Object.is(r, -0) ? 0 : r)));
    // the fast path's texts are short decimals, not String()'s exponent forms
    expect([rateText(123.45), rateText(1.5), rateText(1.05), rateText(100), rateText(0.1 + 0.2)]).toEqual(['123.45', '1.5', '1.05', '100', '0.30000000000000004']);
  });

  it('writes lines longer than the buffer and multi-byte text across its flushes', async () => {
    const long = 'é'.repeat(400_000) + ',"x"';
    const rows = new SpoolRows(path.join(dir, 'w0-s2'), 2);
    const infos: string[] = [];
    for (let k = 0; k < 30_000; k++) infos.push(k === 17_000 ? long : `note ${k} – ${'ü'.repeat(k % 40)}`);
    infos.forEach((info, k) => rows.rate(k, 0, { provider_references: ['1'], provider_groups: [], prices: [{ ...price(1), additional_information: info }] }));
    const files = rows.close();
    const spool2 = await openSpool(path.join(dir));
    try {
      await spool2.load('raw_prices', [files.raw_prices!]);
      const back = (await spool2.con.runAndReadAll('SELECT additional_information FROM raw_prices ORDER BY item_id')).getRows();
      expect(back.length).toBe(infos.length);
      expect(back.every(([a], k) => a === infos[k])).toBe(true);
    } finally {
      spool2.close();
    }
  });
});
