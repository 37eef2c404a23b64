/**
 * The spool's price rows (spool-rows.ts -> spool.ts): one CSV row per negotiated price carrying the
 * ids of the groups its rate names, expanded by the `raw_rates` view to one row per price x group
 * (never x NPIs), with NULL for a rate that names no group, and ids kept exactly as text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MAX_KEY_BYTES, PRICE_VALUE_COLUMNS } from '../../scripts/convert/spool/price-values';
import { openSpool, valueJoins, type Spool } from '../../scripts/convert/spool/spool';
import { SpoolRows } from '../../scripts/convert/spool/spool-rows';
import { mulberry32 } from '../../contract/rules/prng';
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
  csv = await readFile(files.raw_prices![0]!, 'utf8');
  spool = await openSpool(tmp);
  await spool.loadPrices({ prices: files.raw_prices!, values: files.raw_values!, shapes: files.raw_shapes ?? [], valueCodes: rows.valueCodes, shapeCodes: rows.shapeCodes });
  const r = await spool.con.runAndReadAll(
    'SELECT item_id, provider_group_id, negotiated_rate FROM raw_rates ORDER BY item_id, negotiated_rate, provider_group_id');
  expanded = r.getRows().map(([i, g, v]) => [Number(i), g === null ? null : String(g), Number(v)]);
});

afterAll(async () => {
  await spool?.close();
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

describe('the CSV text of rates, text fields and long lines', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'compete-spool-text-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Writes `prices` as item k's rate 0 (named by `refs[k]`), loads them and returns raw_prices by item, its codes decoded. */
  async function roundTrip(name: string, prices: MrfPrice[], refs?: string[][]): Promise<{ csv: string; rows: Array<Record<string, unknown>> }> {
    const rows = new SpoolRows(path.join(dir, name), 1);
    prices.forEach((p, k) => rows.rate(k, 0, { provider_references: refs?.[k] ?? ['1'], provider_groups: [], prices: [p] }));
    const files = rows.close();
    const spool2 = await openSpool(dir);
    try {
      await spool2.loadPrices({ prices: files.raw_prices!, values: files.raw_values!, shapes: files.raw_shapes ?? [], valueCodes: rows.valueCodes, shapeCodes: rows.shapeCodes });
      const v = valueJoins('p');
      const r = await spool2.con.runAndReadAll(`SELECT p.* EXCLUDE (${PRICE_VALUE_COLUMNS.join(', ')}),
        ${PRICE_VALUE_COLUMNS.map((c) => `${v.value(c)} AS ${c}`).join(', ')} FROM raw_prices p ${v.joins} ORDER BY item_id`);
      return { csv: await readFile(files.raw_prices![0]!, 'utf8'), rows: r.getRowObjects() };
    } finally {
      await spool2.close();
    }
  }

  it('gives DuckDB the same doubles back, whole cents as short decimals', async () => {
    const rnd = mulberry32(7);
    const rates = [0, -0, 0.1, 0.2, 0.1 + 0.2, 0.3, 1, 1.5, 1.05, 10.1, 99.99, 100, 123.45, 123.456, 1e-7, 5e-324,
      -12.34, 1e21, 123456789012.34, 2147483647.99, 2147483648.01, 90071992547409.91, Number.MAX_SAFE_INTEGER, 1.7976931348623157e308, 0.015, 2.675];
    for (let k = 0; k < 3000; k++) rates.push(Number((rnd() * 10_000).toFixed(2)), rnd() * 1000, Number((rnd() * 100).toFixed(3)));
    const { csv, rows } = await roundTrip('rates', rates.map(price));
    expect(rows.map((r) => Number(r.negotiated_rate))).toEqual(rates.map((r) => (Object.is(r, -0) ? 0 : r)));
    const texts = csv.split('\n').slice(0, 11).map((l) => l.split(',')[6]);
    expect(texts).toEqual(['0', '0', '0.1', '0.2', '0.30000000000000004', '0.3', '1', '1.5', '1.05', '10.1', '99.99']);
  });

  it('gives each price its shape back, shapes cut by buffer flushes and shared by many prices', async () => {
    // code lists of up to ~3 kB: the buffer (1 MB) is written out in the middle of some prices'
    // shapes, whose bytes must then be kept; 40 lists x 3 classes x 2 dates: shapes repeat
    const rnd = mulberry32(12);
    const lists = Array.from({ length: 40 }, (_, k) => Array.from({ length: 1 + Math.floor(rnd() * 120) }, (_, j) => String((k * 7 + j) % 100).padStart(2, '0')));
    const classes = ['professional', 'institutional', 'both'];
    const prices = Array.from({ length: 100_000 }, (_, k): MrfPrice => ({
      ...price(k + 1), billing_class: classes[k % 3]!, service_code: lists[Math.floor(rnd() * lists.length)]!,
      expiration_date: k % 5 === 0 ? '2025-12-31' : '9999-12-31', billing_code_modifier: k % 7 === 0 ? ['26'] : [],
    }));
    const { csv, rows } = await roundTrip('shapes', prices);
    expect(Buffer.byteLength(csv)).toBeGreaterThan(0);
    expect(rows).toHaveLength(prices.length);
    const want = prices.map((p) => [p.billing_class, p.service_code.join(','), p.expiration_date, p.billing_code_modifier.join(',')].join('|'));
    const got = rows.map((r) => [r.billing_class, r.service_codes, r.expiration_date, r.modifiers].join('|'));
    expect(got.findIndex((g, k) => g !== want[k])).toBe(-1);
    // shapes are shared: fewer codes than prices (a code list longer than MAX_KEY_BYTES has a code, so a shape, of its own each time)
    const long = prices.filter((p) => p.service_code.join(',').length + 2 > MAX_KEY_BYTES).length;
    expect(new Set(csv.trimEnd().split('\n').map((l) => l.split(',')[5])).size).toBeLessThan(long + (prices.length - long) / 2);
  });

  it('keeps text fields exactly: quotes, commas, line breaks, non-ASCII, empty versus absent', async () => {
    const texts = ['plain', 'a,b', 'say "hi"', 'two\nlines', 'cr\rhere', 'é ü ß 日本 😀', '"', ',', '', 'x'.repeat(5000)];
    const prices = texts.map((x, k): MrfPrice => ({
      ...price(k + 1), additional_information: x, setting: k % 2 ? x : '', expiration_date: x,
      service_code: k % 3 === 0 ? [] : k % 3 === 1 ? [x || 'Z'] : [x || 'Z', 'A"B'],
      billing_code_modifier: x === '' ? [] : k % 2 ? [x, 'M"1', 'ç'] : [x, '"Q"'],
    }));
    const refs = texts.map((x, k) => (x === '' ? [] : [x, `g${k}`]));
    const { rows } = await roundTrip('texts', prices, refs);
    expect(rows).toHaveLength(texts.length);
    rows.forEach((r, k) => {
      const p = prices[k]!;
      expect(r.additional_information).toBe(p.additional_information === '' ? null : p.additional_information);
      expect(r.setting).toBe(p.setting === '' ? null : p.setting);
      expect(r.service_codes).toBe(p.service_code.join(','));
      expect(r.modifiers).toBe(p.billing_code_modifier.join(','));
      expect(r.provider_group_ids).toBe(refs[k]!.length ? refs[k]!.join('\x1f') : null);
    });
  });

  it('writes lines longer than the buffer and multi-byte text across its flushes', async () => {
    const long = 'é'.repeat(400_000) + ',"x"';
    const infos: string[] = [];
    for (let k = 0; k < 30_000; k++) infos.push(k === 17_000 ? long : `note ${k} – ${'ü'.repeat(k % 40)}`);
    const { rows } = await roundTrip('long', infos.map((info) => ({ ...price(1), additional_information: info })));
    expect(rows.length).toBe(infos.length);
    expect(rows.every((r, k) => r.additional_information === infos[k])).toBe(true);
  });
});

