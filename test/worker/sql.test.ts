/** The `sql` tag (workers/db/sql.ts) and the Arrow-to-plain conversion (workers/db/database.ts). */
import { describe, expect, it } from 'vitest';
import { identifier, joinSql, sql } from '../../workers/db/sql';
import { toPlain } from '../../workers/db/database';

describe('sql', () => {
  it('turns values into parameters, never text', () => {
    const evil = "x'; DROP TABLE t; --";
    const q = sql`SELECT * FROM t WHERE a = ${evil} AND b > ${3} AND c IS ${null}`;
    expect(q.text).toBe('SELECT * FROM t WHERE a = ? AND b > ? AND c IS ?');
    expect(q.params).toEqual([evil, 3, null]);
  });

  it('expands lists, and an empty list to NULL', () => {
    expect(sql`x IN (${['a', 'b']})`).toMatchObject({ text: 'x IN (?, ?)', params: ['a', 'b'] });
    expect(sql`x IN (${[]})`).toMatchObject({ text: 'x IN (NULL)', params: [] });
  });

  it('nests fragments with their parameters in order', () => {
    const inner = sql`b = ${2}`;
    const q = sql`a = ${1} AND ${inner} AND c = ${3}`;
    expect(q).toMatchObject({ text: 'a = ? AND b = ? AND c = ?', params: [1, 2, 3] });
    expect(joinSql([sql`a = ${1}`, sql`b = ${2}`], ' AND ')).toMatchObject({ text: 'a = ? AND b = ?', params: [1, 2] });
  });

  it('takes identifiers only from a closed list', () => {
    expect(sql`SELECT ${identifier('rate', ['rate', 'code'])} FROM t`.text).toBe('SELECT "rate" FROM t');
    expect(() => identifier('x"; DROP', ['rate'] as string[])).toThrow('identifier not allowed');
  });
});

describe('toPlain', () => {
  it('converts bigint and nested Arrow-like values once', () => {
    const structRow = { toJSON: () => ({ id: 'a', n: 5n }) };
    const vector = { toArray: () => [structRow], toJSON: () => [structRow] };
    expect(toPlain(vector)).toEqual([{ id: 'a', n: 5 }]);
    expect(toPlain(12n)).toBe(12);
    expect(toPlain(undefined)).toBeNull();
  });
});
