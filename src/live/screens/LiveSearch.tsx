/**
 * /live-search 'Live Service Price Search', docs/screens.md (Live search) and docs/methodology.md (Live
 * search): Service Name (typed ahead against `GET /api/services-search`: a real dataset has about
 * 17,000 services), then Provider (typed ahead: one code can have 100,000 providers) and Insurer
 * (the service's few insurers, filtered in the page) once a service is chosen, each an
 * Autocomplete of at most 10 options that becomes a chip once chosen; changing the service clears
 * both and reloads their lists; Search is enabled only with all three. Results: Service, Provider, Insurer, Price, Reference
 * Price, Market Average, one row per rate variant with its '% of Medicare' (at the provider's
 * locality, or national), its validation result (a failed rate is shown with its reason and enters
 * neither Reference Price nor Market Average), its unit (class, component, setting), negotiated
 * type, place of service and modifiers. The selection lives in the URL; list loads fail silently.
 */
import { useCallback, useState, type ReactElement } from 'react';
import { Link } from 'react-router-dom';
import type { InsurerListItem, PriceDetail, ProviderListItem, ServiceListItem } from '../../../contract/api';
import { productLabel } from '../../../contract/rules/product';
import { formatCount, formatUsd } from '../../../contract/rules/format';
import { DOLLAR_NEGOTIATED_TYPES } from '../../../contract/rules/metrics';
import { apiCall } from '../../api/client';
import { Autocomplete, type SearchResult } from '../../components/autocomplete/Autocomplete';
import { CloseIcon } from '../../components/Icons';
import { ExportCsvButton } from '../components/ExportCsvButton';
import { formatPrice } from '../components/price-detail-format';
import { RateRowsDialog, type RateRowsSelection } from '../components/RateRowsDialog';
import { MedicarePct, UnitBadges, ValidationMark } from '../components/UnitParts';
import { medicareBasisText, unitText } from '../components/unit-format';
import { useValidationSettings } from '../components/use-validation-settings';
import { useApi } from '../components/use-api';
import { DataTable, type Column } from '../../components/table/DataTable';
import { exportFileName } from '../url-state/live-comparison-state';
import { canSearch, parseLiveSearch, withService, writeLiveSearch } from '../url-state/live-search-state';
import { useUrlState } from '../url-state/use-url-state';
import '../../styles/screens.css';
import '../../styles/comparison.css';
import './LiveComparison.css';
import '../components/live.css';
import { PageHeader } from '../../components/PageHeader';

const rowKey = (d: PriceDetail) => `${d.billing_class}|${d.component}|${d.setting}|${d.negotiated_type}|${d.service_codes}|${d.modifiers}|${d.price}`;
const DOLLAR_TYPES: readonly string[] = DOLLAR_NEGOTIATED_TYPES;
/** Whether a result row is a dollar rate (the only kind that is validated and has a '% of Medicare'). */
const isDollar = (d: PriceDetail) => d.price_unit === 'usd' && DOLLAR_TYPES.includes(d.negotiated_type.toLowerCase()) && d.price > 0;

/** Options an autocomplete shows at most, docs/screens.md (Shared components). */
const OPTIONS = 10;

/**
 * The service's insurers matching `q` (trimmed, case-insensitive substring of name or id), prefix
 * matches first (product spec 5, search matching), the list's order otherwise (the reference
 * insurer first, then by name); at most OPTIONS of them and the number that matched.
 */
function filterInsurers(list: readonly InsurerListItem[], q: string): SearchResult<InsurerListItem> {
  const t = q.trim().toLowerCase();
  const hit = (i: InsurerListItem, f: (s: string) => boolean) => f(productLabel(i.group, i.name).toLowerCase()) || f(i.id.toLowerCase());
  const matched = list.filter((i) => hit(i, (s) => s.includes(t)));
  const prefix = matched.filter((i) => hit(i, (s) => s.startsWith(t)));
  const ordered = [...prefix, ...matched.filter((i) => !prefix.includes(i))];
  return { options: ordered.slice(0, OPTIONS), total: matched.length };
}

/** The rate rows behind a result row: its unit at the provider (a class outside the three units: a class filter). */
function unitSelection(d: PriceDetail, provider: string): RateRowsSelection {
  const cls = d.billing_class.toLowerCase();
  return cls === 'professional' || cls === 'institutional' || cls === 'both'
    ? { providers: [provider], billing_class: cls, component: d.component, setting: d.setting }
    : { providers: [provider] };
}

