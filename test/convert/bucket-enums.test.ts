/**
 * The ENUM columns of a bucket's prices (code-buckets.ts planBucketEnums): columns of few values
 * become ENUMs, columns of many or long values stay VARCHAR, and the `rates` part written from
 * them reads back as text with every value as spooled: '' apart from NULL, the same rows as with no
 * ENUM at all, and the billing codes' row-group statistics of the part's own rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildWorkingTables } from './working-tables';
import { BUCKET_PRICES_ORDER, ENUM_MAX_BYTES, ENUM_MAX_VALUES, bucketPricesPlan, bucketPricesSql } from '../../scripts/convert/build/stats/code-buckets';
import { MEDIANS_COLUMNS } from '../../scripts/convert/build/stats/build-price-stats';
import { writeDataset } from '../../scripts/convert/build/output/write-dataset';
import { openSpool } from '../../scripts/convert/spool/spool';

let tmp: string;

/** The rows of the spool below: 2 items, ENUM_MAX_VALUES + 1 prices. */
const PRICES = ENUM_MAX_VALUES + 1;
const LONG = 'x'.repeat(ENUM_MAX_BYTES + 1);

/** CSV field as spool-rows.ts writes it: quoted when it holds a quote, comma or is empty. */
const field = (v: string | null): string => (v === null ? '' : v === '' || /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/**
 * One price row: every price a distinct `additional_information` (ENUM_MAX_VALUES + 1 values: too
 * many), a `modifiers` of one long value (too long), `expiration_date` '' or a date or NULL,
 * `billing_class` of two values, `setting` always NULL (no value: no ENUM).
 */
function price(i: number): string {
  const item = i % 2;
  const expiration = i % 3 === 0 ? '' : i % 3 === 1 ? '2026-12-31' : null;
  return ['0', String(item), String(i), '0', 'g1', i % 2 ? 'professional' : 'institutional', 'negotiated', String(10 + i),
    field('11,22'), field(i === 5 ? LONG : ''), field(expiration), field(null), field(`note "${i}", see`)].join(',') + '\n';
}

interface Built {
  /** bucket_prices with bucket_shapes a table, and a view (BUCKET_SHAPES_TABLE_MAX), in the rates' order. */
  shapesTable: unknown[][];
  shapesView: unknown[][];
  enums: string[];
  types: Record<string, string>;
  rates: unknown[][];
  stats: unknown[][];
  fileTypes: string[];
}

/** Spools the rows, builds the tables (with or without ENUMs), writes the dataset and reads it back. */
async function build(dir: string, withEnums: boolean): Promise<Built> {
  await mkdir(dir, { recursive: true });
  const spool = await openSpool(dir);
  try {
    await writeFile(path.join(dir, 'g.csv'), '0,g1,1000000001,1000000001,ein,1,,,\n');
    await writeFile(path.join(dir, 'i.csv'), '0,0,CPT,99213,a,,ffs\n0,1,CPT,99214,b,,ffs\n');
    await writeFile(path.join(dir, 'r.csv'), Array.from({ length: PRICES }, (_, i) => price(i)).join(''));
    await spool.load('raw_groups', [path.join(dir, 'g.csv')]);
    await spool.load('raw_items', [path.join(dir, 'i.csv')]);
    await spool.loadTextPrices([path.join(dir, 'r.csv')]);
    await spool.con.run(`CREATE TABLE sources (source_id INTEGER, insurer_id VARCHAR, snapshot VARCHAR); INSERT INTO sources VALUES (0, 'a', '2025-01');`);
    await buildWorkingTables(spool.con, { referenceInsurer: 'a' });
    if (!withEnums) {
      const t = await spool.con.runAndReadAll(`SELECT type_name FROM duckdb_types() WHERE starts_with(type_name, 'bucket_')`);
      for (const [name] of t.getRows()) await spool.con.run(`DROP TYPE ${String(name)}`);
    }
    const enums = (await spool.con.runAndReadAll(`SELECT type_name FROM duckdb_types() WHERE starts_with(type_name, 'bucket_') ORDER BY 1`))
      .getRows().map((r) => String(r[0]));
    const bucketRows = async (shapesTableMax: number): Promise<unknown[][]> => {
      const p = await bucketPricesPlan(spool.con, { shapesTableMax });
      const kind = (await spool.con.runAndReadAll(`SELECT count(*) FROM duckdb_views() WHERE view_name = 'bucket_shapes'`)).getRows()[0]![0];
      expect(Number(kind)).toBe(shapesTableMax === 0 ? 1 : 0);
      return (await spool.con.runAndReadAll(`${bucketPricesSql(p, 0)} SELECT * FROM bucket_prices ORDER BY ${BUCKET_PRICES_ORDER}`)).getRowsJS();
    };
    const shapesView = await bucketRows(0);
    const shapesTable = await bucketRows(1_000_000);
    const plan = await bucketPricesPlan(spool.con);
    const types = Object.fromEntries(
      (await spool.con.runAndReadAll(`SELECT column_name, column_type FROM (DESCRIBE ${bucketPricesSql(plan, 0)} SELECT * FROM bucket_prices)`)).getRows()
        .map((r) => [String(r[0]), String(r[1]).startsWith('ENUM') ? 'ENUM' : String(r[1])]));
    const out = path.join(dir, 'out');
    await mkdir(out, { recursive: true });
    const tables = await writeDataset(spool, out);
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    try {
      const files = `[${tables.rates.files.map((f) => `'${path.join(out, f)}'`).join(', ')}]`;
      const rates = (await con.runAndReadAll(`SELECT * FROM read_parquet(${files})`)).getRowsJS();
      const stats = (await con.runAndReadAll(`SELECT row_group_id, stats_min_value, stats_max_value
        FROM parquet_metadata(${files}) WHERE path_in_schema = 'billing_code' ORDER BY ALL`)).getRows();
      const fileTypes = (await con.runAndReadAll(`SELECT DISTINCT column_type FROM (DESCRIBE SELECT * FROM read_parquet(${files})) ORDER BY 1`))
        .getRows().map((r) => String(r[0]));
      return { shapesTable, shapesView, enums, types, rates, stats, fileTypes };
    } finally {
      con.closeSync();
      db.closeSync();
    }
  } finally {
    await spool.close();
  }
}

let enumed: Built;
let plain: Built;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'compete-enums-'));
  enumed = await build(path.join(tmp, 'enums'), true);
  plain = await build(path.join(tmp, 'plain'), false);
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('ENUM columns of a bucket', () => {
  it('are the columns of few, short values; many, long or no values stay VARCHAR', () => {
    expect(enumed.enums).toEqual(['bucket_billing_class', 'bucket_billing_code_type', 'bucket_expiration_date', 'bucket_insurer_id',
      'bucket_negotiated_type', 'bucket_negotiation_arrangement', 'bucket_service_codes', 'bucket_snapshot']);
    expect(enumed.types).toMatchObject({
      billing_code: 'VARCHAR', billing_class: 'ENUM', snapshot: 'ENUM', expiration_date: 'ENUM',
      modifiers: 'VARCHAR', additional_information: 'VARCHAR', setting: 'VARCHAR',
    });
    expect(plain.types.billing_class).toBe('VARCHAR');
  });

  it('give a rates part of the same rows, read back as text', () => {
    expect(enumed.rates).toHaveLength(PRICES);
    expect(enumed.rates).toEqual(plain.rates);
    // columns: billing_code, billing_code_type, snapshot, insurer_id, source_id, billing_class, negotiated_type,
    // negotiated_rate, provider_group_ids, service_codes, modifiers, expiration_date, setting, arrangement, information,
    // medicare_rate (institutional 99213: G0463's $128.87), validation ($10 is 0.08 x Medicare)
    expect(enumed.rates[0]).toEqual(['99213', 'CPT', '2025-01', 'a', 0, 'institutional', 'negotiated', 10, ['g1'], '11,22', '', '', null, 'ffs',
      'note "0", see', 128.87, 'below_benchmark']);
    expect(enumed.rates.filter((r) => r[0] === '99214' && r[2] === '2025-01').length).toBe(Math.floor(PRICES / 2));
    expect(enumed.rates.map((r) => r[11])).toContain('2026-12-31');
    expect(enumed.rates.filter((r) => r[11] === null).length).toBe(Math.floor((PRICES + 0) / 3));
    expect(enumed.rates.find((r) => r[10] === LONG)).toBeDefined();
  });

  it('are the same whether the shapes are decoded into a table or, when too many, a view', () => {
    for (const b of [enumed, plain]) {
      expect(b.shapesTable.length).toBeGreaterThan(0);
      expect(b.shapesView).toEqual(b.shapesTable);
    }
  });

  it('keep the row-group statistics of billing_code and the text types in the file', () => {
    expect(enumed.stats).toEqual(plain.stats);
    expect(enumed.stats).toEqual([[0n, '99213', '99214']]);
    expect(enumed.fileTypes).toEqual(['DOUBLE', 'INTEGER', 'VARCHAR', 'VARCHAR[]']);
  });
});

