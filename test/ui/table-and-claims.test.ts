// The generic table's pure helpers, docs/screens.md (Shared components), and the JWT name claim of the
// header's user label.
import { describe, expect, it } from 'vitest';
import { pagingText, sortRows } from '../../src/components/table/table-sort';
import { tokenUserName } from '../../src/store/token-claims';

describe('table sort and paging text', () => {
  const rows = [{ v: 3 }, { v: null }, { v: 10 }, { v: 1 }];
  it('sorts numbers both ways with empty values last', () => {
    expect(sortRows(rows, (r) => r.v, 'asc').map((r) => r.v)).toEqual([1, 3, 10, null]);
    expect(sortRows(rows, (r) => r.v, 'desc').map((r) => r.v)).toEqual([10, 3, 1, null]);
    expect(sortRows([{ s: 'b' }, { s: 'a' }, { s: 'C' }], (r) => r.s, 'asc').map((r) => r.s)).toEqual(['a', 'b', 'C']);
  });
  it('writes the paging text with en-US grouping', () => {
    expect(pagingText(0, 25, 140)).toBe('Showing 1 to 25 of 140 results');
    expect(pagingText(1000, 50, 12345)).toBe('Showing 1,001 to 1,050 of 12,345 results');
    expect(pagingText(0, 0, 0)).toBe('Showing 0 of 0 results');
  });
});

describe('user label from the token', () => {
  const jwt = (payload: object) =>
    `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.sig`;
  it('reads the name claim, UTF-8 included', () => {
    expect(tokenUserName(jwt({ sub: 'u1', name: 'Zoë Ångström' }))).toBe('Zoë Ångström');
  });
  it('gives null without a usable name', () => {
    expect(tokenUserName(jwt({ sub: 'u1' }))).toBeNull();
    expect(tokenUserName(jwt({ name: '  ' }))).toBeNull();
    expect(tokenUserName('not-a-jwt')).toBeNull();
    expect(tokenUserName('a.!!!.c')).toBeNull();
    expect(tokenUserName(null)).toBeNull();
  });
});
