/**
 * The one sort of a table's rows, shared by the generic table (src/components/table/DataTable.tsx)
 * and the endpoints that sort a list before paging it (`GET /api/regional-services-page`), so a
 * page sorted in the worker is in the order the table would give the whole list.
 */

/** A sort direction. */
export type SortDirection = 'asc' | 'desc';

/**
 * Rows sorted by `value`, stable; numbers numerically, strings by en-US collation; null values
 * last in both directions.
 */
export function sortRows<Row>(rows: readonly Row[], value: (r: Row) => number | string | null, direction: SortDirection): Row[] {
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
