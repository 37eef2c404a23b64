/**
 * /live-comparison, docs/screens.md (Live comparison): the reference
 * insurer's prices against the selected competitors on the worker's /api. Search (unified or
 * separate; services and providers typed ahead, src/live/components/LiveSearchPanel.tsx) with chips
 * and the Available counters (the totals of `GET /api/services-search` and `GET /api/providers`
 * without `q`); a chip the URL gives is named by looking its id up in the same searches, and the
 * category list comes from `GET /api/service-categories`, so the page never loads every service
 * (`GET /api/service-names`, megabytes at real size). The four summary cards, insurer checkboxes
 * with market share, category, 'Show only overpaying services', Professional/Institutional, the three sorts, the
 * results table with Previous/Next, 'Page n' and rows per page. Every filter is in the URL
 * (src/url-state) and goes to `GET /api/service-pricing`, so paging, 'n / total' and the cards
 * cover the whole filtered set. One row per comparison unit (class, component, setting), with its
 * '% of Medicare' beside each price, its confidence badge and price strip (docs/methodology.md,
 * Confidence and distribution; 'Minimum confidence' hides units below it); each median opens the
 * rate rows of its unit behind it; the table exports as CSV. 'At shared providers' (docs/methodology.md, Per
 * comparison unit; `shared_providers=1` in the URL and the request) takes every price only at
 * providers both sides have rates with, and a note above the figures says so.
 */
import { useCallback, useEffect, useMemo, useState, type ReactElement } from 'react';
import { Link } from 'react-router-dom';
import type { LiveServicePricingRecord, MarketBandParams, ProviderSearchItem } from '../../../contract/api';
import { formatCount } from '../../../contract/rules/format';
import { apiCall } from '../../api/client';
import { ComparisonSummary } from '../components/ComparisonSummary';
import { PagingControls } from '../components/PagingControls';
import { hasNextPage } from '../url-state/comparison-query';
import { ExportCsvButton } from '../components/ExportCsvButton';
import { LiveComparisonTable } from '../components/LiveComparisonTable';
import { LiveFilters } from '../components/LiveFilters';
import { LiveSearchPanel, type LiveHit } from '../components/LiveSearchPanel';
import { RateRowsDialog } from '../components/RateRowsDialog';
import { ProviderOptionsNote, useBilledAvailable } from '../components/SharedProviders';
import { useApi } from '../components/use-api';
import { BAND_DELAY_MS, bandsByUnit, marketBandParams } from '../components/market-band';
import { isStoredBandSelection } from '../../../contract/rules/market-band';
import { comparisonCsv, comparisonFileName } from '../components/comparison-csv';
import {
  billingClassOf, defaultCompetitors, parseLiveComparison, pricingParams, withChange, writeLiveComparison,
  type LiveComparisonState,
} from '../url-state/live-comparison-state';
import { datasetCategories } from '../url-state/categories';
import { providerOptionsParam } from '../url-state/shared-providers';
import { useUrlState } from '../url-state/use-url-state';
import '../../styles/screens.css';
import '../../styles/comparison.css';
import './LiveComparison.css';
import '../components/live.css';
import { PageHeader } from '../../components/PageHeader';

/** A provider's name by its id: the id is a prefix match of itself (`GET /api/providers`). */
const providerName = (id: string): Promise<string | undefined> =>
  apiCall('GET /api/providers', { q: id, limit: 1 }).then((r) => r.items.find((p) => p.id === id)?.name);

/**
 * A service's name by its code, as the live search names its chosen service: the code is a prefix
 * match of itself (`GET /api/services-search`), among the first answers with the names and other
 * codes starting with it.
 */
const serviceName = (id: string): Promise<string | undefined> =>
  apiCall('GET /api/services-search', { q: id, limit: 100 }).then((r) => r.items.find((s) => s.id === id)?.name);

/**
 * Names of ids the URL selects but no search of this page has named (a bookmark, a link from the
 * dashboard), looked up once each by `lookup` (a module-level function); an id whose look-up finds
 * nothing or fails is its own name.
 */
function useLookedUpNames(ids: readonly string[], lookup: (id: string) => Promise<string | undefined>): Map<string, string> {
  const [names, setNames] = useState<Map<string, string>>(new Map());
  const missing = ids.filter((id) => !names.has(id)).join(',');
  useEffect(() => {
    if (!missing) return;
    let live = true;
    void Promise.all(missing.split(',').map((id) => lookup(id).then((name) => [id, name ?? id] as const, () => [id, id] as const)))
      .then((pairs) => live && setNames((m) => new Map([...m, ...pairs])));
    return () => {
      live = false;
    };
  }, [missing, lookup]);
  return names;
}

/** The rows of no answer: one array, so that the memoized table sees no change while there is none. */
const NO_RECORDS: readonly LiveServicePricingRecord[] = [];

