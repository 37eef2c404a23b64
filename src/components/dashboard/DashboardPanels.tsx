/**
 * The dashboards' chart and map panels (docs/screens.md: Sample dashboard, Live dashboard), shared by the sample
 * dashboard and the live one: 'Top 10 Overpaid Services', 'Overpayment Trend Over Time' and
 * 'Variance by Region'. They take plain rows and a chart function; where the rows come from is the
 * screen's business. A chart's accessible name states its axis domain (percent). While a screen
 * has no rows yet, `pending` (its loading text or error) takes the chart's place in a box of the
 * chart's height (the map's size), so that nothing below moves when the chart arrives.
 */
import type { ReactElement, ReactNode } from 'react';
import { TREND_HEIGHT, topOverpaidHeight } from '../../charts/chart-sizes';
import type { TrendRow } from '../../charts/overpayment-trend-chart';
import type { OverpaidServiceRow } from '../../charts/top-overpaid-chart';
import { PlotFigure, type PlotFigureProps } from '../charts/PlotFigure';
import { UsStateMap, type UsStateMapProps } from '../map/UsStateMap';
import { Panel, PanelStatus } from './Panel';

interface ChartPanelProps<Row> {
  subtitle: ReactNode;
  chart: PlotFigureProps<Row>['chart'];
  rows: readonly Row[];
  /** The percent axis domain, named in the chart's accessible label. */
  domain: readonly [number, number];
  /** Shown instead of the chart when `rows` is empty. */
  empty?: string;
  /** Shown instead of the chart, in a box of its height, while the rows are not there (loading text, or error). */
  pending?: ReactNode;
}

/** `pending` in a box `height` px high at least, centred. */
function Pending({ height, children }: { height: number; children: ReactNode }): ReactElement {
  return <div className="panel-pending" style={{ minHeight: height }}>{children}</div>;
}

export function TopOverpaidPanel({ subtitle, chart, rows, domain, empty, pending, children }: ChartPanelProps<OverpaidServiceRow> & {
  /** Below the chart (e.g. the chart's links as a list), or below `pending` (what holds the list's place). */
  children?: ReactNode;
}): ReactElement {
  return (
    <Panel title="Top 10 Overpaid Services" subtitle={subtitle}>
      {pending !== undefined ? <><Pending height={topOverpaidHeight(10)}>{pending}</Pending>{children}</>
        : rows.length === 0 && empty !== undefined ? <PanelStatus>{empty}</PanelStatus> : (
        <>
          <PlotFigure chart={chart} rows={rows} label={`Top 10 Overpaid Services, bar chart, ${domain[0]} to ${domain[1]} percent`} />
          {children}
        </>
      )}
    </Panel>
  );
}

export function TrendPanel({ subtitle, chart, rows, domain, empty, pending }: ChartPanelProps<TrendRow>): ReactElement {
  return (
    <Panel title="Overpayment Trend Over Time" subtitle={subtitle}>
      {pending !== undefined ? <Pending height={TREND_HEIGHT}>{pending}</Pending>
        : rows.length === 0 && empty !== undefined ? <PanelStatus>{empty}</PanelStatus> : (
        <PlotFigure chart={chart} rows={rows} label={`Overpayment Trend Over Time, line chart, ${domain[0]} to ${domain[1]} percent`} />
      )}
    </Panel>
  );
}

export function RegionMapPanel({ subtitle, ...map }: { subtitle: string } & UsStateMapProps): ReactElement {
  return (
    <Panel title="Variance by Region" subtitle={subtitle}>
      <UsStateMap {...map} />
    </Panel>
  );
}
