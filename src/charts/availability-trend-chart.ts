/**
 * The old dashboard's availability trend, docs/screens.md (Old dashboard and overview): machine-readable
 * files published per quarter, Jul 2022 to Jan 2024, with the compliance percent in the tooltip.
 * A pure function: rows in, SVG element out.
 */
import * as Plot from '@observablehq/plot';
import { formatCount, formatPercent } from '../../contract/rules/format';
import { CHART_COLORS, baseOptions, type ChartOptions } from './chart-options';

export interface AvailabilityRow {
  month: string;
  files: number;
  /** Percent. */
  compliance: number;
}

export function availabilityTrendChart(rows: readonly AvailabilityRow[], options: ChartOptions = {}): SVGSVGElement | HTMLElement {
  const data = [...rows];
  const base = baseOptions(options, 560);
  const rotate = base.width < 520;
  return Plot.plot({
    ...base,
    height: rotate ? 310 : 280,
    marginLeft: 52,
    marginBottom: rotate ? 56 : 30,
    x: { type: 'point', domain: data.map((d) => d.month), label: null, padding: 0.3, tickRotate: rotate ? -40 : 0 },
    y: { label: 'Files published', grid: true, domain: [0, 2400] },
    marks: [
      Plot.areaY(data, { x: 'month', y: 'files', fill: CHART_COLORS.accent, fillOpacity: 0.1 }),
      Plot.lineY(data, { x: 'month', y: 'files', stroke: CHART_COLORS.accent, strokeWidth: 2.5 }),
      Plot.dot(data, { x: 'month', y: 'files', fill: CHART_COLORS.accent, r: 3.5 }),
      Plot.tip(data, Plot.pointerX({
        x: 'month', y: 'files',
        title: (d: AvailabilityRow) => `${d.month}\n${formatCount(d.files)} files\n${formatPercent(d.compliance)} compliance`,
      })),
    ],
  });
}
