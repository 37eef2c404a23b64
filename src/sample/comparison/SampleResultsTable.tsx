/**
 * Results table of the sample comparison, docs/screens.md (Sample comparison): Service (name,
 * code, category), Anthem Price, Competitor Prices (the selected ones), Selected Avg, Overpayment
 * (arrow icon and variance), Claims Volume, Potential Savings. Order comes from the Sort by
 * control. Built on the generic DataTable.
 */
import type { ReactElement } from 'react';
import { formatCount, formatSignedPercent, formatSignedUsd, formatUsd } from '../../../contract/rules/format';
import type { ComparisonRow } from '../data/comparison';
import { SAMPLE_COMPETITORS, type CompetitorId } from '../data/insurers';
import { ArrowDownIcon, ArrowUpIcon } from '../../components/Icons';
import { DataTable, type Column } from '../../components/table/DataTable';
import '../../components/comparison/ComparisonTable.css';

function columns(competitors: readonly CompetitorId[]): Column<ComparisonRow>[] {
  const shown = SAMPLE_COMPETITORS.filter((c) => competitors.includes(c.id));
  return [
    { key: 'service', header: 'Service', rowHeader: true, cell: (r) => (
      <>
        <span className="service-name">{r.service.serviceName}</span>
        <span className="service-meta">
          <span className="service-code">{r.service.serviceCode}</span>
          <span className="service-category">{r.service.category}</span>
          <span className="service-type">{r.type === 'institutional' ? 'Institutional' : 'Professional'}</span>
        </span>
      </>
    ) },
    { key: 'anthem', header: 'Anthem Price', align: 'right', cell: (r) => formatUsd(r.service.anthemPrice) },
    { key: 'competitors', header: 'Competitor Prices', cell: (r) => shown.length === 0 ? null : (
      <ul className="competitor-list">
        {shown.map((c) => (
          <li key={c.id}><span>{c.shortName}</span> <span className="num">{formatUsd(r.service.marketPrices[c.id])}</span></li>
        ))}
      </ul>
    ) },
    { key: 'avg', header: 'Selected Avg', align: 'right', cell: (r) => formatUsd(r.selectedAvg) },
    { key: 'overpayment', header: 'Overpayment', align: 'right', cell: (r) => (
      <span className={`overpayment ${r.overpayment > 0 ? 'is-over' : 'is-under'}`}>
        {r.overpayment > 0 ? <ArrowUpIcon /> : <ArrowDownIcon />}
        <span>{formatSignedUsd(r.overpayment)}</span>
        <span className="overpayment__pct">{formatSignedPercent(r.variance)}</span>
      </span>
    ) },
    { key: 'claims', header: 'Claims Volume', align: 'right', cell: (r) => formatCount(r.service.claimsVolume) },
    { key: 'savings', header: 'Potential Savings', align: 'right', cell: (r) => formatUsd(r.savings) },
  ];
}

export function SampleResultsTable({ rows, competitors }: { rows: readonly ComparisonRow[]; competitors: readonly CompetitorId[] }): ReactElement {
  return (
    <DataTable className="cmp-table" caption="Service price comparison" columns={columns(competitors)} rows={rows}
      rowKey={(r) => r.service.serviceCode} empty="No services match these filters." />
  );
}
