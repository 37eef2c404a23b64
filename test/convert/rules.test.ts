/** The converter's SQL and parsing rules agree with contract/rules/metrics.ts and docs/methodology.md. */
import { describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { categorySql } from '../../scripts/convert/build/build-tables';
import { categoryOfCode } from '../../contract/rules/metrics';
import { monthOf } from '../../scripts/convert/plan/snapshot';

describe('categorySql', () => {
  it('gives the same category as categoryOfCode at every range edge', async () => {
    const edges = [10003, 10004, 33009, 33010, 37799, 37800, 69990, 69991, 70009, 70010, 79999, 80046, 80047,
      89398, 89399, 92919, 92920, 93799, 93800, 99201, 99202, 99215, 99216, 99280, 99281, 99285, 99286];
    const codes = [...edges.map(String), 'J3399', '0450', '0001A', '123', 'G0008', '45378'];
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const values = codes.map((c) => `('${c}')`).join(', ');
    const r = await con.runAndReadAll(`SELECT c, ${categorySql('c')} AS cat FROM (VALUES ${values}) t(c)`);
    const got = Object.fromEntries(r.getRowObjectsJS().map((o) => [o.c as string, o.cat as string]));
    for (const c of codes) expect([c, got[c]]).toEqual([c, categoryOfCode(c)]);
    expect(categoryOfCode('99203')).toBe('Office visit');
    expect(categoryOfCode('45378')).toBe('Surgical');
    expect(categoryOfCode('J3399')).toBe('Other');
    con.closeSync();
    db.closeSync();
  });
});

describe('monthOf', () => {
  it('reads ISO and US dates and rejects the rest', () => {
    expect(monthOf('2025-01-01')).toBe('2025-01');
    expect(monthOf('2/4/2026')).toBe('2026-02');
    expect(monthOf('2025-13-01')).toBeNull();
    expect(monthOf('')).toBeNull();
    expect(monthOf('last week')).toBeNull();
  });
});
