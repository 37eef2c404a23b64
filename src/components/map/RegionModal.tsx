/**
 * The state modal of the map, docs/screens.md (Shared components): titled '<State> (<Region>) -
 * Service Price Comparison', a sortable table (Service, Your Price, Market Avg, Overpayment %),
 * the note on the data's origin, and 'No data for this region.' when the region has no entry.
 * With `renderPrice` the caller draws the price cells (the live dashboard makes them buttons that
 * open the rate rows behind each price). With `sorting` the rows are a page the caller sorted (the
 * live modal asks the worker for one), with `toolbar` above the table and `footer` below it.
 */
import type { ReactElement, ReactNode } from 'react';
import { formatPercent, formatUsd } from '../../../contract/rules/format';
import type { StateArea } from '../../../contract/rules/state-areas';
import { Dialog } from '../dialog/Dialog';
import { DataTable, type Column, type DataTableProps } from '../table/DataTable';

/** One row of the modal's table: prices USD, overpayment percent. */
export interface RegionPriceRow {
  service: string;
  /** null (live data: no price) shows '-'. */
  yourPrice: number | null;
  marketAvg: number | null;
  overpaymentPct: number | null;
  /** The billing code, for callers that act on a row (optional). */
  serviceCode?: string;
  /** The row's key when a service has several rows (live: one per comparison unit); default `service`. */
  key?: string;
}

/** A price column of the modal. */
export type RegionPriceColumn = 'yourPrice' | 'marketAvg';

export interface RegionModalProps {
  area: StateArea;
  rows: readonly RegionPriceRow[];
  /** 'All prices are illustrative mock data.' (sample) or 'All prices are live API data.' (live). */
  note: string;
  onClose(): void;
  /** Draws a price cell (`text` is the formatted price); absent = the text alone. */
  renderPrice?(row: RegionPriceRow, column: RegionPriceColumn, text: string): ReactNode;
  /** Draws the service cell (the live modal adds the unit's badges); absent = `service` as text. */
  renderService?(row: RegionPriceRow): ReactNode;
  /** The caller's sort of `rows` (column keys: service, yourPrice, marketAvg, overpaymentPct); absent = the table sorts. */
  sorting?: DataTableProps<RegionPriceRow>['sorting'];
  /** Above the table (the live modal's search and counts). */
  toolbar?: ReactNode;
  /** Below the table (the live modal's 'Show more'). */
  footer?: ReactNode;
  /** With no row though the region has data (a search that matched none): this text instead of 'No data for this region.' ('' = none). */
  noRowsText?: string;
}

function columns(renderPrice: RegionModalProps['renderPrice'], renderService: RegionModalProps['renderService']): Column<RegionPriceRow>[] {
  const price = (r: RegionPriceRow, c: RegionPriceColumn) => (renderPrice ? renderPrice(r, c, formatUsd(r[c])) : formatUsd(r[c]));
  return [
    { key: 'service', header: 'Service', cell: (r) => (renderService ? renderService(r) : r.service), sortValue: (r) => r.service, rowHeader: true },
    { key: 'yourPrice', header: 'Your Price', cell: (r) => price(r, 'yourPrice'), sortValue: (r) => r.yourPrice, align: 'right' },
    { key: 'marketAvg', header: 'Market Avg', cell: (r) => price(r, 'marketAvg'), sortValue: (r) => r.marketAvg, align: 'right' },
    { key: 'overpaymentPct', header: 'Overpayment %', cell: (r) => formatPercent(r.overpaymentPct), sortValue: (r) => r.overpaymentPct, align: 'right' },
  ];
}

/** The modal's title. */
export function regionModalTitle(area: StateArea): string {
  return `${area.name} (${area.region}) - Service Price Comparison`;
}

export function RegionModal({ area, rows, note, onClose, renderPrice, renderService, sorting, toolbar, footer, noRowsText }: RegionModalProps): ReactElement {
  return (
    <Dialog title={regionModalTitle(area)} onClose={onClose}>
      {toolbar}
      {rows.length === 0 ? (
        noRowsText !== '' && <p className="region-modal__empty">{noRowsText ?? 'No data for this region.'}</p>
      ) : (
        <DataTable caption={`Service prices in the ${area.region}`} columns={columns(renderPrice, renderService)} rows={rows} rowKey={(r) => r.key ?? r.service}
          initialSort={{ key: 'overpaymentPct', direction: 'desc' }} sorting={sorting} />
      )}
      {footer}
      <p className="muted region-modal__note">{note}</p>
    </Dialog>
  );
}
