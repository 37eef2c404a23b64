/**
 * The live dashboard 'Data Comparison Tool (Live)' (/live-dashboard; product-spec §2 Dashboard
 * content, §7, §8) on the worker's /api: the three KPI cards and 'Top 10 Overpaid Services' from
 * `GET /api/service-pricing` (every comparison unit; the figures count the units with a variance
 * that are not thin, and name a unit by its code and badges), 'Overpayment Trend Over Time' from
 * `GET /api/overpayment-trend`, 'Variance by Region' from `GET /api/regional-comparison` with
 * the state modal from `GET /api/regional-services`, and the alerts list. The charts' axes fit
 * their data. The open state's modal lives in the URL (`?state=CA`), so it can be shared.
 * 'At shared providers' (metrics.md, Per comparison unit; `shared_providers=1` in the URL) sends
 * the option to every figure's endpoint (the alerts stay over every provider) and shows a note.
 */
import { useCallback, useMemo, type ReactElement } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { formatCount, formatPercent, formatSignedPercent } from '../../contract/format';
import { overpaymentTrendChart, type TrendRow } from '../charts/overpayment-trend-chart';
import { topOverpaidChart, type OverpaidServiceRow } from '../charts/top-overpaid-chart';
import type { ChartOptions } from '../charts/chart-options';
import { PlotFigure } from '../components/charts/PlotFigure';
import { AlertIcon, DollarIcon, TrendUpIcon } from '../components/Icons';
import { comparisonPathOf, dashboardKpis, fitDomain, topOverpaid } from '../components/live/dashboard-figures';
import { LiveAlerts } from '../components/live/LiveAlerts';
import { LiveStateModal } from '../components/live/LiveStateModal';
import { SharedProvidersNote, SharedProvidersSwitch } from '../components/live/SharedProviders';
import { UnitBadges } from '../components/live/UnitParts';
import { unitRowKey, unitShortText, unitText } from '../components/live/unit-format';
import { useApi } from '../components/live/use-api';
import { UsStateMap } from '../components/map/UsStateMap';
import { SummaryCard } from '../components/SummaryCard';
import { overpaymentLevel } from '../sample-data/dashboard';
import { STATE_AREAS } from '../sample-data/us-states';
import { parseSharedProviders, sharedProvidersParam, writeSharedProviders } from '../url-state/shared-providers';
import '../styles/screens.css';
import '../components/live/live.css';

export { LIVE_PRICES_NOTE } from '../components/live/LiveStateModal';

const AREAS_BY_CODE = new Map([...STATE_AREAS.values()].map((a) => [a.code, a]));

