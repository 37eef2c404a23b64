/**
 * The live comparison's results table (product-spec §2): Service (name, code, category), the
 * reference insurer's price, Competitor Prices, Selected Avg, Overpayment (arrow), Claims Volume,
 * Potential Savings. Every median is a button opening the rate rows behind it (`onTrace`), and
 * each row has a 'Sources' button naming the files behind all its prices.
 */
import type { ReactElement } from 'react';
import type { LiveInsurer, LiveServicePricingRecord } from '../../../contract/api';
import { formatCount, formatUsd } from '../../../contract/format';
import { OverpaymentCell } from '../comparison/OverpaymentCell';
import '../comparison/ComparisonTable.css';

/** Title of the reference insurer's price column: its short name, e.g. 'Anthem Price'. */
export function referencePriceTitle(reference: LiveInsurer | null): string {
  return `${reference?.shortName || 'Reference'} Price`;
}

export interface LiveComparisonTableProps {
  records: readonly LiveServicePricingRecord[];
  reference: LiveInsurer | null;
  competitors: readonly LiveInsurer[];
  /** Opens the drill-down of a row; `insurerId` first when a price was clicked, null for all. */
  onTrace(record: LiveServicePricingRecord, insurerId: string | null): void;
  /** Text of the empty table. */
  empty: string;
}

function Price({ value, label, onClick }: { value: number | null; label: string; onClick(): void }): ReactElement {
  if (value === null) return <span className="muted">-</span>;
  return (
    <button type="button" className="live-price-link" aria-label={`${label}: ${formatUsd(value)}, show its rate rows`} onClick={onClick}>
      {formatUsd(value)}
    </button>
  );
}

export function LiveComparisonTable({ records, reference, competitors, onTrace, empty }: LiveComparisonTableProps): ReactElement {
  const known = new Set(competitors.map((c) => c.id));
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Results table">
      <table className="comparison-table">
        <caption className="visually-hidden">Service price comparison</caption>
        <thead>
          <tr>
            <th scope="col">Service</th>
            <th scope="col" className="num">{referencePriceTitle(reference)}</th>
            <th scope="col">Competitor Prices</th>
            <th scope="col" className="num">Selected Avg</th>
            <th scope="col" className="num">Overpayment</th>
            <th scope="col" className="num">Claims Volume</th>
            <th scope="col" className="num">Potential Savings</th>
            <th scope="col"><span className="visually-hidden">Sources</span></th>
          </tr>
        </thead>
        <tbody>
          {records.length === 0 && (
            <tr><td colSpan={8} className="comparison-table__empty">{empty}</td></tr>
          )}
          {records.map((r) => {
            const priced = [
              ...competitors.filter((c) => r.competitor_prices[c.id] != null).map((c) => ({ id: c.id, name: c.shortName, title: c.name })),
              ...Object.keys(r.competitor_prices).filter((id) => !known.has(id)).map((id) => ({ id, name: id, title: id })),
            ];
            return (
              <tr key={`${r.billing_code_type}:${r.service_code}`}>
                <th scope="row" className="comparison-table__service">
                  <span className="service-name">{r.service_name || r.service_code}</span>
                  <span className="service-meta">
                    <span className="service-code">{r.service_code}</span>
                    <span className="service-category">{r.category}</span>
                  </span>
                </th>
                <td className="num">
                  <Price value={r.reference_price} label={`${reference?.shortName ?? 'Reference'} price of ${r.service_code}`}
                    onClick={() => onTrace(r, reference?.id ?? null)} />
                </td>
                <td>
                  {priced.length === 0 ? <span className="muted">-</span> : (
                    <ul className="competitor-prices">
                      {priced.map((c) => (
                        <li key={c.id} title={c.title}>
                          <span className="competitor-prices__name">{c.name}</span>
                          <span className="competitor-prices__price">
                            <Price value={r.competitor_prices[c.id] ?? null} label={`${c.name} price of ${r.service_code}`} onClick={() => onTrace(r, c.id)} />
                          </span>
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td className="num">{formatUsd(r.market_average)}</td>
                <td className="num"><OverpaymentCell overpayment={r.overpayment} variance={r.reference_variance} /></td>
                <td className="num">{formatCount(r.claims_volume)}</td>
                <td className="num">{formatUsd(r.potential_savings)}</td>
                <td>
                  <button type="button" className="button live-small" aria-label={`Sources of ${r.service_code}`} onClick={() => onTrace(r, null)}>
                    Sources
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
