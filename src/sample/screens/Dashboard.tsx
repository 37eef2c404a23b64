/**
 * The index dashboard 'Data Comparison Tool', docs/screens.md (Sample dashboard), on the fixed
 * sample data: three KPI cards, 'Top 10 Overpaid Services', 'Overpayment Trend Over Time', the
 * 'Variance by Region' map with its state modal, and the alerts list.
 */
import { useMemo, useState, type ReactElement } from 'react';
import { formatPercent } from '../../../contract/rules/format';
import { topOverpaidChart } from '../../charts/top-overpaid-chart';
import { overpaymentTrendChart } from '../../charts/overpayment-trend-chart';
import { AlertsList } from '../../components/alerts/AlertsList';
import { RegionMapPanel, TopOverpaidPanel, TrendPanel } from '../../components/dashboard/DashboardPanels';
import { KpiCards } from '../../components/dashboard/KpiCards';
import { Panel, PanelRow } from '../../components/dashboard/Panel';
import { overpaymentLevel } from '../../components/map/overpayment-level';
import { RegionModal } from '../../components/map/RegionModal';
import { PageHeader } from '../../components/PageHeader';
import { SAMPLE_ALERTS } from '../data/alerts';
import { OVERPAYMENT_TREND, REGION_SERVICE_PRICES, REGIONAL_OVERPAYMENT } from '../data/dashboard';
import { dashboardKpis, topOverpaid } from '../data/dashboard-kpis';
import { SAMPLE_SERVICES } from '../data/services';
import type { Region, StateArea } from '../../../contract/rules/state-areas';
import '../../styles/screens.css';

/** The modal's note on sample data. */
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
      <PageHeader id="dashboard-title" title="Data Comparison Tool" sample
        description="Anthem Blue Cross negotiated rates against nine competitor insurers." />

      <KpiCards
        averageOverpayment={{ value: formatPercent(kpis.averageOverpayment), tone: 'bad', subtitle: 'Claims-weighted, against the market average' }}
        topService={{
          value: kpis.topService.serviceName,
          subtitle: `CPT ${kpis.topService.serviceCode} · ${formatPercent(kpis.topService.anthemVariance)} above market`,
        }}
        claimsAboveMarket={formatPercent(kpis.claimsAboveMarket)} />

      <PanelRow wideLeft>
        <TopOverpaidPanel subtitle="Percent above the market average" chart={topOverpaidChart} rows={top} domain={[0, 30]} />
        <TrendPanel subtitle="Average overpayment by month" chart={overpaymentTrendChart} rows={OVERPAYMENT_TREND} domain={[8, 20]} />
      </PanelRow>

      <PanelRow wideLeft>
        <RegionMapPanel subtitle="Select a state to compare its region's service prices" values={REGION_VALUES}
          level={overpaymentLevel} onSelect={setSelected} />
        <Panel title="Alerts" subtitle={`${SAMPLE_ALERTS.filter((a) => !a.acknowledged).length} open`}>
          <AlertsList alerts={SAMPLE_ALERTS} />
        </Panel>
      </PanelRow>

      {selected && (
        <RegionModal area={selected} rows={REGION_SERVICE_PRICES[selected.region] ?? []} note={SAMPLE_PRICES_NOTE}
          onClose={() => setSelected(null)} />
      )}
    </section>
  );
}
