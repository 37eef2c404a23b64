/**
 * A comparison unit's prices on one small line (docs/screens.md, Live comparison; docs/methodology.md,
 * Confidence and distribution): each selected competitor's median as a dot, the market band (p25-p75
 * of their providers' medians pooled) as a shaded box, the reference price as a tick, in a few dozen pixels, so that a row shows at a glance whether the
 * reference price sits inside the market or apart from it. A pure function: data in, SVG out.
 */
import * as Plot from '@observablehq/plot';
import { CHART_COLORS, type ChartOptions } from './chart-options';

export interface PriceStripData {
  /** The selected competitors' medians, USD. */
  competitors: ReadonlyArray<{ name: string; price: number }>;
  /** The reference insurer's median, USD; null without one. */
  reference: number | null;
  /** The market band [p25, p75] of the competitors' provider medians pooled, USD; null until known. */
  band: readonly [number, number] | null;
}

/** The strip's size, CSS pixels. */
export const STRIP_WIDTH = 132;
export const STRIP_HEIGHT = 22;

/** The x domain: every price, widened by 8 % of its span (or of the price when all are equal) so the marks clear the ends. */
export function stripDomain(d: PriceStripData): [number, number] | null {
  const all = [...d.competitors.map((c) => c.price), ...(d.reference === null ? [] : [d.reference]), ...(d.band ?? [])];
  if (all.length === 0) return null;
  const lo = Math.min(...all);
  const hi = Math.max(...all);
  const pad = (hi - lo || Math.abs(hi) || 1) * 0.08;
  return [lo - pad, hi + pad];
}

/** The strip of `d` (a single row of `rows`), or an empty SVG of the same size without any price. */
export function priceStripChart(rows: readonly PriceStripData[], options: ChartOptions = {}): SVGSVGElement | HTMLElement {
  const d = rows[0] ?? { competitors: [], reference: null, band: null };
  const domain = stripDomain(d) ?? [0, 1];
  return Plot.plot({
    width: options.width ?? STRIP_WIDTH,
    height: STRIP_HEIGHT,
    margin: 0,
    marginLeft: 4,
    marginRight: 4,
    style: { overflow: 'visible', background: 'transparent' },
    ...(options.document ? { document: options.document } : {}),
    x: { domain, axis: null },
    y: { axis: null, domain: [0, 1] },
    marks: [
      Plot.ruleY([0.5], { stroke: CHART_COLORS.grid }),
      ...(d.band === null ? [] : [Plot.rect([d.band], { x1: (b: readonly [number, number]) => b[0], x2: (b: readonly [number, number]) => b[1], y1: 0.2, y2: 0.8,
        fill: CHART_COLORS.accent, fillOpacity: 0.16 })]),
      Plot.dot(d.competitors, { x: 'price', y: 0.5, r: 3, fill: CHART_COLORS.muted, fillOpacity: 0.75 }),
      ...(d.reference === null ? [] : [Plot.ruleX([d.reference], { y1: 0.05, y2: 0.95, stroke: CHART_COLORS.bad, strokeWidth: 2.5 })]),
    ],
  });
}
