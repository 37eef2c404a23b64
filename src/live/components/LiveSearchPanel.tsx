/**
 * Search of the live comparison, docs/screens.md (Live comparison): Unified or Separate search, in
 * the shared search panel (src/components/search/SearchPanelFrame.tsx: chips for the selection and
 * the Available/Selected counters). Both kinds are typed ahead against the worker, so the page never
 * holds a whole list (a real dataset has about 17,000 services and can hold 100,000 providers):
 * services from `GET /api/services-search?q&limit` (name, code, category, description or keywords),
 * providers from `GET /api/providers?q&limit` (name or id); each answers prefix matches first
 * (workers/api/type-ahead-sql.ts) and the total of its matches. Unified shows at most 5 services and
 * 5 providers, both asked at once; separate boxes at most 10 each. The Available counters are the
 * screen's (the two totals without `q`).
 */
import type { ReactElement } from 'react';
import type { ProviderSearchItem, ServiceListItem } from '../../../contract/api';
import { apiCall } from '../../api/client';
import { Autocomplete, type SearchResult } from '../../components/autocomplete/Autocomplete';
import { SearchOption, SearchPanelFrame } from '../../components/search/SearchPanelFrame';
import type { SearchMode } from '../url-state/live-comparison-state';

export type LiveHit = { kind: 'service'; service: ServiceListItem } | { kind: 'provider'; provider: ProviderSearchItem };

/** Options the unified box shows at most of each kind, and each separate box. */
export const UNIFIED_LIMIT = 5;
export const SEPARATE_LIMIT = 10;

/** Services matching `q` (the worker's rule), at most `limit`, and how many match; none on a failure. */
async function searchServices(q: string, limit: number): Promise<SearchResult<ServiceListItem>> {
  try {
    const r = await apiCall('GET /api/services-search', { q, limit });
    return { options: r.items, total: r.total };
  } catch {
    return { options: [], total: 0 };
  }
}

/** Providers matching `q` (the worker's rule), at most `limit`, and how many match; none on a failure. */
async function searchProviders(q: string, limit: number): Promise<SearchResult<ProviderSearchItem>> {
  try {
    const r = await apiCall('GET /api/providers', { q, limit });
    return { options: r.items, total: r.total };
  } catch {
    return { options: [], total: 0 };
  }
}

const asService = (service: ServiceListItem): LiveHit => ({ kind: 'service', service });
const asProvider = (provider: ProviderSearchItem): LiveHit => ({ kind: 'provider', provider });

/** The unified box: services first, then providers, at most UNIFIED_LIMIT of each; the total of both. */
export async function searchUnified(q: string): Promise<SearchResult<LiveHit>> {
  const [s, p] = await Promise.all([searchServices(q, UNIFIED_LIMIT), searchProviders(q, UNIFIED_LIMIT)]);
  return { options: [...s.options.map(asService), ...p.options.map(asProvider)], total: s.total + p.total };
}

/** The separate services box: at most SEPARATE_LIMIT services and their total. */
export async function searchServicesOnly(q: string): Promise<SearchResult<LiveHit>> {
  const s = await searchServices(q, SEPARATE_LIMIT);
  return { options: s.options.map(asService), total: s.total };
}

/** The separate providers box: at most SEPARATE_LIMIT providers and their total. */
export async function searchProvidersOnly(q: string): Promise<SearchResult<LiveHit>> {
  const p = await searchProviders(q, SEPARATE_LIMIT);
  return { options: p.options.map(asProvider), total: p.total };
}

const hitKey = (h: LiveHit) => (h.kind === 'service' ? `s:${h.service.id}` : `p:${h.provider.id}`);

const renderHit = (h: LiveHit) => (h.kind === 'service'
  ? <SearchOption kind="service" name={h.service.name} detail={`${h.service.id} · ${h.service.category}`} />
  : <SearchOption kind="provider" name={h.provider.name} detail={`${h.provider.id}${h.provider.state ? ` · ${h.provider.state}` : ''}`} />);

export interface LiveSearchPanelProps {
  mode: SearchMode;
  onMode(mode: SearchMode): void;
  /** Total services of the dataset (services-search's total without `q`), or null while unknown. */
  serviceTotal: number | null;
  /** Total providers of the dataset (providers' total without `q`), or null while unknown. */
  providerTotal: number | null;
  selectedServices: ReadonlyArray<{ id: string; name: string }>;
  selectedProviders: ReadonlyArray<{ id: string; name: string }>;
  onAdd(hit: LiveHit): void;
  onRemoveService(id: string): void;
  onRemoveProvider(id: string): void;
}

export function LiveSearchPanel(props: LiveSearchPanelProps): ReactElement {
  const { mode, onMode, onAdd } = props;
  return (
    <SearchPanelFrame mode={mode} onMode={onMode} available={{ services: props.serviceTotal, providers: props.providerTotal }}
      unified={
        <Autocomplete label="Search services and providers" placeholder="Service name, CPT code, category, provider name or NPI"
          search={searchUnified} optionKey={hitKey} renderOption={renderHit} onSelect={onAdd} debounceMs={200} />
      }
      separate={
        <>
          <Autocomplete label="Search services" placeholder="Service name, CPT code or category"
            search={searchServicesOnly} optionKey={hitKey} renderOption={renderHit} onSelect={onAdd} debounceMs={200} />
          <Autocomplete label="Search providers" placeholder="Provider name or NPI"
            search={searchProvidersOnly} optionKey={hitKey} renderOption={renderHit} onSelect={onAdd} debounceMs={200} />
        </>
      }
      services={props.selectedServices.map((s) => ({ key: s.id, label: `${s.id} ${s.name}`, name: s.name, onRemove: () => props.onRemoveService(s.id) }))}
      providers={props.selectedProviders.map((p) => ({ key: p.id, label: p.name, name: p.name, onRemove: () => props.onRemoveProvider(p.id) }))} />
  );
}
