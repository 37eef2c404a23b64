/**
 * The generic table, docs/screens.md (Shared components): sortable columns (a header button toggles
 * ascending/descending, `aria-sort` tells assistive technology), optional row checkboxes,
 * optional paging text 'Showing x to y of z results', and '-' for an empty cell.
 */
import { useMemo, useState, type ReactElement, type ReactNode } from 'react';
import { ArrowDownIcon, ArrowUpIcon } from '../Icons';
import { pagingText, sortRows, type SortState } from './table-sort';
import './table.css';
import './DataTable.css';

export interface Column<Row> {
  key: string;
  header: string;
  /** Cell content; null, undefined or '' show '-'. */
  cell: (row: Row) => ReactNode;
  /** Value to sort by; without it the column does not sort. */
  sortValue?: (row: Row) => number | string | null;
  align?: 'left' | 'right';
  /** The row's header cell (`<th scope="row">`). */
  rowHeader?: boolean;
}

export interface DataTableProps<Row> {
  caption: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** Initial sort, e.g. { key: 'savings', direction: 'desc' }. */
  initialSort?: SortState;
  /**
   * A sort kept by the caller, whose `rows` come already in that order (e.g. a page the worker
   * sorted): the headers show `sort` and a header button calls `onSortChange` with the next sort;
   * the table then sorts nothing itself.
   */
  sorting?: { sort: SortState; onSortChange(next: SortState): void };
  /** Row checkboxes: the selected keys and the change handler. */
  selection?: { selected: ReadonlySet<string>; onChange(next: Set<string>): void; rowLabel(row: Row): string };
  /** Paging text: the offset of the first row and the total count. */
  paging?: { offset: number; total: number };
  /** Shown in the body when there is no row. */
  empty?: string;
  /** An extra class of a row (e.g. a row that failed validation). */
  rowClassName?: (row: Row) => string | undefined;
  className?: string;
}

const isEmpty = (v: ReactNode) => v === null || v === undefined || v === '' || v === false;

export function DataTable<Row>(props: DataTableProps<Row>): ReactElement {
  const { caption, columns, rows, rowKey, selection, paging, rowClassName, empty = 'No rows.' } = props;
  const [ownSort, setSort] = useState<SortState | null>(props.initialSort ?? null);
  const sorting = props.sorting;
  const sort = sorting ? sorting.sort : ownSort;
  const sorted = useMemo(() => {
    if (sorting) return rows;
    const col = columns.find((c) => c.key === ownSort?.key);
    return ownSort && col?.sortValue ? sortRows(rows, col.sortValue, ownSort.direction) : [...rows];
  }, [rows, columns, ownSort, sorting]);

  const nextSort = (s: SortState | null, key: string): SortState => ({ key, direction: s?.key === key && s.direction === 'asc' ? 'desc' : 'asc' });
  const toggle = (key: string) => (sorting ? sorting.onSortChange(nextSort(sorting.sort, key)) : setSort((s) => nextSort(s, key)));
  const allKeys = sorted.map(rowKey);
  const allSelected = selection !== undefined && allKeys.length > 0 && allKeys.every((k) => selection.selected.has(k));

  return (
    <div className={`data-table ${props.className ?? ''}`}>
      <div className="table-scroll" tabIndex={0} role="region" aria-label={caption}>
        <table className="table data-table__table">
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              {selection && (
                <th scope="col" className="data-table__check">
                  <input type="checkbox" aria-label="Select all rows" checked={allSelected}
                    onChange={(e) => selection.onChange(new Set(e.target.checked ? allKeys : []))} />
                </th>
              )}
              {columns.map((c) => {
                const active = sort?.key === c.key;
                const ariaSort = active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : c.sortValue ? 'none' : undefined;
                return (
                  <th key={c.key} scope="col" aria-sort={ariaSort} className={c.align === 'right' ? 'num' : undefined}>
                    {c.sortValue ? (
                      <button type="button" className="data-table__sort" onClick={() => toggle(c.key)}>
                        {c.header}
                        <span className={`data-table__arrow${active ? ' is-active' : ''}`} aria-hidden="true">
                          {active && sort.direction === 'desc' ? <ArrowDownIcon /> : <ArrowUpIcon />}
                        </span>
                      </button>
                    ) : (
                      c.header
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {sorted.length === 0 && (
              <tr>
                <td colSpan={columns.length + (selection ? 1 : 0)} className="data-table__empty">{empty}</td>
              </tr>
            )}
            {sorted.map((row) => {
              const key = rowKey(row);
              return (
                <tr key={key} className={[selection?.selected.has(key) ? 'is-selected' : '', rowClassName?.(row) ?? ''].filter(Boolean).join(' ') || undefined}>
                  {selection && (
                    <td className="data-table__check">
                      <input type="checkbox" aria-label={`Select ${selection.rowLabel(row)}`} checked={selection.selected.has(key)}
                        onChange={(e) => {
                          const next = new Set(selection.selected);
                          if (e.target.checked) next.add(key);
                          else next.delete(key);
                          selection.onChange(next);
                        }} />
                    </td>
                  )}
                  {columns.map((c) => {
                    const v = c.cell(row);
                    const content = isEmpty(v) ? '-' : v;
                    const cls = c.align === 'right' ? 'num' : undefined;
                    return c.rowHeader ? (
                      <th key={c.key} scope="row" className={cls}>{content}</th>
                    ) : (
                      <td key={c.key} className={cls}>{content}</td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {paging && <p className="data-table__paging">{pagingText(paging.offset, sorted.length, paging.total)}</p>}
    </div>
  );
}