describe('the working database', () => {
  it('stores a large load compressed, a small one as loaded', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'compete-spool-compress-'));
    try {
      const rows = new SpoolRows(path.join(dir, 'w0-s1'), 1);
      for (let k = 0; k < 200_000; k++) rows.rate(k >> 4, k & 15, { provider_references: [String(k % 977)], provider_groups: [], prices: [price(10 + (k % 50))] });
      const files = rows.close();
      const compressions = async (checkpointCsvBytes: number): Promise<Set<string>> => {
        const db = await openSpool(dir, { checkpointCsvBytes });
        try {
          await db.loadPrices({ prices: files.raw_prices!, values: files.raw_values!, shapes: files.raw_shapes ?? [], valueCodes: rows.valueCodes, shapeCodes: rows.shapeCodes });
          const r = await db.con.runAndReadAll(`SELECT DISTINCT compression FROM pragma_storage_info('raw_price_rows') WHERE column_name = 'provider_group_ids'`);
          return new Set(r.getRows().map(([c]) => String(c)));
        } finally {
          await db.close();
        }
      };
      const compressed = await compressions(1 << 20);
      expect(compressed.has('Uncompressed')).toBe(false);
      expect([...compressed].some((c) => /DICT|FSST/i.test(c))).toBe(true);
      expect(await compressions(1 << 30)).toEqual(new Set(['Uncompressed']));

      // loads each below the threshold, past it together (a file's free-text values, then its
      // prices): stored compressed once their sum passes it, not held uncompressed to the end
      const bytes = (await stat(files.raw_prices![0]!)).size;
      const afterTwo = async (checkpointCsvBytes: number): Promise<Set<string>> => {
        const db = await openSpool(dir, { checkpointCsvBytes });
        try {
          await db.loadPrices({ prices: files.raw_prices!, values: files.raw_values!, shapes: files.raw_shapes ?? [], valueCodes: rows.valueCodes, shapeCodes: rows.shapeCodes });
          await db.loadPrices({ prices: files.raw_prices!, values: files.raw_values!, shapes: files.raw_shapes ?? [], valueCodes: rows.valueCodes, shapeCodes: rows.shapeCodes });
          const r = await db.con.runAndReadAll(`SELECT DISTINCT compression FROM pragma_storage_info('raw_price_rows') WHERE column_name = 'provider_group_ids'`);
          return new Set(r.getRows().map(([c]) => String(c)));
        } finally {
          await db.close();
        }
      };
      expect((await afterTwo(Math.ceil(1.5 * bytes))).has('Uncompressed')).toBe(false);
      expect(await afterTwo(3 * bytes)).toEqual(new Set(['Uncompressed']));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('spools a large table in parts and loads them one at a time, each stored compressed before the next', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'compete-spool-parts-'));
    try {
      const write = (name: string, partBytes: number): ReturnType<SpoolRows['close']> => {
        const rows = new SpoolRows(path.join(dir, name), 1);
        for (let k = 0; k < 60_000; k++) {
          rows.rate(k >> 4, k & 15, { provider_references: [String(k % 977), 'a,"b'], provider_groups: [], prices: [price(10 + (k % 50)), price(0.5)] });
          if (k % 1000 === 999) rows.endBatch(partBytes); // a batch of the parser thread
        }
        return rows.close();
      };
      const whole = write('whole', 1 << 30).raw_prices!;
      const parts = write('parts', 1 << 20).raw_prices!;
      expect(whole).toEqual([path.join(dir, 'whole-raw_prices.csv')]);
      expect(parts.length).toBeGreaterThan(3);
      expect(parts.slice(0, 3)).toEqual(['', '-1', '-2'].map((n) => path.join(dir, `parts-raw_prices${n}.csv`)));
      const texts = await Promise.all(parts.map((f) => readFile(f, 'utf8')));
      // a part ends with its batch, past the limit by at most one batch (~150 kB here)
      for (const t of texts.slice(0, -1)) expect(Buffer.byteLength(t)).toBeGreaterThanOrEqual(1 << 20);
      for (const t of texts) expect(Buffer.byteLength(t)).toBeLessThan((1 << 20) + (200 << 10));
      expect(texts.join('')).toBe(await readFile(whole[0]!, 'utf8'));

      const load = async (files: string[]): Promise<{ statements: string[]; table: string; compressions: Set<string> }> => {
        const db = await openSpool(dir, { checkpointCsvBytes: 1 << 20 });
        const statements: string[] = [];
        const run = db.con.run.bind(db.con);
        db.con.run = (sql, ...rest) => {
          statements.push(sql.trim().split(/\s+/)[0]!);
          return run(sql, ...rest);
        };
        try {
          await db.loadPrices({ prices: files, values: [], shapes: [], valueCodes: 0, shapeCodes: 0 }); // the codes' texts (raw_values, raw_shapes) play no part here
          const loaded = statements.splice(0);
          const t = await db.con.runAndReadAll(`SELECT count(*), sum(negotiated_rate), count(DISTINCT provider_group_ids), min(item_id), max(item_id) FROM raw_price_rows`);
          const c = await db.con.runAndReadAll(`SELECT DISTINCT compression FROM pragma_storage_info('raw_price_rows') WHERE column_name = 'shape'`);
          return { statements: loaded, table: JSON.stringify(t.getRows().map((r) => r.map(String))), compressions: new Set(c.getRows().map(([x]) => String(x))) };
        } finally {
          await db.close();
        }
      };
      const one = await load(whole);
      const many = await load(parts);
      expect(many.table).toBe(one.table);
      expect(JSON.parse(many.table)[0][0]).toBe('120000');
      expect(one.statements).toEqual(['INSERT', 'CHECKPOINT']);
      expect(many.statements).toEqual(parts.flatMap(() => ['INSERT', 'CHECKPOINT']));
      expect(many.compressions.has('Uncompressed')).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
