/**
 * The old dashboard 'Healthcare Price Transparency Dashboard' (/old-dashboard), docs/screens.md
 * (Old dashboard and overview), on fixed sample data: a spinner for 1 second, then the common-services bar
 * chart, the availability trend chart, the regional state grid and table, and Recent Activity.
 */
import { useEffect, useState, type ReactElement } from 'react';
import { formatCount, formatUsd } from '../../../contract/rules/format';
import { availabilityTrendChart } from '../../charts/availability-trend-chart';
import { commonServicesChart } from '../../charts/common-services-chart';
import { PlotFigure } from '../../components/charts/PlotFigure';
import { formatAlertDate } from '../../components/alerts/AlertsList';
import { DataTable, type Column } from '../../components/table/DataTable';
import { Panel, PanelRow } from '../../components/dashboard/Panel';
import { PageHeader } from '../../components/PageHeader';
import {
  AVAILABILITY_TREND, COMMON_SERVICE_COUNTS, RECENT_ACTIVITY, STATE_AVAILABILITY, heatOpacity, type StateAvailability,
} from '../data/old-dashboard';
import '../../styles/screens.css';
import './OldDashboard.css';

/** The loading delay, ms. */
export const OLD_DASHBOARD_DELAY_MS = 1000;

/**
 * Tiles of a lower opacity show dark text, the others white (WCAG AA, 4.5:1): the dark ink keeps 4.5:1 up
 * to the accent at 0.8 over white, where white text (with its shadow) takes over.
 */
const DARK_TEXT_BELOW = 0.8;

const STATE_COLUMNS: Column<StateAvailability>[] = [
  { key: 'name', header: 'State', rowHeader: true, cell: (s) => `${s.name} (${s.state})`, sortValue: (s) => s.name },
  { key: 'files', header: 'Files', align: 'right', cell: (s) => formatCount(s.files), sortValue: (s) => s.files },
  { key: 'providers', header: 'Providers', align: 'right', cell: (s) => formatCount(s.providers), sortValue: (s) => s.providers },
  { key: 'rate', header: 'Avg Rate', align: 'right', cell: (s) => formatUsd(s.averageRate), sortValue: (s) => s.averageRate },
];

export function OldDashboard(): ReactElement {
  const [ready, setReady] = useState(false);
  // States ticked in the table are outlined in the grid.
  const [picked, setPicked] = useState<Set<string>>(() => new Set());
  useEffect(() => {
    const timer = setTimeout(() => setReady(true), OLD_DASHBOARD_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  const maxFiles = Math.max(...STATE_AVAILABILITY.map((s) => s.files));
  const last = AVAILABILITY_TREND[AVAILABILITY_TREND.length - 1];

  return (
    <section className="page" aria-labelledby="old-dashboard-title" aria-busy={!ready}>
      <title>Healthcare Price Transparency Dashboard · Compete</title>
      <PageHeader id="old-dashboard-title" title="Healthcare Price Transparency Dashboard" sample
        description="Publication of machine-readable files and negotiated rates." />
      {!ready ? (
        <div className="loading-block panel" role="status">
          <span className="spinner" aria-hidden="true" />
          <span>Loading...</span>
        </div>
      ) : (
        <>
          <PanelRow>
            <Panel title="Most Common Services" subtitle="Providers publishing a rate">
              <PlotFigure chart={commonServicesChart} rows={COMMON_SERVICE_COUNTS} label="Most common services, bar chart of providers per CPT code" />
            </Panel>
            <Panel title="Data Availability Trend"
              subtitle={last && `${formatCount(last.files)} files · ${last.compliance.toFixed(1)}% compliance in ${last.month}`}>
              <PlotFigure chart={availabilityTrendChart} rows={AVAILABILITY_TREND} label="Files published, line chart, Jul 2022 to Jan 2024" />
            </Panel>
          </PanelRow>
          <PanelRow wideLeft>
            <Panel title="Regional Overview" subtitle="Files published by state">
              <ul className="state-grid" aria-label="Files published by state">
                {STATE_AVAILABILITY.map((s) => (
                  <li key={s.state} className={`state-grid__tile${heatOpacity(s.files, maxFiles) < DARK_TEXT_BELOW ? ' is-light' : ''}${picked.has(s.state) ? ' is-picked' : ''}`}
                    style={{ backgroundColor: `rgba(31, 95, 191, ${heatOpacity(s.files, maxFiles)})` }}
                    title={`${s.name}: ${formatCount(s.files)} files`}>
                    <span className="state-grid__code">{s.state}</span>
                    <span className="state-grid__value">{formatCount(s.files)}</span>
                  </li>
                ))}
              </ul>
              <DataTable caption="States by files published" columns={STATE_COLUMNS} rows={STATE_AVAILABILITY}
                rowKey={(s) => s.state} initialSort={{ key: 'files', direction: 'desc' }}
                selection={{ selected: picked, onChange: setPicked, rowLabel: (s) => s.name }}
                paging={{ offset: 0, total: STATE_AVAILABILITY.length }} />
            </Panel>
            <Panel title="Recent Activity">
              <ol className="activity">
                {RECENT_ACTIVITY.map((a) => (
                  <li key={a.id}>
                    <p>{a.text}</p>
                    <time dateTime={a.at}>{formatAlertDate(a.at)}</time>
                  </li>
                ))}
              </ol>
            </Panel>
          </PanelRow>
        </>
      )}
    </section>
  );
}
