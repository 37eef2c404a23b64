/**
 * The confidence of a comparison unit on the live comparison (docs/methodology.md, Confidence and
 * distribution): its badge with the reasons in the tooltip and the accessible name, the 'Minimum
 * confidence' filter, and the row's price strip (src/charts/price-strip-chart.ts) with the same
 * facts in words for assistive technology.
 */
import { memo, useEffect, useId, useRef, type ReactElement } from 'react';
import type { LiveServicePricingRecord, MarketBand, MinConfidence } from '../../../contract/api';
import type { Confidence } from '../../../contract/rules/confidence';
import { formatUsd } from '../../../contract/rules/format';
import { drawSoon } from '../../charts/draw-queue';
import { priceStripChart, STRIP_HEIGHT, STRIP_WIDTH, type PriceStripData } from '../../charts/price-strip-chart';
import './unit.css';

const LEVEL_LABEL: Record<Confidence, string> = { high: 'High confidence', medium: 'Medium confidence', low: 'Low confidence' };

/** What the badge's tooltip and accessible name say: its level, then every reason that lowered it. */
export function confidenceText(confidence: Confidence, reasons: readonly string[], thin: boolean): string {
  const why = reasons.length === 0 ? 'every check passed (support, spread, % of Medicare, negotiated type)' : reasons.join('; ');
  return `${LEVEL_LABEL[confidence]}: ${why}${thin ? '. Left out of the summary figures.' : ''}`;
}

/** The unit's confidence badge: 'Low confidence' with its reasons (a thin unit's too). */
export function ConfidenceBadge({ confidence, reasons, thin }: { confidence: Confidence; reasons: readonly string[]; thin: boolean }): ReactElement {
  const text = confidenceText(confidence, reasons, thin);
  return (
    <span className={`unit-confidence unit-confidence--${confidence}`} role="note" aria-label={text} title={text}>
      {confidence !== 'high' && (
        <svg width="12" height="12" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2.4} strokeLinecap="round"
          strokeLinejoin="round" aria-hidden="true" focusable="false"><path d="M12 3l10 18H2L12 3z" /><path d="M12 10v4M12 17.5v.01" /></svg>
      )}
      {LEVEL_LABEL[confidence]}
    </span>
  );
}

const MIN_LABELS: ReadonlyArray<readonly [MinConfidence | '', string]> = [['', 'Any'], ['medium', 'Medium or high'], ['high', 'High only']];

/** 'Minimum confidence': Any, Medium or high, High only (`min_confidence` in the URL and the API). */
export function MinConfidenceSelect({ value, onChange }: { value: MinConfidence | null; onChange(v: MinConfidence | null): void }): ReactElement {
  const id = useId();
  return (
    <div className="filter-field">
      <label htmlFor={id}>Minimum confidence</label>
      <select id={id} className="select" value={value ?? ''} onChange={(e) => onChange(e.target.value === '' ? null : (e.target.value as MinConfidence))}
        title="Hide the services whose prices are of a lower confidence; they leave the summary cards too">
        {MIN_LABELS.map(([v, label]) => <option key={v} value={v}>{label}</option>)}
      </select>
    </div>
  );
}

/** The strip's data of record `r`: the competitors' medians by their short names, the reference price, the market band once known. */
export function stripData(r: LiveServicePricingRecord, names: ReadonlyMap<string, string>, band: Pick<MarketBand, 'p25' | 'p75'> | null): PriceStripData {
  return {
    competitors: Object.entries(r.competitor_prices).filter((e): e is [string, number] => e[1] !== null).map(([id, price]) => ({ name: names.get(id) ?? id, price })),
    reference: r.reference_price,
    band: band === null ? null : [band.p25, band.p75],
  };
}

/** The strip in words: '3 competitor medians from $80 to $120; market band $85 to $110; Anthem price $130, above them all'. */
export function stripText(d: PriceStripData, referenceName: string): string {
  const prices = d.competitors.map((c) => c.price);
  const range = prices.length === 0 ? 'no competitor price'
    : prices.length === 1 ? `one competitor median, ${formatUsd(prices[0]!)}`
      : `${prices.length} competitor medians from ${formatUsd(Math.min(...prices))} to ${formatUsd(Math.max(...prices))}`;
  const band = d.band === null ? '' : `; market band ${formatUsd(d.band[0])} to ${formatUsd(d.band[1])}`;
  if (d.reference === null) return `${range}${band}; no ${referenceName} price`;
  const where = prices.length === 0 ? '' : d.reference > Math.max(...prices) ? ', above them all' : d.reference < Math.min(...prices) ? ', below them all' : ', among them';
  return `${range}${band}; ${referenceName} price ${formatUsd(d.reference)}${where}`;
}

/** A row's price strip: an image named by stripText, busy (`aria-busy`) while its band is yet to come. */
export const PriceStrip = memo(function PriceStrip({ data, referenceName, busy = false }: { data: PriceStripData; referenceName: string; busy?: boolean }): ReactElement {
  const box = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    // a page draws fifty of them: in slices (src/charts/draw-queue.ts), not in one long task; the
    // strip drawn before stays until its successor replaces it
    return drawSoon(() => {
      const node = priceStripChart([data]);
      node.setAttribute('aria-hidden', 'true');
      el.replaceChildren(node);
    });
  }, [data]);
  return <span ref={box} className="price-strip" role="img" aria-label={stripText(data, referenceName)} title={stripText(data, referenceName)} aria-busy={busy || undefined}
    style={{ width: STRIP_WIDTH, height: STRIP_HEIGHT }} />;
});
