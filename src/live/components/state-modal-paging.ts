/**
 * The live state modal's view of `GET /api/regional-services-page`, as pure functions
 * (docs/screens.md, Live dashboard, state modal): the first 50 units of the state in the column
 * sort the analyst chose, 'Show more' asking for 50 more up to MAX_SHOWN_UNITS, and a search on the
 * billing code or service name. The modal receives and renders only these rows, so a state with
 * thousands of units costs the page one page at a time.
 */
import type { RegionalServicesPage, RegionalServicesPageParams, RegionalServicesSort } from '../../../contract/api';
import { formatCount } from '../../../contract/rules/format';
import type { SortState } from '../../components/table/table-sort';

/** Units per request: the first page and every 'Show more'. */
export const STATE_UNITS_PAGE_SIZE = 50;
/** The most units the modal renders; past them 'Show more' goes away (search or sort to reach others). */
export const MAX_SHOWN_UNITS = 200;

/** The modal's column keys (RegionModal) -> the endpoint's sort keys. */
const SORT_OF_COLUMN: Readonly<Record<string, RegionalServicesSort>> = {
  service: 'service',
  yourPrice: 'your_price',
  marketAvg: 'market_avg',
  overpaymentPct: 'overpayment_pct',
};

/** The modal's first sort: Overpayment % descending, the endpoint's default order. */
export const INITIAL_STATE_SORT: SortState = { key: 'overpaymentPct', direction: 'desc' };

/** What the modal asks for: the search as typed, the column sort and how many units it shows. */
export interface StateUnitsView {
  q: string;
  sort: SortState;
  /** Units asked for from the first: STATE_UNITS_PAGE_SIZE, then one more page per 'Show more'. */
  limit: number;
}

/**
 * The request of `view` for `state`: `q` trimmed (absent when blank), the column's sort key
 * (Overpayment % for an unknown column), offset 0 and `limit`. Asking again from 0 keeps the rows
 * shown in one order whatever was appended; the worker slices a list it keeps.
 */
export function stateUnitsRequest(state: string, view: StateUnitsView, shared: { shared_providers?: true; billed?: true }): RegionalServicesPageParams {
  const q = view.q.trim();
  return {
    state,
    ...shared,
    ...(q ? { q } : {}),
    sort: SORT_OF_COLUMN[view.sort.key] ?? 'overpayment_pct',
    direction: view.sort.direction,
    offset: 0,
    limit: Math.min(view.limit, MAX_SHOWN_UNITS),
  };
}

/** The limit of the next 'Show more', or null when every match is shown or MAX_SHOWN_UNITS are. */
export function nextStateLimit(shown: number, matched: number): number | null {
  if (shown >= matched || shown >= MAX_SHOWN_UNITS) return null;
  return Math.min(shown + STATE_UNITS_PAGE_SIZE, MAX_SHOWN_UNITS);
}

/**
 * The count line above the table: 'Showing 50 of 2,104 units', with a search 'Showing 3 of 3 units
 * matching "9921" (2,104 in CA)' or 'No unit matches "xyz" (2,104 in CA)', and 'Search or sort to
 * reach the others.' once MAX_SHOWN_UNITS are shown of more.
 */
export function stateUnitsText(page: RegionalServicesPage, shown: number, q: string, state: string): string {
  const search = q.trim();
  if (search && page.matched === 0) return `No unit matches "${search}" (${formatCount(page.total)} in ${state})`;
  const head = search
    ? `Showing ${formatCount(shown)} of ${formatCount(page.matched)} units matching "${search}" (${formatCount(page.total)} in ${state})`
    : `Showing ${formatCount(shown)} of ${formatCount(page.total)} units`;
  return shown >= MAX_SHOWN_UNITS && page.matched > shown ? `${head}. Search or sort to reach the others.` : head;
}
