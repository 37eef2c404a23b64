/** Pure helpers of the generic table: sorting and the paging text, docs/screens.md (Shared components). */
import type { SortDirection } from '../../../contract/rules/sort-rows';

export { sortRows } from '../../../contract/rules/sort-rows';

export interface SortState {
  key: string;
  direction: SortDirection;
}

/** 'Showing 1 to 25 of 140 results' (en-US grouping); 'Showing 0 of 0 results' when empty. */
export function pagingText(offset: number, count: number, total: number): string {
  const f = (n: number) => n.toLocaleString('en-US');
  if (count === 0) return `Showing 0 of ${f(total)} results`;
  return `Showing ${f(offset + 1)} to ${f(offset + count)} of ${f(total)} results`;
}
