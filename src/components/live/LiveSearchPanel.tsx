/**
 * Search of the live comparison, docs/screens.md (Live comparison): Unified or Separate search,
 * services from `GET /api/service-names` (matched in the page: case-insensitive substring of name,
 * code or category, prefix matches first) and providers from `GET /api/providers?q` (typed ahead:
 * a dataset can hold 100,000 providers), in the shared search panel (src/components/search/
 * SearchPanelFrame.tsx: chips for the selection and the Available/Selected counters). Unified
 * shows at most 5 services and 5 providers; separate boxes at most 10 each.
 */
import { useCallback, type ReactElement } from 'react';
import type { ProviderSearchItem, ServiceListItem } from '../../../contract/api';
import { apiCall } from '../../api/client';
import { Autocomplete, type SearchResult } from '../autocomplete/Autocomplete';
import { SearchOption, SearchPanelFrame } from '../search/SearchPanelFrame';
import type { SearchMode } from '../../url-state/live-comparison-state';

export type LiveHit = { kind: 'service'; service: ServiceListItem } | { kind: 'provider'; provider: ProviderSearchItem };

/** Services matching `q` (name, code, category; case-insensitive), prefix matches first, then by name. */
export function matchServices(services: readonly ServiceListItem[], q: string, limit: number): SearchResult<ServiceListItem> {
  const needle = q.trim().toLowerCase();
  const hits = services
    .map((s) => ({ s, fields: [s.name, s.id, s.category].map((f) => f.toLowerCase()) }))
    .filter(({ fields }) => fields.some((f) => f.includes(needle)))
    .map(({ s, fields }) => ({ s, prefix: fields.some((f) => f.startsWith(needle)) }))
    .sort((a, b) => Number(b.prefix) - Number(a.prefix) || a.s.name.localeCompare(b.s.name) || (a.s.id < b.s.id ? -1 : 1));
  return { options: hits.slice(0, limit).map((h) => h.s), total: hits.length };
}

async function searchProviders(q: string, limit: number): Promise<SearchResult<ProviderSearchItem>> {
  try {
    const r = await apiCall('GET /api/providers', { q, limit });
    return { options: r.items, total: r.total };
  } catch {
    return { options: [], total: 0 };
  }
}

const hitKey = (h: LiveHit) => (h.kind === 'service' ? `s:${h.service.id}` : `p:${h.provider.id}`);

const renderHit = (h: LiveHit) => (h.kind === 'service'
  ? <SearchOption kind="service" name={h.service.name} detail={`${h.service.id} · ${h.service.category}`} />
  : <SearchOption kind="provider" name={h.provider.name} detail={`${h.provider.id}${h.provider.state ? ` · ${h.provider.state}` : ''}`} />);

export interface LiveSearchPanelProps {
  mode: SearchMode;
  onMode(mode: SearchMode): void;
  services: readonly ServiceListItem[];
  /** Total providers of the dataset, or null while unknown. */
  providerTotal: number | null;
  selectedServices: ReadonlyArray<{ id: string; name: string }>;
  selectedProviders: ReadonlyArray<{ id: string; name: string }>;
  onAdd(hit: LiveHit): void;
  onRemoveService(id: string): void;
  onRemoveProvider(id: string): void;
}

export function LiveSearchPanel(props: LiveSearchPanelProps): ReactElement {
  const { mode, onMode, services, onAdd } = props;
  const unified = useCallback(async (q: string): Promise<SearchResult<LiveHit>> => {
    const s = matchServices(services, q, 5);
    const p = await searchProviders(q, 5);
    return {
      options: [...s.options.map((service): LiveHit => ({ kind: 'service', service })), ...p.options.map((provider): LiveHit => ({ kind: 'provider', provider }))],
      total: s.total + p.total,
    };
  }, [services]);
  const serviceOnly = useCallback((q: string): SearchResult<LiveHit> => {
    const s = matchServices(services, q, 10);
    return { options: s.options.map((service) => ({ kind: 'service', service })), total: s.total };
  }, [services]);
  const providerOnly = useCallback(async (q: string): Promise<SearchResult<LiveHit>> => {
    const p = await searchProviders(q, 10);
    return { options: p.options.map((provider) => ({ kind: 'provider', provider })), total: p.total };
  }, []);

  return (
    <SearchPanelFrame mode={mode} onMode={onMode} available={{ services: services.length, providers: props.providerTotal }}
      unified={
        <Autocomplete label="Search services and providers" placeholder="Service name, CPT code, category, provider name or NPI"
          search={unified} optionKey={hitKey} renderOption={renderHit} onSelect={onAdd} debounceMs={200} />
      }
      separate={
        <>
          <Autocomplete label="Search services" placeholder="Service name, CPT code or category"
            search={serviceOnly} optionKey={hitKey} renderOption={renderHit} onSelect={onAdd} />
          <Autocomplete label="Search providers" placeholder="Provider name or NPI"
            search={providerOnly} optionKey={hitKey} renderOption={renderHit} onSelect={onAdd} debounceMs={200} />
        </>
      }
      services={props.selectedServices.map((s) => ({ key: s.id, label: `${s.id} ${s.name}`, name: s.name, onRemove: () => props.onRemoveService(s.id) }))}
      providers={props.selectedProviders.map((p) => ({ key: p.id, label: p.name, name: p.name, onRemove: () => props.onRemoveProvider(p.id) }))} />
  );
}
