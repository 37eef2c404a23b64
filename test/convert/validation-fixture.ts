/**
 * The validation fixture (test/fixtures/validation) and what its tests share: the national Medicare
 * amounts of its codes worked out by hand from reference-data/, the test arithmetic (median,
 * claims-weighted mean, variance) and views over a converted dataset.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DatasetManifest } from '../../contract/files/dataset';
import { rateRowsSql } from '../../contract/sql/rate-rows-sql';

export const FIXTURES = path.resolve(__dirname, '../fixtures/validation');

// --- Medicare amounts (reference-data/, 2025), national -------------------------------------
/** PFS amounts are rounded to the cent, half away from zero. */
export const round2 = (x: number): number => (Math.sign(x) * Math.round(Math.abs(x) * 100 + 1e-9)) / 100;
export const CF = 32.3465; // PFS 2025 conversion factor, USD per RVU
export const nf99213 = round2(2.75 * CF); // PPRRVU 99213 non-facility total 2.75 -> 88.952875 -> $88.95
export const inst99213 = 128.87; // institutional 99213 -> G0463 OPPS payment rate (99213's own line: SI B, no rate)
export const nf99214 = round2(3.87 * CF); // 99214 non-facility total 3.87 -> 125.180955 -> $125.18
export const f99215 = round2(4.29 * CF); // 99215 facility total 4.29 -> 138.766485 -> $138.77
export const g71046 = round2(1.01 * CF); // 71046 global (no modifier) total 1.01 -> 32.669965 -> $32.67
export const pc71046 = round2(0.31 * CF); // 71046-26 total 0.31 -> 10.027415 -> $10.03
export const inst71046 = 88.05; // 71046 OPPS Addendum B, SI Q3, APC 5521: $88.05
export const nf93000 = round2(0.43 * CF); // 93000 global total 0.43 -> 13.908995 -> $13.91
export const clfs85025 = 7.77; // 85025: PFS totals 0, OPPS SI Q4 (no rate), CLFS 2025 RATE 00007.77
// S9083 (urgent care global): PFS status I with totals 0.00, not in the CLFS, not in Addendum B: no benchmark.

/** The fixture's 2025 amounts, so a slip in the arithmetic above shows here first. */
export const AMOUNTS = { nf99213: 88.95, nf99214: 125.18, f99215: 138.77, g71046: 32.67, pc71046: 10.03, nf93000: 13.91 };

/** Median of a list: the middle value, or the midpoint of the two middle values (test arithmetic). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Claims-weighted mean of variances (weights all 0: the plain mean) (docs/methodology.md, Dashboard figures). */
export function weightedMean(items: Array<[variance: number, weight: number]>): number {
  const w = items.reduce((a, [, c]) => a + c, 0);
  if (w === 0) return items.reduce((a, [v]) => a + v, 0) / items.length;
  return items.reduce((a, [v, c]) => a + v * c, 0) / w;
}
export const variance = (reference: number, market: number): number => (100 * (reference - market)) / market;


export async function rows(c: DuckDBConnection, sql: string): Promise<Record<string, unknown>[]> {
  return (await c.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
}

/** Views over a converted dataset: every table, `rate_parts` the prices and `rates` the rate rows. */
export async function openDataset(c: DuckDBConnection, out: string, m: DatasetManifest, prefix = ''): Promise<void> {
  for (const [name, t] of Object.entries(m.tables)) {
    await c.run(`CREATE VIEW ${prefix}${name === 'rates' ? 'rate_parts' : name} AS SELECT * FROM read_parquet('${path.join(out, t.files[0]!)}')`);
  }
  await c.run(`CREATE VIEW ${prefix}rates AS ${rateRowsSql(`${prefix}rate_parts`)}`);
}

/** A copy of the fixture whose catalog carries `validation`, in a fresh directory; returns the catalog path. */
export async function fixtureWith(tmp: string, validation: unknown, name = 'catalog.json'): Promise<string> {
  const dir = await mkdtemp(path.join(tmp, 'variant-'));
  await cp(FIXTURES, dir, { recursive: true });
  const catalog = JSON.parse(await readFile(path.join(FIXTURES, 'catalog.json'), 'utf8')) as Record<string, unknown>;
  await writeFile(path.join(dir, name), JSON.stringify({ ...catalog, validation }));
  return path.join(dir, name);
}
