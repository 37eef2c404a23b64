/** Pure helpers of the generic table: sorting and the paging text, docs/screens.md (Shared components). */

export interface SortState {
  key: string;
  direction: 'asc' | 'desc';
}

/**
 * Rows sorted by `value`, stable; numbers numerically, strings by en-US collation; null values
 * last in both directions.
 */
export function sortRows<Row>(rows: readonly Row[], value: (r: Row) => number | string | null, direction: 'asc' | 'desc'): Row[] {
  const sign = direction === 'asc' ? 1 : -1;
  return rows
    .map((row, i) => ({ row, i, v: value(row) }))
    .sort((a, b) => {
      if (a.v === null || b.v === null) return a.v === b.v ? a.i - b.i : a.v === null ? 1 : -1;
      const c = typeof a.v === 'number' && typeof b.v === 'number' ? a.v - b.v : String(a.v).localeCompare(String(b.v), 'en-US');
      return c * sign || a.i - b.i;
    })
    .map((x) => x.row);
}

/** 'Showing 1 to 25 of 140 results' (en-US grouping); 'Showing 0 of 0 results' when empty. */
export function pagingText(offset: number, count: number, total: number): string {
  const f = (n: number) => n.toLocaleString('en-US');
  if (count === 0) return `Showing 0 of ${f(total)} results`;
  return `Showing ${f(offset + 1)} to ${f(offset + count)} of ${f(total)} results`;
}