describe('a value column of many codes', () => {
  it('is left as text without a DISTINCT of all its codes, and decoded bucket by bucket', async () => {
    const dir = path.join(tmp, 'many');
    await mkdir(dir, { recursive: true });
    const spool = await openSpool(dir);
    try {
      // 12 items of 12 codes, 250 prices each, every price its own note: 3,000 codes, far past the estimate's check
      const notes = (i: number): string => `note ${i}, "quoted"`;
      await writeFile(path.join(dir, 'g.csv'), '0,g1,1000000001,1000000001,ein,1,,,\n');
      await writeFile(path.join(dir, 'i.csv'), Array.from({ length: 12 }, (_, k) => `0,${k},CPT,${99201 + k},a,,ffs\n`).join(''));
      await writeFile(path.join(dir, 'r.csv'), Array.from({ length: 3000 }, (_, i) =>
        ['0', String(i % 12), String(i), '0', 'g1', 'professional', 'negotiated', String(10 + i), '', '', '', '', field(notes(i))].join(',') + '\n').join(''));
      await spool.load('raw_groups', [path.join(dir, 'g.csv')]);
      await spool.load('raw_items', [path.join(dir, 'i.csv')]);
      await spool.loadTextPrices([path.join(dir, 'r.csv')]);
      await spool.con.run(`CREATE TABLE sources (source_id INTEGER, insurer_id VARCHAR, snapshot VARCHAR); INSERT INTO sources VALUES (0, 'a', '2025-01');`);
      const statements: string[] = [];
      const run = spool.con.run.bind(spool.con);
      spool.con.run = (sql, ...rest) => {
        statements.push(sql.replace(/\s+/g, ' '));
        return run(sql, ...rest);
      };
      await buildWorkingTables(spool.con, { referenceInsurer: 'a', bucketRows: 500 });
      spool.con.run = run;
      expect(statements.some((s) => s.includes('DISTINCT additional_information'))).toBe(false);
      expect(statements.some((s) => s.includes('DISTINCT billing_class'))).toBe(true);
      const plan = await bucketPricesPlan(spool.con);
      // text decoded bucket by bucket: the column of many values only; one of no value (setting) is NULL without a join
      expect(plan.columns.flatMap((c) => (c.textCode ? [c.textCode] : []))).toEqual(['p.additional_information']);
      expect(plan.columns.find((c) => c.name === 'setting')).toEqual({ name: 'setting', sql: 'CAST(NULL AS VARCHAR)' });
      // the medians ask for the columns they read: not the free text
      expect(bucketPricesSql(plan, 0, MEDIANS_COLUMNS)).not.toContain('bucket_text');
      expect(bucketPricesSql(plan, 0)).toContain('bucket_text');
      const out = path.join(dir, 'out');
      await mkdir(out, { recursive: true });
      const tables = await writeDataset(spool, out);
      expect(tables.rates.files.length).toBeGreaterThanOrEqual(6);
      const files = `[${tables.rates.files.map((f) => `'${path.join(out, f)}'`).join(', ')}]`;
      const r = await spool.con.runAndReadAll(`SELECT CAST(negotiated_rate AS INTEGER) - 10, additional_information FROM read_parquet(${files})`);
      const rows = r.getRows();
      expect(rows).toHaveLength(3000);
      expect(rows.every(([i, note]) => note === notes(Number(i)))).toBe(true);
    } finally {
      await spool.close();
    }
  });
});
