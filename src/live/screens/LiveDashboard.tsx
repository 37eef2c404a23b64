/**
 * The live dashboard 'Data Comparison Tool (Live)' (/live-dashboard), docs/screens.md (Live
 * dashboard), on the worker's /api: the three KPI cards and 'Top 10 Overpaid Services' from
 * `GET /api/dashboard-figures` (computed in the worker over every comparison unit, so the page
 * receives only the figures and ten records; the figures count the units with a variance that are
 * not thin, and name a unit by its code and badges), 'Overpayment Trend Over Time' from
 * `GET /api/overpayment-trend`, 'Variance by Region' from `GET /api/regional-comparison` with
 * the state modal from `GET /api/regional-services`, and the alerts list. The charts' axes fit
 * their data. The open state's modal lives in the URL (`?state=CA`), so it can be shared.
 * 'At shared providers' and 'Where we bill it' (docs/methodology.md, Per comparison unit;
 * `shared_providers=1`, `billed=1` in the URL) send the options to every figure's endpoint (the
 * alerts stay over every provider) and show a note.
 * Each panel shows as soon as its own call answers, and until then its loading text or its error
 * in its own place (PanelPending), so that one slow or failing call hides nothing else and nothing
 * moves when a panel fills: the cards and the top 10 wait for the figures, the trend for its call,
 * the map for the regional comparison; the description naming the reference insurer waits for the
 * insurers and the figures, the state modal for the insurers. The cards wait for no chart: the two
 * charts (with Observable Plot) and the map's shapes are chunks loaded beside them
 * (src/components/lazy-module.ts), their panels saying 'Loading chart...' or 'Loading map...' meanwhile.
 */
import { useCallback, useMemo, type ReactElement } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { formatCount, formatPercent, formatSignedPercent } from '../../../contract/rules/format';
import type { ChartOptions } from '../../charts/chart-options';
import type { TrendRow } from '../../charts/overpayment-trend-chart';
import type { OverpaidServiceRow } from '../../charts/top-overpaid-chart';
import { RegionMapPanel, TopOverpaidPanel, TrendPanel } from '../../components/dashboard/DashboardPanels';
import { lazyModule, useLazyModule, type LazyState } from '../../components/lazy-module';
import { KpiCards, KpiCardsPending } from '../../components/dashboard/KpiCards';
import { PanelRow } from '../../components/dashboard/Panel';
import { comparisonPathOf, fitDomain } from '../components/dashboard-figures';
import { LiveAlerts } from '../components/LiveAlerts';
import { LiveStateModal } from '../components/LiveStateModal';
import { PanelPending } from '../components/PanelPending';
import { ProviderOptionsNote, ProviderOptionSwitches, useBilledAvailable } from '../components/SharedProviders';
import { UnitBadges } from '../components/UnitParts';
import { unitRowKey, unitShortText, unitText } from '../components/unit-format';
import { useApi, type ApiLoad } from '../components/use-api';
import { PageHeader } from '../../components/PageHeader';
import { overpaymentLevel } from '../../components/map/overpayment-level';
import { STATE_AREAS } from '../../../contract/rules/state-areas';
import { parseProviderOptions, providerOptionsParam, writeProviderOptions } from '../url-state/shared-providers';
import '../../styles/screens.css';
import '../components/live.css';

export { LIVE_PRICES_NOTE } from '../components/LiveStateModal';

const AREAS_BY_CODE = new Map([...STATE_AREAS.values()].map((a) => [a.code, a]));

/** The two charts and Observable Plot: a chunk loaded beside the first figures, not before them. */
const CHARTS = lazyModule(() => import('../../charts/dashboard-charts'));
type Charts = Awaited<ReturnType<typeof CHARTS.load>>;

/** A chart's place while its chunk loads or after it failed, else undefined. */
function chartsPendingOf(charts: LazyState<Charts>): ReactElement | undefined {
  if (charts.status === 'ready') return undefined;
  return charts.status === 'loading' ? <p className="live-status" role="status">Loading chart...</p> : (
    <div className="live-pending-error" role="alert">
      <p><strong>Failed to load the chart.</strong></p>
      <p className="live-error-panel__detail">{`${charts.message}. Reload the page.`}</p>
    </div>
  );
}

/** A panel's pending content while `load` has no data (its loading text, or its error), else undefined. */
function pendingOf(load: ApiLoad<unknown>, what: string): ReactElement | undefined {
  return load.data ? undefined : <PanelPending load={load} loading={`Loading ${what}...`} failed={`Failed to load ${what}.`} />;
}

/** `charts`, which a chart function is only called with once the chunk is in. @throws when it is not. */
function loadedCharts(charts: Charts | null): Charts {
  if (!charts) throw new Error('the dashboard charts are not loaded');
  return charts;
}

