/**
 * Search of the comparison screen, docs/screens.md (Sample comparison): the shared search panel
 * (src/components/search/SearchPanelFrame.tsx: the Unified/Separate mode toggle, the
 * Available/Selected counters, the selected items as removable chips) with the sample catalogue's
 * autocomplete box(es). Selecting a duplicate is ignored.
 */
import type { ReactElement } from 'react';
import type { SampleProvider } from '../data/providers';
import { SAMPLE_PROVIDERS } from '../data/providers';
import type { SampleService } from '../data/services';
import { SAMPLE_SERVICES } from '../data/services';
import { Autocomplete } from '../../components/autocomplete/Autocomplete';
import { SearchOption, SearchPanelFrame, type SearchMode } from '../../components/search/SearchPanelFrame';
import { hitKey, providerSearch, serviceSearch, unifiedSearch, type SearchHit } from './sample-search';

export type { SearchMode };

export interface SearchPanelProps {
  mode: SearchMode;
  onMode(mode: SearchMode): void;
  services: readonly SampleService[];
  providers: readonly SampleProvider[];
  onAdd(hit: SearchHit): void;
  onRemoveService(code: string): void;
  onRemoveProvider(id: string): void;
}

const renderHit = (hit: SearchHit) => (hit.kind === 'service'
  ? <SearchOption kind="service" name={hit.service.serviceName} detail={`${hit.service.serviceCode} · ${hit.service.category}`} />
  : <SearchOption kind="provider" name={hit.provider.name} detail={`${hit.provider.type} · ${hit.provider.network} · ${hit.provider.regions.join(', ')}`} />);

export function SearchPanel(props: SearchPanelProps): ReactElement {
  const { mode, onMode, services, providers, onAdd } = props;
  return (
    <SearchPanelFrame mode={mode} onMode={onMode} available={{ services: SAMPLE_SERVICES.length, providers: SAMPLE_PROVIDERS.length }}
      unified={
        <Autocomplete label="Search services and providers" placeholder="Service name, CPT code, provider or category"
          search={unifiedSearch} optionKey={hitKey} renderOption={renderHit} onSelect={onAdd} />
      }
      separate={
        <>
          <Autocomplete label="Search services" placeholder="Service name, CPT code or category"
            search={serviceSearch} optionKey={hitKey} renderOption={renderHit} onSelect={onAdd} />
          <Autocomplete label="Search providers" placeholder="Provider name, type or specialty"
            search={providerSearch} optionKey={hitKey} renderOption={renderHit} onSelect={onAdd} />
        </>
      }
      services={services.map((s) => ({ key: s.serviceCode, label: `${s.serviceCode} ${s.serviceName}`, name: s.serviceName, onRemove: () => props.onRemoveService(s.serviceCode) }))}
      providers={providers.map((p) => ({ key: p.id, label: p.name, name: p.name, onRemove: () => props.onRemoveProvider(p.id) }))} />
  );
}
