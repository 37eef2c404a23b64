/**
 * The index dashboard 'Data Comparison Tool' (product-spec §2 Dashboard content) on the fixed
 * sample data: three KPI cards, 'Top 10 Overpaid Services', 'Overpayment Trend Over Time', the
 * 'Variance by Region' map with its state modal, and the alerts list.
 */
import { useMemo, useState, type ReactElement } from 'react';
import { formatPercent } from '../../contract/format';
import { topOverpaidChart } from '../charts/top-overpaid-chart';
import { overpaymentTrendChart } from '../charts/overpayment-trend-chart';
import { AlertsList } from '../components/alerts/AlertsList';
import { PlotFigure } from '../components/charts/PlotFigure';
import { AlertIcon, DollarIcon, TrendUpIcon } from '../components/Icons';
import { RegionModal } from '../components/map/RegionModal';
import { UsStateMap } from '../components/map/UsStateMap';
import { SummaryCard } from '../components/SummaryCard';
import { SAMPLE_ALERTS } from '../sample-data/alerts';
import { OVERPAYMENT_TREND, REGION_SERVICE_PRICES, REGIONAL_OVERPAYMENT, overpaymentLevel } from '../sample-data/dashboard';
import { dashboardKpis, topOverpaid } from '../sample-data/dashboard-kpis';
import { SAMPLE_SERVICES } from '../sample-data/services';
import type { Region, StateArea } from '../sample-data/us-states';
import '../styles/screens.css';

/** The modal's note on sample data (product-spec §2). */
export const SAMPLE_PRICES_NOTE = 'All prices are illustrative mock data.';

const REGION_VALUES: Partial<Record<Region, number>> = Object.fromEntries(
  REGIONAL_OVERPAYMENT.map((r) => [r.region, r.anthemAvgOverpayment]),
);

export function Dashboard(): ReactElement {
  const kpis = useMemo(() => dashboardKpis(SAMPLE_SERVICES), []);
  const top = useMemo(
    () => topOverpaid(SAMPLE_SERVICES).map((s) => ({ serviceName: s.serviceName, serviceCode: s.serviceCode, variance: s.anthemVariance })),
    [],
  );
  const [selected, setSelected] = useState<StateArea | null>(null);

  return (
    <section className="page" aria-labelledby="dashboard-title">
      <title>Data Comparison Tool · Compete</title>
      <header className="page-header">
        <div>
          <h1 id="dashboard-title">Data Comparison Tool</h1>
          <p className="muted">Anthem Blue Cross negotiated rates against nine competitor insurers.</p>
        </div>
        <span className="sample-badge">Sample data</span>
      </header>

      <div className="card-grid">
        <SummaryCard title="Average Overpayment" value={formatPercent(kpis.averageOverpayment)} tone="bad"
          subtitle="Claims-weighted, against the market average" icon={<TrendUpIcon />} />
        <SummaryCard title="Top Overpaid Service" value={kpis.topService.serviceName}
          subtitle={`CPT ${kpis.topService.serviceCode} · ${formatPercent(kpis.topService.anthemVariance)} above market`}
          icon={<AlertIcon />} />
        <SummaryCard title="Claims Above Market" value={formatPercent(kpis.claimsAboveMarket)}
          subtitle="Share of services priced above market" icon={<DollarIcon />} />
      </div>

      <div className="two-col two-col--wide-left">
        <div className="section panel">
          <div className="section__head">
            <h2>Top 10 Overpaid Services</h2>
            <p>Percent above the market average</p>
          </div>
          <PlotFigure chart={topOverpaidChart} rows={top} label="Top 10 Overpaid Services, bar chart, 0 to 30 percent" />
        </div>
        <div className="section panel">
          <div className="section__head">
            <h2>Overpayment Trend Over Time</h2>
            <p>Average overpayment by month</p>
          </div>
          <PlotFigure chart={overpaymentTrendChart} rows={OVERPAYMENT_TREND} label="Overpayment Trend Over Time, line chart, 8 to 20 percent" />
        </div>
      </div>

      <div className="two-col two-col--wide-left">
        <div className="section panel">
          <div className="section__head">
            <h2>Variance by Region</h2>
            <p>Select a state to compare its region's service prices</p>
          </div>
          <UsStateMap values={REGION_VALUES} level={overpaymentLevel} onSelect={setSelected} />
        </div>
        <div className="section panel">
          <div className="section__head">
            <h2>Alerts</h2>
            <p>{`${SAMPLE_ALERTS.filter((a) => !a.acknowledged).length} open`}</p>
          </div>
          <AlertsList alerts={SAMPLE_ALERTS} />
        </div>
      </div>

      {selected && (
        <RegionModal area={selected} rows={REGION_SERVICE_PRICES[selected.region] ?? []} note={SAMPLE_PRICES_NOTE}
          onClose={() => setSelected(null)} />
      )}
    </section>
  );
}
