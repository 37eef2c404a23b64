/**
 * The old dashboard's common-services bar chart, docs/screens.md (Old dashboard and overview): providers
 * publishing a rate per service, vertical bars by CPT code, with a tooltip per bar. A pure
 * function: rows in, SVG element out.
 */
import * as Plot from '@observablehq/plot';
import { formatCount } from '../../contract/rules/format';
import { CHART_COLORS, baseOptions, type ChartOptions } from './chart-options';

export interface CommonServiceRow {
  serviceCode: string;
  serviceName: string;
  providerCount: number;
}

export function commonServicesChart(rows: readonly CommonServiceRow[], options: ChartOptions = {}): SVGSVGElement | HTMLElement {
  const data = [...rows];
  const base = baseOptions(options, 560);
  // Codes are rotated when the bars get narrower than their labels (docs/architecture.md).
  const rotate = base.width < 480;
  return Plot.plot({
    ...base,
    height: rotate ? 310 : 280,
    marginLeft: 52,
    marginBottom: rotate ? 58 : 40,
    x: { domain: data.map((d) => d.serviceCode), label: 'CPT code', padding: 0.25, tickRotate: rotate ? -45 : 0 },
    y: { label: 'Providers', grid: true, nice: true },
    marks: [
      Plot.barY(data, { x: 'serviceCode', y: 'providerCount', fill: CHART_COLORS.accent, rx: 2 }),
      Plot.ruleY([0]),
      Plot.tip(data, Plot.pointerX({
        x: 'serviceCode', y: 'providerCount',
        title: (d: CommonServiceRow) => `${d.serviceName} (${d.serviceCode})\n${formatCount(d.providerCount)} providers`,
      })),
    ],
  });
}