export function LiveDashboard(): ReactElement {
  const [search, setSearch] = useSearchParams();
  const shared = parseSharedProviders(search);
  const sharedParam = sharedProvidersParam(shared);
  const pricing = useApi('GET /api/service-pricing', sharedParam);
  const regional = useApi('GET /api/regional-comparison', sharedParam);
  const trend = useApi('GET /api/overpayment-trend', sharedParam);
  const insurers = useApi('GET /api/insurers', {});
  const loads = [pricing, regional, trend, insurers];
  const failed = loads.find((l) => l.status === 'error');
  const ready = pricing.data && regional.data && trend.data && insurers.data;

  const records = useMemo(() => pricing.data?.records ?? [], [pricing.data]);
  const kpis = useMemo(() => dashboardKpis(records), [records]);
  const topRecords = useMemo(() => topOverpaid(records), [records]);
  const top: OverpaidServiceRow[] = useMemo(
    () => topRecords.map((r) => ({
      serviceName: r.service_name || r.service_code, serviceCode: r.service_code, variance: r.reference_variance,
      key: unitRowKey(r), unit: unitShortText(r),
    })),
    [topRecords],
  );
  const trendRows: TrendRow[] = useMemo(() => trend.data ?? [], [trend.data]);
  const topDomain = useMemo(() => fitDomain(top.map((t) => t.variance), true), [top]);
  const trendDomain = useMemo(() => fitDomain(trendRows.map((t) => t.value), false), [trendRows]);
  const topChart = useCallback((rows: readonly OverpaidServiceRow[], o: ChartOptions) =>
    topOverpaidChart(rows, { ...o, domain: topDomain, href: (r) => comparisonPathOf(r.serviceCode, r.variance, shared) }), [topDomain, shared]);
  const trendChart = useCallback((rows: readonly TrendRow[], o: ChartOptions) => overpaymentTrendChart(rows, { ...o, domain: trendDomain }), [trendDomain]);
  const stateValues = useMemo(() => Object.fromEntries((regional.data ?? []).map((r) => [r.region, r.anthem_avg_overpayment])), [regional.data]);
  const reference = insurers.data?.find((i) => i.isReference);
  const openState = search.get('state')?.toUpperCase() ?? null;
  const openArea = openState ? AREAS_BY_CODE.get(openState) : undefined;
  const setState = (code: string | null) => setSearch((cur) => {
    const next = new URLSearchParams(cur);
    if (code) next.set('state', code);
    else next.delete('state');
    return next;
  });

  return (
    <section className="page" aria-labelledby="live-dashboard-title">
      <title>Data Comparison Tool (Live) · Compete</title>
      <header className="page-header">
        <div>
          <h1 id="live-dashboard-title">Data Comparison Tool (Live)</h1>
          <p className="muted">
            {ready && reference
              ? `${reference.name} negotiated rates against ${formatCount(pricing.data.competitors.length)} competitor insurers, snapshot ${pricing.data.snapshot}.`
              : 'Negotiated rates of the reference insurer against its competitors, from the dataset.'}{' '}
            <Link className="live-method" to="/methodology#dashboard">How these figures are computed</Link>
          </p>
        </div>
        <SharedProvidersSwitch checked={shared} onChange={(on) => setSearch((cur) => writeSharedProviders(cur, on))} />
      </header>

      {shared && <SharedProvidersNote what="Figures" extra="The alerts stay over every provider." />}

      {failed && (
        <div className="live-error-panel panel" role="alert">
          <p><strong>Failed to load dashboard data.</strong></p>
          {failed.status === 'error' && <p className="live-error-panel__detail">{failed.message}</p>}
        </div>
      )}
      {!failed && !ready && <p className="live-status" role="status">Loading dashboard data...</p>}

      {!failed && ready && (
        <>
          <div className="card-grid">
            <SummaryCard title="Average Overpayment" value={formatSignedPercent(kpis.averageOverpayment)}
              tone={kpis.averageOverpayment !== null && kpis.averageOverpayment > 0 ? 'bad' : 'neutral'}
              subtitle={`Claims-weighted over ${formatCount(kpis.withVariance)} services with a variance${kpis.thinLeftOut > 0
                ? ` · ${formatCount(kpis.thinLeftOut)} low-confidence left out` : ''}`} icon={<TrendUpIcon />} />
            <SummaryCard title="Top Overpaid Service" value={kpis.top ? kpis.top.service_name || kpis.top.service_code : '-'}
              subtitle={kpis.top ? `${kpis.top.billing_code_type} ${kpis.top.service_code} · ${unitText(kpis.top)} · ${formatSignedPercent(kpis.top.reference_variance)} against market`
                : 'No service has a variance'}
              icon={<AlertIcon />} />
            <SummaryCard title="Claims Above Market" value={formatPercent(kpis.claimsAboveMarket)}
              subtitle="Share of services priced above market" icon={<DollarIcon />} />
          </div>

          <div className="two-col two-col--wide-left">
            <div className="section panel">
              <div className="section__head">
                <h2>Top 10 Overpaid Services</h2>
                <p>Percent against the market average · <Link to="/methodology#variance">variance</Link> · select a bar for its prices</p>
              </div>
              {top.length === 0 ? <p className="live-status">No service has a variance with enough providers behind it.</p> : (
                <>
                  <PlotFigure chart={topChart} rows={top} label={`Top 10 Overpaid Services, bar chart, ${topDomain[0]} to ${topDomain[1]} percent`} />
                  <details className="live-top-links">
                    <summary>Open a service in the comparison</summary>
                    <ol>
                      {topRecords.map((r) => (
                        <li key={unitRowKey(r)}>
                          <Link to={comparisonPathOf(r.service_code, r.reference_variance, shared)}>{`${r.service_code} ${r.service_name || r.service_code}`}</Link>
                          <span className="live-top-links__value">{formatSignedPercent(r.reference_variance)}</span>
                          <span className="live-top-links__unit"><UnitBadges unit={r} /></span>
                        </li>
                      ))}
                    </ol>
                  </details>
                </>
              )}
            </div>
            <div className="section panel">
              <div className="section__head">
                <h2>Overpayment Trend Over Time</h2>
                <p>Average overpayment by snapshot month · <Link to="/methodology#trend">trend</Link></p>
              </div>
              {trendRows.length === 0 ? <p className="live-status">No month has a variance.</p> : (
                <PlotFigure chart={trendChart} rows={trendRows} label={`Overpayment Trend Over Time, line chart, ${trendDomain[0]} to ${trendDomain[1]} percent`} />
              )}
            </div>
          </div>

          <div className="two-col two-col--wide-left">
            <div className="section panel">
              <div className="section__head">
                <h2>Variance by Region</h2>
                <p>Average overpayment per state · select a state for its service prices</p>
              </div>
              <UsStateMap values={{}} stateValues={stateValues} level={overpaymentLevel} onSelect={(a) => setState(a.code)} />
            </div>
            <LiveAlerts />
          </div>
        </>
      )}

      {ready && openArea?.available && (
        <LiveStateModal key={openArea.code} area={openArea} reference={reference ?? null} competitors={insurers.data.filter((i) => !i.isReference)}
          sharedProviders={shared} onClose={() => setState(null)} />
      )}
    </section>
  );
}