export function LiveDashboard(): ReactElement {
  const [search, setSearch] = useSearchParams();
  const asked = parseProviderOptions(search);
  // 'Where we bill it' asked in the URL of a dataset whose claims name no providers is off (its switch says why)
  const billedAvailable = useBilledAvailable();
  const shared = asked.sharedProviders;
  const billed = asked.billed && billedAvailable !== false;
  const options = useMemo(() => ({ sharedProviders: shared, billed }), [shared, billed]);
  const sharedParam = useMemo(() => providerOptionsParam({ sharedProviders: shared, billed }), [shared, billed]);
  const figures = useApi('GET /api/dashboard-figures', sharedParam);
  const regional = useApi('GET /api/regional-comparison', sharedParam);
  const trend = useApi('GET /api/overpayment-trend', sharedParam);
  const insurers = useApi('GET /api/insurers', {});
  const charts = useLazyModule(CHARTS, figures.status !== 'loading');
  const chartsPending = chartsPendingOf(charts);
  const chartFns = charts.status === 'ready' ? charts.module : null;

  const kpis = figures.data?.kpis;
  const topRecords = useMemo(() => figures.data?.top ?? [], [figures.data]);
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
  // Called by PlotFigure only once `pending` is undefined, so once the charts' chunk is in.
  const topChart = useCallback((rows: readonly OverpaidServiceRow[], o: ChartOptions) =>
    loadedCharts(chartFns).topOverpaidChart(rows, { ...o, domain: topDomain, href: (r) => comparisonPathOf(r.serviceCode, r.variance, { sharedProviders: shared, billed }) }),
  [chartFns, topDomain, shared, billed]);
  const trendChart = useCallback((rows: readonly TrendRow[], o: ChartOptions) =>
    loadedCharts(chartFns).overpaymentTrendChart(rows, { ...o, domain: trendDomain }), [chartFns, trendDomain]);
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
      <PageHeader id="live-dashboard-title" title="Data Comparison Tool (Live)"
        description={<>
          {figures.data && reference
            ? `${reference.name} negotiated rates against ${formatCount(figures.data.competitors.length)} competitor insurers, snapshot ${figures.data.snapshot}.`
            : 'Negotiated rates of the reference insurer against its competitors, from the dataset.'}{' '}
          <Link className="live-method" to="/methodology#dashboard-figures">How these figures are computed</Link>
        </>}
        aside={<ProviderOptionSwitches options={options} billedAvailable={billedAvailable}
          onChange={(change) => setSearch((cur) => writeProviderOptions(cur, change))} />} />

      <ProviderOptionsNote what="Figures" options={options} extra="The alerts stay over every provider." />

      {insurers.status === 'error' && (
        <div className="live-error-panel panel" role="alert">
          <p><strong>Failed to load insurers.</strong></p>
          <p className="live-error-panel__detail">{insurers.message}</p>
        </div>
      )}

      {kpis ? (
        <KpiCards
          averageOverpayment={{
            value: formatSignedPercent(kpis.averageOverpayment),
            tone: kpis.averageOverpayment !== null && kpis.averageOverpayment > 0 ? 'bad' : 'neutral',
            subtitle: `Claims-weighted over ${formatCount(kpis.withVariance)} services with a variance${kpis.thinLeftOut > 0
              ? ` · ${formatCount(kpis.thinLeftOut)} low-confidence left out` : ''}`,
          }}
          topService={kpis.top ? {
            value: kpis.top.service_name || kpis.top.service_code,
            subtitle: `${kpis.top.billing_code_type} ${kpis.top.service_code} · ${unitText(kpis.top)} · ${formatSignedPercent(kpis.top.reference_variance)} against market`,
          } : { value: '-', subtitle: 'No service has a variance' }}
          claimsAboveMarket={formatPercent(kpis.claimsAboveMarket)} />
      ) : <KpiCardsPending busy={figures.status !== 'error'} text={figures.status === 'error' ? 'Failed to load figures.' : 'Loading figures...'} />}

      <PanelRow wideLeft>
        <TopOverpaidPanel chart={topChart} rows={top} domain={topDomain} pending={pendingOf(figures, 'figures') ?? chartsPending}
          subtitle={<>Percent against the market average · <Link to="/methodology#a-units-prices-and-figures">variance</Link> · select a bar for its prices</>}
          empty="No service has a variance with enough providers behind it.">
          {figures.data ? (
            <details className="live-top-links">
              <summary>Open a service in the comparison</summary>
              <ol>
                {topRecords.map((r) => (
                  <li key={unitRowKey(r)}>
                    <Link to={comparisonPathOf(r.service_code, r.reference_variance, options)}>{`${r.service_code} ${r.service_name || r.service_code}`}</Link>
                    <span className="live-top-links__value">{formatSignedPercent(r.reference_variance)}</span>
                    <span className="live-top-links__unit"><UnitBadges unit={r} /></span>
                  </li>
                ))}
              </ol>
            </details>
          ) : <div className="live-top-links" aria-hidden="true">{'\u00a0'}</div> /* the closed list's line, held */}
        </TopOverpaidPanel>
        <TrendPanel chart={trendChart} rows={trendRows} domain={trendDomain} empty="No month has a variance." pending={pendingOf(trend, 'trend') ?? chartsPending}
          subtitle={<>Average overpayment by snapshot month · <Link to="/methodology#dashboard-figures">trend</Link></>} />
      </PanelRow>

      <PanelRow wideLeft>
        <RegionMapPanel subtitle="Average overpayment per state · select a state for its service prices" pending={pendingOf(regional, 'map')}
          values={{}} stateValues={stateValues} level={overpaymentLevel} onSelect={(a) => setState(a.code)} />
        <LiveAlerts />
      </PanelRow>

      {insurers.data && openArea?.available && (
        <LiveStateModal key={openArea.code} area={openArea} reference={reference ?? null} competitors={insurers.data.filter((i) => !i.isReference)}
          options={options} onClose={() => setState(null)} />
      )}
    </section>
  );
}
