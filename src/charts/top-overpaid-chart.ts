/**
 * 'Top 10 Overpaid Services', docs/screens.md (Sample dashboard, Live dashboard): horizontal bars of the
 * reference insurer's variance, percent, on a fixed 0-30 % axis, highest first, with a tooltip
 * per bar (pointer). A pure function: rows in, SVG element out. With `options.href` each bar is a
 * link (an SVG `<a>`; PlotFigure routes its clicks inside the app).
 */
import * as Plot from '@observablehq/plot';
import { formatPercent } from '../../contract/rules/format';
import { CHART_COLORS, baseOptions, type ChartOptions } from './chart-options';
import { topOverpaidHeight } from './chart-sizes';

export interface OverpaidServiceRow {
  serviceName: string;
  serviceCode: string;
  /** Percent above the market average. */
  variance: number;
  /** A bar's key when one code has several bars (live: `code|class|component|setting`); default serviceName. */
  key?: string;
  /** The comparison unit, e.g. 'Prof · Global · Non-fac': in the tooltip, and in the label when the code has several bars. */
  unit?: string;
}

/** Axis domain of the chart, percent. */
export const TOP_OVERPAID_DOMAIN: [number, number] = [0, 30];

export { topOverpaidHeight };

export interface TopOverpaidOptions extends ChartOptions {
  /** Replaces the fixed 0-30 % axis (the live dashboard fits its data). */
  domain?: [number, number];
  /** The link of a bar (e.g. the live comparison of that service); absent = bars are not links. */
  href?: (row: OverpaidServiceRow) => string;
}

/** See the module comment. */
export function topOverpaidChart(rows: readonly OverpaidServiceRow[], options: TopOverpaidOptions = {}): SVGSVGElement | HTMLElement {
  const data = rows.slice(0, 10);
  const base = baseOptions(options, 640);
  // The labels take up to 42 % of the width (half on a phone); about 7.6 px per character at
  // 12 px, after the 16 px of tick and gap.
  const marginLeft = base.width < 480 ? Math.round(base.width * 0.5) : Math.min(280, Math.round(base.width * 0.42));
  const chars = Math.floor((marginLeft - 16) / 7.6);
  const keyOf = (d: OverpaidServiceRow) => d.key ?? d.serviceName;
  const byKey = new Map(data.map((d) => [keyOf(d), d]));
  const repeated = new Set(data.filter((d, i) => data.findIndex((e) => e.serviceCode === d.serviceCode) !== i).map((d) => d.serviceCode));
  const label = (key: string) => {
    const d = byKey.get(key);
    if (!d) return key;
    const unit = d.unit && repeated.has(d.serviceCode) ? ` (${d.unit})` : '';
    return truncate(base.width >= 560 ? `${d.serviceCode} ${d.serviceName}${unit}` : `${d.serviceName}${unit}`, chars);
  };
  return Plot.plot({
    ...base,
    height: topOverpaidHeight(data.length),
    marginLeft,
    marginRight: 48,
    x: { domain: options.domain ?? TOP_OVERPAID_DOMAIN, label: 'Overpayment (%)', grid: true, ticks: base.width < 480 ? 3 : 6, tickFormat: (d: number) => `${d}%` },
    y: { domain: data.map(keyOf), label: null, tickFormat: label },
    marks: [
      Plot.barX(data, { x: 'variance', y: keyOf, fill: CHART_COLORS.bad, fillOpacity: 0.85, rx: 2, ...(options.href ? { href: options.href } : {}) }),
      Plot.text(data, { x: 'variance', y: keyOf, text: (d: OverpaidServiceRow) => formatPercent(d.variance), dx: 4, textAnchor: 'start', fill: CHART_COLORS.muted }),
      Plot.ruleX([0]),
      Plot.tip(data, Plot.pointerY({
        x: 'variance', y: keyOf, pointerEvents: 'none', // a click goes to the bar under the tip
        title: (d: OverpaidServiceRow) => `${d.serviceName}\nCPT ${d.serviceCode}${d.unit ? ` · ${d.unit}` : ''}\n${formatPercent(d.variance)} above market`,
      })),
    ],
  });
}

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
