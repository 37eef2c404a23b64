/**
 * The comparison results table (product-spec §2 Comparison screens): Service (name, code,
 * category), the reference insurer's price, Competitor Prices, Selected Avg, Overpayment, Claims
 * Volume, Potential Savings. Money by contract/format.ts; '-' for null.
 */
import type { ReactElement } from 'react';
import type { LiveInsurer, LiveServicePricingRecord } from '../../../contract/api';
import { formatCount, formatUsd } from '../../../contract/format';
import { CompetitorPrices } from './CompetitorPrices';
import { OverpaymentCell } from './OverpaymentCell';
import './ComparisonTable.css';

export interface ComparisonTableProps {
  records: LiveServicePricingRecord[];
  /** The reference insurer (`isReference`), or null when the list names none. */
  reference: LiveInsurer | null;
  /** The competitors in display order. */
  competitors: LiveInsurer[];
  caption: string;
}

/** Column title of the reference price, e.g. 'Anthem Price'. */
export function referencePriceTitle(reference: LiveInsurer | null): string {
  return `${reference?.shortName || 'Reference'} Price`;
}

export function ComparisonTable({ records, reference, competitors, caption }: ComparisonTableProps): ReactElement {
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Results table">
      <table className="comparison-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Service</th>
            <th scope="col" className="num">{referencePriceTitle(reference)}</th>
            <th scope="col">Competitor Prices</th>
            <th scope="col" className="num">Selected Avg</th>
            <th scope="col" className="num">Overpayment</th>
            <th scope="col" className="num">Claims Volume</th>
            <th scope="col" className="num">Potential Savings</th>
          </tr>
        </thead>
        <tbody>
          {records.length === 0 && (
            <tr>
              <td colSpan={7} className="comparison-table__empty">No services match these filters.</td>
            </tr>
          )}
          {records.map((r) => (
            <tr key={`${r.billing_code_type}:${r.service_code}`}>
              <th scope="row" className="comparison-table__service">
                <span className="service-name">{r.service_name || r.service_code}</span>
                <span className="service-meta">
                  <span className="service-code">{r.service_code}</span>
                  <span className="service-category">{r.category}</span>
                </span>
              </th>
              <td className="num">{formatUsd(r.reference_price)}</td>
              <td><CompetitorPrices prices={r.competitor_prices} competitors={competitors} /></td>
              <td className="num">{formatUsd(r.market_average)}</td>
              <td className="num"><OverpaymentCell overpayment={r.overpayment} variance={r.reference_variance} /></td>
              <td className="num">{formatCount(r.claims_volume)}</td>
              <td className="num">{formatUsd(r.potential_savings)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
