/**
 * The live comparison's results table, docs/screens.md (Live comparison): Service (name, code, category), the
 * reference insurer's price, Competitor Prices, Selected Avg, Overpayment (arrow), Claims Volume,
 * Potential Savings. One row per comparison unit (docs/methodology.md, Per comparison unit): the service
 * cell names the unit with badges (class, component, setting), the CMS name with the publishers'
 * name under it when it differs, and the unit's confidence badge (reasons in its tooltip); each
 * price carries its '% of Medicare'; under Selected Avg, a strip of the competitors' medians and the
 * reference price (ConfidenceParts.tsx). Every median is a button opening the rate rows behind it (`onTrace`), and each
 * row has a 'Sources' button naming the files behind all its prices.
 */
import { memo, type ReactElement } from 'react';
import type { LiveInsurer, LiveServicePricingRecord, MarketBand } from '../../../contract/api';
import { positionOf } from '../../../contract/rules/confidence';
import { productLabel } from '../../../contract/rules/product';
import { formatCount, formatUsd } from '../../../contract/rules/format';
import { OverpaymentCell } from '../../components/comparison/OverpaymentCell';
import { MedicareHeader, PriceWithMedicare, ServiceUnitCell } from './UnitParts';
import { PriceStrip, stripData } from './ConfidenceParts';
import { unitRowKey, unitText } from './unit-format';
import '../../components/table/table.css';
import '../../components/comparison/ComparisonTable.css';

/** Title of the reference insurer's price column: its short name, e.g. 'Anthem Price'. */
export function referencePriceTitle(reference: LiveInsurer | null): string {
  return `${reference?.shortName || 'Reference'} Price`;
}

const formatUsd2 = (x: number) => `$${x.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export interface LiveComparisonTableProps {
  records: readonly LiveServicePricingRecord[];
  reference: LiveInsurer | null;
  competitors: readonly LiveInsurer[];
  /** Opens the drill-down of a row; `insurerId` first when a price was clicked, null for all. */
  onTrace(record: LiveServicePricingRecord, insurerId: string | null): void;
  /** Text of the empty table. */
  empty: string;
  /** The page's market bands by unit (market-band.ts), drawn in the price strips once they are known. */
  bands?: ReadonlyMap<string, MarketBand>;
  /** Whether the page's bands are yet to come: each strip says it is busy meanwhile. */
  bandsPending?: boolean;
}

/** How a record's unit reads in a button's label: `99213 (Professional · Global · Non-facility)`. */
export function recordUnitLabel(r: LiveServicePricingRecord): string {
  return `${r.service_code} (${unitText(r)})`;
}

function Price({ value, label, onClick }: { value: number | null; label: string; onClick(): void }): ReactElement {
  if (value === null) return <span className="muted">-</span>;
  return (
    <button type="button" className="live-price-link" aria-label={`${label}: ${formatUsd(value)}, show its rate rows`} onClick={onClick}>
      {formatUsd(value)}
    </button>
  );
}

/**
 * The table, rendered again only when its props change: while a filter's answer loads, the screen
 * re-renders around the rows it already shows (memo).
 */
export const LiveComparisonTable = memo(function LiveComparisonTable({ records, reference, competitors, onTrace, empty, bands, bandsPending }: LiveComparisonTableProps): ReactElement {
  const known = new Set(competitors.map((c) => c.id));
  const names = new Map(competitors.map((c) => [c.id, c.shortName]));
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Results table">
      <table className="table comparison-table">
        <caption className="visually-hidden">Service price comparison</caption>
        <thead>
          <tr>
            <th scope="col">Service</th>
            <th scope="col" className="num"><MedicareHeader title={referencePriceTitle(reference)} /></th>
            <th scope="col"><MedicareHeader title="Competitor Prices" /></th>
            <th scope="col" className="num"><MedicareHeader title="Selected Avg" /></th>
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
              ...competitors.filter((c) => r.competitor_prices[c.id] != null).map((c) => ({ id: c.id, name: c.shortName, title: productLabel(c.group, c.name) })),
              ...Object.keys(r.competitor_prices).filter((id) => !known.has(id)).map((id) => ({ id, name: id, title: id })),
            ];
            const unit = recordUnitLabel(r);
            const national = r.medicare_rate === null ? undefined : `national Medicare amount ${formatUsd2(r.medicare_rate)}`;
            return (
              <tr key={unitRowKey(r)} className={r.thin ? 'is-thin' : undefined}>
                <th scope="row" className="comparison-table__service">
                  <ServiceUnitCell code={r.service_code} name={r.service_name} publishedName={r.published_name} unit={r}
                    category={r.category} thin={r.thin} thinReason={r.thin_reason} confidence={{ level: r.confidence, reasons: r.confidence_reasons }} />
                </th>
                <td className="num">
                  <PriceWithMedicare pct={r.reference_medicare_pct} detail={national} price={
                    <Price value={r.reference_price} label={`${reference?.shortName ?? 'Reference'} price of ${unit}`}
                      onClick={() => onTrace(r, reference?.id ?? null)} />} />
                </td>
                <td>
                  {priced.length === 0 ? <span className="muted">-</span> : (
                    <ul className="competitor-prices">
                      {priced.map((c) => (
                        <li key={c.id} title={c.title}>
                          <span className="competitor-prices__name">{c.name}</span>
                          <span className="competitor-prices__price">
                            <PriceWithMedicare pct={r.competitor_medicare_pct[c.id] ?? null} detail={national} price={
                              <Price value={r.competitor_prices[c.id] ?? null} label={`${c.name} price of ${unit}`} onClick={() => onTrace(r, c.id)} />} />
                          </span>
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td className="num">
                  <PriceWithMedicare pct={r.market_medicare_pct} detail="mean of the competitors' figures" price={formatUsd(r.market_average)} />
                  <PriceStrip data={stripData(r, names, bands?.get(unitRowKey(r)) ?? null)} referenceName={reference?.shortName ?? 'Reference'} busy={bandsPending === true} />
                </td>
                <td className="num"><OverpaymentCell overpayment={r.overpayment} variance={r.reference_variance} position={positionOf(r.reference_variance)} /></td>
                <td className="num">{formatCount(r.claims_volume)}</td>
                <td className="num">{formatUsd(r.potential_savings)}</td>
                <td>
                  <button type="button" className="button live-small" aria-label={`Sources of ${unit}`} onClick={() => onTrace(r, null)}>
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
});
