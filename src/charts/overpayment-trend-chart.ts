/**
 * 'Overpayment Trend Over Time', docs/screens.md (Sample dashboard, Live dashboard): the average overpayment
 * by month, percent, on a fixed 8-20 % axis; months are labels in the order given (the sample's
 * 'Dez' included), with a tooltip per point (pointer). A pure function: rows in, SVG element out.
 */
import * as Plot from '@observablehq/plot';
import { formatPercent } from '../../contract/rules/format';
import { CHART_COLORS, baseOptions, type ChartOptions } from './chart-options';
import { TREND_HEIGHT } from './chart-sizes';

export interface TrendRow {
  month: string;
  /** Percent. */
  value: number;
}

/** Axis domain of the chart, percent. */
export const TREND_DOMAIN: [number, number] = [8, 20];

export { TREND_HEIGHT };

/** `options.domain` replaces the fixed 8-20 % axis (the live dashboard fits its data). */
export function overpaymentTrendChart(rows: readonly TrendRow[], options: ChartOptions & { domain?: [number, number] } = {}): SVGSVGElement | HTMLElement {
  const data = [...rows];
  const domain = options.domain ?? TREND_DOMAIN;
  const base = baseOptions(options, 640);
  // Month labels are rotated when about 30 px apart or less.
  const rotate = base.width < 480;
  return Plot.plot({
    ...base,
    height: TREND_HEIGHT,
    marginLeft: 48,
    marginBottom: rotate ? 40 : 30,
    x: { type: 'point', domain: data.map((d) => d.month), label: null, padding: 0.3, tickRotate: rotate ? -45 : 0 },
    y: { domain, label: 'Overpayment (%)', grid: true, tickFormat: (d: number) => `${d}%` },
    marks: [
      Plot.areaY(data, { x: 'month', y1: domain[0], y2: 'value', fill: CHART_COLORS.accent, fillOpacity: 0.08 }),
      Plot.lineY(data, { x: 'month', y: 'value', stroke: CHART_COLORS.accent, strokeWidth: 2.5 }),
      Plot.dot(data, { x: 'month', y: 'value', fill: CHART_COLORS.accent, r: 3.5 }),
      Plot.tip(data, Plot.pointerX({ x: 'month', y: 'value', title: (d: TrendRow) => `${d.month}\n${formatPercent(d.value)} average overpayment` })),
    ],
  });
}