export function LiveSearch(): ReactElement {
  const [state, setState] = useUrlState(parseLiveSearch, writeLiveSearch);
  const [trace, setTrace] = useState<PriceDetail | null>(null);
  const validation = useValidationSettings();
  const sid = state.service;
  // The chosen service's name, for a URL that names only its code: the code is a prefix match of
  // itself, so it is among the first answers (other codes or names starting with it come along).
  const chosenService = useApi('GET /api/services-search', sid ? { q: sid, limit: 100 } : null);
  const chosen = chosenService.data?.items.find((s) => s.id === sid);
  const serviceName = chosen ? `${chosen.name} (${chosen.id})` : sid;
  const providers = useApi('GET /api/providers-for-service', sid ? { service_id: sid, limit: 1 } : null);
  const insurers = useApi('GET /api/insurers-for-service', sid ? { service_id: sid } : null);
  const chosenProvider = useApi('GET /api/providers-for-service', sid && state.provider ? { service_id: sid, q: state.provider, limit: 5 } : null);
  const providerName = chosenProvider.data?.items.find((p) => p.id === state.provider)?.name ?? state.provider;
  const chosenInsurer = insurers.data?.find((i) => i.id === state.insurer);
  const insurerName = chosenInsurer ? productLabel(chosenInsurer.group, chosenInsurer.name) : state.insurer;
  const details = useApi('GET /api/service-price-details',
    state.run && canSearch(state) ? { service_id: state.service!, provider_id: state.provider!, insurer_id: state.insurer! } : null);

  const searchServices = useCallback(async (q: string): Promise<SearchResult<ServiceListItem>> => {
    try {
      const r = await apiCall('GET /api/services-search', { q, limit: OPTIONS });
      return { options: r.items, total: r.total };
    } catch {
      return { options: [], total: 0 };
    }
  }, []);
  const insurerList = insurers.data;
  const searchInsurers = useCallback((q: string): SearchResult<InsurerListItem> => filterInsurers(insurerList ?? [], q), [insurerList]);

  const searchProviders = useCallback(async (q: string): Promise<SearchResult<ProviderListItem>> => {
    if (!sid) return { options: [], total: 0 };
    try {
      const r = await apiCall('GET /api/providers-for-service', { service_id: sid, q, limit: OPTIONS });
      return { options: r.items, total: r.total };
    } catch {
      return { options: [], total: 0 };
    }
  }, [sid]);

  const rows = details.data ?? [];
  const failed = rows.filter((d) => d.validation !== null).length;
  const columns: Column<PriceDetail>[] = [
    { key: 'service', header: 'Service', cell: (d) => d.serviceName, rowHeader: true },
    { key: 'provider', header: 'Provider', cell: (d) => d.providerName },
    { key: 'insurer', header: 'Insurer', cell: (d) => d.insurerName },
    { key: 'price', header: 'Price', cell: (d) => formatPrice(d), sortValue: (d) => d.price, align: 'right' },
    { key: 'medicare', header: '% of Medicare', align: 'right', sortValue: (d) => d.medicare_pct, cell: (d) => (d.medicare_pct === null ? null : (
      <><MedicarePct value={d.medicare_pct} basis={d.medicare_basis} /><span className="medicare-basis">{medicareBasisText(d.medicare_basis)}</span></>
    )) },
    { key: 'validation', header: 'Validation', cell: (d) => <ValidationMark reason={d.validation} settings={validation} dollar={isDollar(d)} />,
      sortValue: (d) => d.validation ?? '' },
    { key: 'reference', header: 'Reference Price', cell: (d) => formatUsd(d.referencePrice), sortValue: (d) => d.referencePrice, align: 'right' },
    { key: 'market', header: 'Market Average', cell: (d) => formatUsd(d.marketAverage), sortValue: (d) => d.marketAverage, align: 'right' },
    { key: 'unit', header: 'Unit', cell: (d) => <UnitBadges unit={d} />, sortValue: (d) => `${d.billing_class}|${d.component}|${d.setting}` },
    { key: 'type', header: 'Negotiated type', cell: (d) => d.negotiated_type, sortValue: (d) => d.negotiated_type },
    { key: 'pos', header: 'Place of service', cell: (d) => d.service_codes },
    { key: 'mods', header: 'Modifiers', cell: (d) => d.modifiers },
    { key: 'snapshot', header: 'Snapshot', cell: (d) => d.snapshot },
    { key: 'trace', header: 'Sources', cell: (d) => (
      <button type="button" className="button live-small" aria-label={`Sources of the ${unitText(d)} ${d.negotiated_type} price`} onClick={() => setTrace(d)}>Sources</button>
    ) },
  ];

  return (
    <section className="page live-search" aria-labelledby="live-search-title">
      <title>Live Service Price Search · Compete</title>
      <PageHeader id="live-search-title" title="Live Service Price Search"
        description={<>
          The price of one service at one provider under one insurer, with the reference insurer's price and the market average there.{' '}
          <Link className="live-method" to="/methodology#live-search">How these are computed</Link>
        </>} />

      <form className="section panel live-search__form" onSubmit={(e) => {
        e.preventDefault();
        if (canSearch(state)) setState({ ...state, run: true });
      }}>
        <div className="filter-field live-search__service">
          {sid ? (
            <>
              <span>Service Name</span>
              <span className="chip chip--service live-search__chosen">
                <span>{serviceName}</span>
                <button type="button" aria-label={`Clear service ${serviceName ?? ''}`} onClick={() => setState(withService(state, null))}><CloseIcon /></button>
              </span>
            </>
          ) : (
            <Autocomplete label="Service Name" placeholder="Type a service name or code" listWhenEmpty
              search={searchServices} optionKey={(s) => s.id}
              renderOption={(s) => <span className="option-text"><span>{s.name}</span><small>{`${s.id} · ${s.category}`}</small></span>}
              onSelect={(s) => setState(withService(state, s.id))} />
          )}
        </div>
        <div className="filter-field live-search__provider">
          {state.provider ? (
            <>
              <span>Provider</span>
              <span className="chip chip--provider live-search__chosen">
                <span>{providerName}</span>
                <button type="button" aria-label={`Clear provider ${providerName ?? ''}`} onClick={() => setState({ ...state, provider: null, run: false })}><CloseIcon /></button>
              </span>
            </>
          ) : (
            // disabled until a service is chosen: the field is made anew for each service (its key), so
            // what was typed before that would be lost
            <Autocomplete key={sid ?? ''} label="Provider" placeholder={sid ? 'Type a provider name or NPI' : 'Choose a service first'} disabled={!sid}
              search={searchProviders} optionKey={(p) => p.id}
              renderOption={(p) => <span className="option-text"><span>{p.name}</span><small>{`${p.id}${p.state ? ` · ${p.state}` : ''}`}</small></span>}
              onSelect={(p) => setState({ ...state, provider: p.id, run: false })} />
          )}
          {sid && providers.data && <small className="live-sub">{`${formatCount(providers.data.total)} providers have rates for this service`}</small>}
        </div>
        <div className="filter-field live-search__insurer">
          {state.insurer ? (
            <>
              <span>Insurer</span>
              <span className="chip chip--service live-search__chosen">
                <span>{insurerName}</span>
                <button type="button" aria-label={`Clear insurer ${insurerName ?? ''}`} onClick={() => setState({ ...state, insurer: null, run: false })}><CloseIcon /></button>
              </span>
            </>
          ) : (
            <Autocomplete key={sid ?? ''} label="Insurer" listWhenEmpty debounceMs={0} disabled={!sid}
              placeholder={sid ? 'Type an insurer name' : 'Choose a service first'}
              search={searchInsurers} optionKey={(i) => i.id}
              renderOption={(i) => <span className="option-text"><span>{productLabel(i.group, i.name)}</span><small>{i.id}</small></span>}
              onSelect={(i) => setState({ ...state, insurer: i.id, run: false })} />
          )}
        </div>
        <button type="submit" className="button button--primary live-search__submit" disabled={!canSearch(state)}>Search</button>
      </form>

      {details.status === 'loading' && <p className="live-status" role="status">Loading...</p>}
      {details.status === 'ready' && (
        <div className="panel cmp-results">
          <div className="section__head cmp-results__head live-bar">
            <div>
              <h2>Results</h2>
              <p>
                {rows.length === 0 ? 'No rate of this insurer for this service at this provider.' : `${formatCount(rows.length)} rate variants`}
                {failed > 0 && <span className="live-failed-count">{` · ${formatCount(failed)} failed validation: shown, but outside the reference price and market average`}</span>}
              </p>
            </div>
            <ExportCsvButton disabled={rows.length === 0}
              fileName={exportFileName('live-search', [['service', state.service], ['provider', state.provider], ['insurer', state.insurer]])}
              build={() => ({
                header: ['service', 'provider', 'insurer', 'price', 'price_unit', 'medicare_pct', 'medicare_basis', 'validation', 'reference_price_usd',
                  'market_average_usd', 'billing_class', 'component', 'setting', 'negotiated_type', 'place_of_service', 'modifiers', 'snapshot'],
                rows: rows.map((d) => [d.serviceName, d.providerName, d.insurerName, d.price, d.price_unit, d.medicare_pct, d.medicare_basis, d.validation,
                  d.referencePrice, d.marketAverage, d.billing_class, d.component, d.setting, d.negotiated_type, d.service_codes, d.modifiers, d.snapshot]),
              })} />
          </div>
          <DataTable caption="Price details" columns={columns} rows={rows} rowKey={rowKey} empty="No rate found."
            rowClassName={(d) => (d.validation ? 'is-failed' : undefined)} />
        </div>
      )}

      {trace && state.service && state.provider && (
        <RateRowsDialog serviceCode={state.service} serviceName={trace.serviceName}
          insurers={[...(insurers.data ?? [])].sort((a, b) => Number(b.id === state.insurer) - Number(a.id === state.insurer))}
          selection={unitSelection(trace, state.provider)}
          onClose={() => setTrace(null)} />
      )}
    </section>
  );
}