export function LiveComparison(): ReactElement {
  const [state, setState] = useUrlState(parseLiveComparison, writeLiveComparison);
  const [retry, setRetry] = useState(0);
  const [traced, setTraced] = useState<{ record: LiveServicePricingRecord; first: string | null } | null>(null);
  const trace = useCallback((record: LiveServicePricingRecord, first: string | null) => setTraced({ record, first }), []);
  // Names of the services and providers chosen in the search, from the option chosen.
  const [serviceNames, setServiceNames] = useState<Map<string, string>>(new Map());
  const [providerNames, setProviderNames] = useState<Map<string, string>>(new Map());
  const insurers = useApi('GET /api/insurers', {}, String(retry));
  const categoryList = useApi('GET /api/service-categories', {});
  // The Available counters: the totals of the two searches without q.
  const serviceCount = useApi('GET /api/services-search', { limit: 1 });
  const providerCount = useApi('GET /api/providers', { limit: 1 });
  const lookedServices = useLookedUpNames(state.services.filter((id) => !serviceNames.has(id)), serviceName);
  const lookedProviders = useLookedUpNames(state.providers.filter((id) => !providerNames.has(id)), providerName);

  const list = insurers.data ?? insurers.previous;
  const reference = list?.find((i) => i.isReference) ?? null;
  const competitors = useMemo(() => (list ?? []).filter((i) => !i.isReference), [list]);
  /** The selected competitor ids of a state's `competitors` (null: the default preselection). */
  const selectionOf = useCallback((ids: readonly string[] | null): string[] => {
    if (!list) return [];
    const known = new Set(competitors.map((c) => c.id));
    return (ids === null ? defaultCompetitors(list) : ids).filter((id) => known.has(id));
  }, [list, competitors]);
  const selected = useMemo(() => selectionOf(state.competitors), [selectionOf, state.competitors]);
  // 'Where we bill it' asked in the URL of a dataset whose claims name no providers is off (its switch says why)
  const billedAvailable = useBilledAvailable();
  const shown = useMemo(() => (billedAvailable === false && state.billed ? { ...state, billed: false } : state), [billedAvailable, state]);
  const params = list ? pricingParams(shown, selected) : null;
  const pricing = useApi('GET /api/service-pricing', params, String(retry));
  const noClass = billingClassOf(state) === null;

  const change = useCallback((c: Partial<LiveComparisonState>) => setState((s) => withChange(s, c)), [setState]);
  // from the URL's selection at the click: two quick clicks both count
  const toggleCompetitor = useCallback((id: string, on: boolean) => setState((s) => {
    const current = selectionOf(s.competitors);
    return withChange(s, { competitors: competitors.map((c) => c.id).filter((c) => (c === id ? on : current.includes(c))) });
  }), [setState, selectionOf, competitors]);
  // the categories offered: exactly those of the dataset's services (the rows carry these)
  const categories = useMemo(() => datasetCategories(categoryList.data ?? []), [categoryList.data]);
  const add = (hit: LiveHit) => {
    if (hit.kind === 'service') {
      const s = hit.service;
      setServiceNames((m) => new Map(m).set(s.id, s.name));
      if (!state.services.includes(s.id)) change({ services: [...state.services, s.id] });
    } else {
      const p: ProviderSearchItem = hit.provider;
      setProviderNames((m) => new Map(m).set(p.id, p.name));
      if (!state.providers.includes(p.id)) change({ providers: [...state.providers, p.id] });
    }
  };

  const failed = insurers.status === 'error' || pricing.status === 'error';
  const result = pricing.data ?? (pricing.status === 'loading' ? pricing.previous : null);
  const loading = pricing.status === 'loading' || insurers.status === 'loading';
  const records = result?.records ?? NO_RECORDS;
  // The market bands of the page: those of the default selection, stored by the converter, at once;
  // any other once the page's prices have stayed on screen BAND_DELAY_MS, since it reads the page's
  // rate rows and provider groups (seconds of the worker at the real-file shape) and a filter
  // changed meanwhile would wait behind it.
  const [bandParams, setBandParams] = useState<MarketBandParams | null>(null);
  useEffect(() => {
    setBandParams(null);
    const next = marketBandParams(pricing.status === 'ready' ? params : null, pricing.data?.records ?? NO_RECORDS);
    if (next === null) return;
    const stored = isStoredBandSelection(next, competitors.map((c) => c.id));
    const timer = setTimeout(() => setBandParams(next), stored ? 0 : BAND_DELAY_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- params is rebuilt each render; its answer, pricing.data, says when it changed
  }, [pricing.status, pricing.data]);
  const band = useApi('GET /api/market-band', bandParams);
  const bands = useMemo(() => bandsByUnit(band.data?.bands), [band.data]);
  const bandsPending = band.status === 'idle' || band.status === 'loading';
  const thinShown = records.filter((r) => r.thin).length;
  const retryToFirst = () => {
    setState(withChange(state, { page: 0 }));
    setRetry((k) => k + 1);
  };

  return (
    <section className="page live-comparison" aria-labelledby="live-comparison-title">
      <title>Live Price Comparison · Compete</title>
      <PageHeader id="live-comparison-title" title="Live Price Comparison"
        description={<>
          {result && reference
            ? `${reference.name} prices against ${formatCount(result.summary.comparing_against)} competitor insurers, snapshot ${result.snapshot}.`
            : 'Negotiated prices of the reference insurer against its competitors.'}{' '}
          <Link className="live-method" to="/methodology#a-units-prices-and-figures">How prices are computed</Link>
        </>} />

      <div className="section panel">
        <LiveSearchPanel mode={state.mode} onMode={(mode) => setState({ ...state, mode })}
          serviceTotal={serviceCount.data?.total ?? null} providerTotal={providerCount.data?.total ?? null}
          selectedServices={state.services.map((id) => ({ id, name: serviceNames.get(id) ?? lookedServices.get(id) ?? id }))}
          selectedProviders={state.providers.map((id) => ({ id, name: providerNames.get(id) ?? lookedProviders.get(id) ?? id }))}
          onAdd={add}
          onRemoveService={(id) => change({ services: state.services.filter((s) => s !== id) })}
          onRemoveProvider={(id) => change({ providers: state.providers.filter((p) => p !== id) })} />
      </div>

      {failed && (
        <div className="lc-error panel" role="alert">
          <p>
            <strong>Error loading data.</strong>{' '}
            <button type="button" className="live-price-link" onClick={retryToFirst}>Retry</button>
          </p>
          <p className="muted">Failed to load service pricing or insurer data.</p>
          <p className="lc-error__detail">{insurers.status === 'error' ? insurers.message : pricing.status === 'error' ? pricing.message : ''}</p>
        </div>
      )}

      {!failed && !result && !noClass && <p className="lc-status" role="status">Loading price comparison data...</p>}

      {!failed && <ProviderOptionsNote what="Prices" options={shown} />}

      {!failed && result && <ComparisonSummary summary={result.summary} />}

      {!failed && list && (
        <div className="section panel" role="group" aria-label="Filters">
          <LiveFilters state={state} competitors={competitors} selected={selected} categories={categories}
            onChange={change} onToggleCompetitor={toggleCompetitor} billedAvailable={billedAvailable} />
        </div>
      )}

      {!failed && (result || noClass) && (
        <div className={`panel cmp-results lc-results${loading ? ' is-loading' : ''}`} aria-busy={loading}>
          <div className="section__head cmp-results__head live-bar">
            <div>
              <h2>Services</h2>
              <p className="lc-results__count">
                {loading ? <span role="status">Loading price comparison data...</span>
                  : noClass ? 'Select Professional or Institutional to see services.'
                    : `${formatCount(records.length)} services shown · ${formatCount(result?.total ?? 0)} match these filters${
                      shown.sharedProviders ? ' · at shared providers' : ''}${shown.billed ? ' · where we bill it' : ''}`}
              </p>
              {!loading && !noClass && thinShown > 0 && (
                <p className="lc-results__count">
                  {`${formatCount(thinShown)} of them thin (too few providers behind a price, so low confidence): listed, but left out of the summary cards. `}
                  <Link className="live-method" to="/methodology#low-confidence-thin-units">Why</Link>
                </p>
              )}
            </div>
            <div className="live-bar__actions">
              <Link className="live-method" to="/methodology#a-units-prices-and-figures">What the columns mean</Link>
              <ExportCsvButton disabled={records.length === 0 || bandsPending} fileName={comparisonFileName(shown, selected, competitors.length)}
                build={() => comparisonCsv(records, reference, selected.length ? competitors.filter((c) => selected.includes(c.id)) : competitors, bands)} />
            </div>
          </div>
          <LiveComparisonTable records={noClass ? NO_RECORDS : records} reference={reference} competitors={competitors} bands={bands} bandsPending={bandsPending}
            onTrace={trace}
            empty={noClass ? 'No billing class selected.' : 'No services match these filters.'} />
          <PagingControls page={state.page} limit={state.limit}
            hasNext={!loading && !noClass && hasNextPage(records.length, state.limit)}
            onPage={(page) => change({ page })}
            onPageSize={(limit) => change({ limit })} />
        </div>
      )}

      {traced && (
        <RateRowsDialog serviceCode={traced.record.service_code} serviceName={traced.record.service_name}
          insurers={[reference, ...competitors.filter((c) => traced.record.competitor_prices[c.id] != null)]
            .filter((i): i is NonNullable<typeof i> => i !== null)
            .sort((a, b) => Number(b.id === traced.first) - Number(a.id === traced.first))
            .map((i) => ({ id: i.id, name: i.name }))}
          selection={{
            billing_class: traced.record.billing_class, component: traced.record.component, setting: traced.record.setting,
            ...(state.providers.length ? { providers: state.providers } : {}),
            ...providerOptionsParam(shown),
          }}
          onClose={() => setTraced(null)} />
      )}
    </section>
  );
}
