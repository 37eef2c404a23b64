/**
 * The state modal of the map (product-spec §2 Dashboard content): titled '<State> (<Region>) -
 * Service Price Comparison', a sortable table (Service, Your Price, Market Avg, Overpayment %),
 * the note on the data's origin, and 'No data for this region.' when the region has no entry.
 */
import type { ReactElement } from 'react';
import { formatPercent, formatUsd } from '../../../contract/format';
import type { StateArea } from '../../sample-data/us-states';
import { Dialog } from '../dialog/Dialog';
import { DataTable, type Column } from '../table/DataTable';

/** One row of the modal's table: prices USD, overpayment percent. */
export interface RegionPriceRow {
  service: string;
  /** null (live data: no price) shows '-'. */
  yourPrice: number | null;
  marketAvg: number | null;
  overpaymentPct: number | null;
}

export interface RegionModalProps {
  area: StateArea;
  rows: readonly RegionPriceRow[];
  /** 'All prices are illustrative mock data.' (sample) or 'All prices are live API data.' (live). */
  note: string;
  onClose(): void;
}

const COLUMNS: Column<RegionPriceRow>[] = [
  { key: 'service', header: 'Service', cell: (r) => r.service, sortValue: (r) => r.service, rowHeader: true },
  { key: 'yourPrice', header: 'Your Price', cell: (r) => formatUsd(r.yourPrice), sortValue: (r) => r.yourPrice, align: 'right' },
  { key: 'marketAvg', header: 'Market Avg', cell: (r) => formatUsd(r.marketAvg), sortValue: (r) => r.marketAvg, align: 'right' },
  { key: 'overpaymentPct', header: 'Overpayment %', cell: (r) => formatPercent(r.overpaymentPct), sortValue: (r) => r.overpaymentPct, align: 'right' },
];

/** The modal's title (product-spec §2). */
export function regionModalTitle(area: StateArea): string {
  return `${area.name} (${area.region}) - Service Price Comparison`;
}

export function RegionModal({ area, rows, note, onClose }: RegionModalProps): ReactElement {
  return (
    <Dialog title={regionModalTitle(area)} onClose={onClose}>
      {rows.length === 0 ? (
        <p className="region-modal__empty">No data for this region.</p>
      ) : (
        <DataTable caption={`Service prices in the ${area.region}`} columns={COLUMNS} rows={rows} rowKey={(r) => r.service}
          initialSort={{ key: 'overpaymentPct', direction: 'desc' }} />
      )}
      <p className="muted region-modal__note">{note}</p>
    </Dialog>
  );
}
