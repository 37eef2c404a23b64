/**
 * The live dashboard's state modal, docs/screens.md (Live dashboard), with traceability:
 * `GET /api/regional-services-page?state=XX` in the map's RegionModal, one row per comparison unit of
 * the state (its class, component and setting as badges, a 'low confidence' mark when thin there),
 * where every price is a button. The rows come a page at a time, searched and sorted by the worker
 * (./state-modal-paging.ts): 50 units, 'Show more' up to 200, a search box on the code or name. 'Your Price' opens the rate rows behind the reference insurer's
 * median of that unit in that state; 'Market Avg' opens every competitor's median in that state,
 * the mean of them, and each one's rate rows (docs/methodology.md, Per comparison unit). The rate-rows
 * dialog opens over the modal; closing it returns focus to the price button. With the dashboard's
 * provider `options` ('At shared providers', 'Where we bill it') the prices and rows follow them.
 */
import { useEffect, useId, useState, type ReactElement } from 'react';
import type { LiveInsurer, RegionalServiceRow } from '../../../contract/api';
import type { StateArea } from '../../../contract/rules/state-areas';
import { NO_PROVIDER_OPTIONS, providerOptionsParam, type ProviderOptionsState } from '../url-state/shared-providers';
import { RegionModal, type RegionPriceColumn, type RegionPriceRow } from '../../components/map/RegionModal';
import type { SortState } from '../../components/table/table-sort';
import { RateRowsDialog } from './RateRowsDialog';
import { INITIAL_STATE_SORT, STATE_UNITS_PAGE_SIZE, nextStateLimit, stateUnitsRequest, stateUnitsText } from './state-modal-paging';
import { ServiceUnitCell } from './UnitParts';
import { unitRowKey, unitText } from './unit-format';
import { useApi } from './use-api';
import './live.css';

/** The modal's note on live data. */
export const LIVE_PRICES_NOTE = 'All prices are live API data.';

export interface LiveStateModalProps {
  area: StateArea;
  /** null when the insurer list names no reference: 'Your Price' then shows as text. */
  reference: LiveInsurer | null;
  /** Every insurer but the reference (the market of the modal's Market Avg). */
  competitors: readonly LiveInsurer[];
  /** docs/methodology.md (Per comparison unit): the state's prices at shared providers, where we bill it, or over every provider. */
  options?: ProviderOptionsState;
  onClose(): void;
}

interface Trace {
  unit: RegionalServiceRow;
  column: RegionPriceColumn;
}

const COLUMN_TEXT: Record<RegionPriceColumn, string> = { yourPrice: 'Your Price', marketAvg: 'Market Avg' };

/** Wait after the last keystroke of the search before asking the worker, ms. */
const SEARCH_DEBOUNCE_MS = 200;

export function LiveStateModal({ area, reference, competitors, options = NO_PROVIDER_OPTIONS, onClose }: LiveStateModalProps): ReactElement {
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [sort, setSort] = useState<SortState>(INITIAL_STATE_SORT);
  const [limit, setLimit] = useState(STATE_UNITS_PAGE_SIZE);
  const searchId = useId();
  useEffect(() => {
    if (typed === q) return;
    const t = setTimeout(() => {
      setQ(typed);
      setLimit(STATE_UNITS_PAGE_SIZE);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [typed, q]);
  const load = useApi('GET /api/regional-services-page', stateUnitsRequest(area.code, { q, sort, limit }, providerOptionsParam(options)));
  const [trace, setTrace] = useState<Trace | null>(null);
  // While a new sort, search or page loads, the rows shown stay (the component is keyed by state).
  const page = load.data ?? load.previous;
  if (!page) {
    return load.status === 'error'
      ? <RegionModal area={area} rows={[]} note={`${LIVE_PRICES_NOTE} Failed to load this state's prices: ${load.message}`} onClose={onClose} />
      : <p className="visually-hidden" role="status">Loading...</p>;
  }
  const units = new Map(page.items.map((r) => [unitRowKey(r), r]));
  const note = load.status === 'error' ? `${LIVE_PRICES_NOTE} Failed to load this state's prices: ${load.message}`
    : `${LIVE_PRICES_NOTE}${options.sharedProviders ? ' Prices at shared providers only.' : ''}${options.billed ? ' Prices where we bill it only.' : ''} Select a price for the medians and rate rows behind it.${page.thin > 0
      ? ' Low confidence: too few providers behind a price in this state; left out of its average.' : ''}`;
  const rows: RegionPriceRow[] = page.items.map((r) => ({
    service: `${r.service_code} ${r.service_name}`, serviceCode: r.service_code, key: unitRowKey(r),
    yourPrice: r.your_price, marketAvg: r.market_avg, overpaymentPct: r.overpayment_pct,
  }));
  const busy = load.status === 'loading';
  const more = nextStateLimit(page.items.length, page.matched);
  const toolbar = page.total === 0 ? null : (
    <div className="live-state-tools">
      <label htmlFor={searchId} className="live-state-tools__label">Find a service in {area.code}</label>
      <input id={searchId} type="search" className="live-state-tools__input" value={typed} placeholder="Code or name"
        autoComplete="off" onChange={(e) => setTyped(e.target.value)} />
      <p className="live-alerts__count" role="status" aria-busy={busy}>{stateUnitsText(page, page.items.length, q, area.code)}</p>
    </div>
  );
  const footer = more === null ? null : (
    <div className="live-alerts__more">
      <button type="button" className="button live-small" disabled={busy} onClick={() => setLimit(more)}>
        {busy ? 'Loading...' : 'Show more'}
      </button>
    </div>
  );

  const renderService = (row: RegionPriceRow) => {
    const u = row.key ? units.get(row.key) : undefined;
    return u ? <ServiceUnitCell code={u.service_code} name={u.service_name} unit={u} thin={u.thin}
      thinReason={u.thin ? `too few providers behind its prices in ${area.code}` : null} /> : row.service;
  };

  const renderPrice = (row: RegionPriceRow, column: RegionPriceColumn, text: string) => {
    const u = row.key ? units.get(row.key) : undefined;
    if (row[column] === null || !u || (column === 'yourPrice' && !reference)) return text;
    const what = column === 'yourPrice' ? `${reference?.shortName ?? 'reference'} median` : "competitors' medians";
    return (
      <button type="button" className="live-price-link"
        aria-label={`${COLUMN_TEXT[column]} of ${u.service_code} (${unitText(u)}) in ${area.code}: ${text}, show the ${what} and rate rows`}
        onClick={() => setTrace({ unit: u, column })}>
        {text}
      </button>
    );
  };

  return (
    <>
      <RegionModal area={area} rows={rows} note={note} onClose={onClose} renderPrice={renderPrice} renderService={renderService}
        sorting={{ sort, onSortChange: (next) => { setSort(next); setLimit(STATE_UNITS_PAGE_SIZE); } }}
        toolbar={toolbar} footer={footer} noRowsText={page.total > 0 ? '' : undefined} />
      {trace && (
        <RateRowsDialog serviceCode={trace.unit.service_code} serviceName={trace.unit.service_name}
          insurers={trace.column === 'yourPrice' && reference ? [reference] : competitors}
          selection={{
            state: area.code, billing_class: trace.unit.billing_class, component: trace.unit.component, setting: trace.unit.setting,
            ...providerOptionsParam(options),
          }}
          meanLabel={trace.column === 'marketAvg' ? `Market Avg in ${area.code}` : undefined}
          onClose={() => setTrace(null)} />
      )}
    </>
  );
}
