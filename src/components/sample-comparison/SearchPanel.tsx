/**
 * Search of the comparison screen, docs/screens.md (Sample comparison): the Unified/Separate
 * mode toggle, the autocomplete box(es), the selected items as removable chips and the
 * Available/Selected counters. Selecting a duplicate is ignored.
 */
import type { ReactElement } from 'react';
import { formatCount } from '../../../contract/format';
import type { SampleProvider } from '../../sample/data/providers';
import { SAMPLE_PROVIDERS } from '../../sample/data/providers';
import type { SampleService } from '../../sample/data/services';
import { SAMPLE_SERVICES } from '../../sample/data/services';
import { Autocomplete } from '../autocomplete/Autocomplete';
import { CloseIcon } from '../Icons';
import { hitKey, providerSearch, serviceSearch, unifiedSearch, type SearchHit } from './sample-search';

export type SearchMode = 'unified' | 'separate';

export interface SearchPanelProps {
  mode: SearchMode;
  onMode(mode: SearchMode): void;
  services: readonly SampleService[];
  providers: readonly SampleProvider[];
  onAdd(hit: SearchHit): void;
  onRemoveService(code: string): void;
  onRemoveProvider(id: string): void;
}

function HitOption({ hit }: { hit: SearchHit }): ReactElement {
  return hit.kind === 'service' ? (
    <>
      <span className="option-badge option-badge--service">Service</span>
      <span className="option-text">
        <span>{hit.service.serviceName}</span>
        <small>{`${hit.service.serviceCode} · ${hit.service.category}`}</small>
      </span>
    </>
  ) : (
    <>
      <span className="option-badge option-badge--provider">Provider</span>
      <span className="option-text">
        <span>{hit.provider.name}</span>
        <small>{`${hit.provider.type} · ${hit.provider.network} · ${hit.provider.regions.join(', ')}`}</small>
      </span>
    </>
  );
}

const renderHit = (hit: SearchHit) => <HitOption hit={hit} />;

export function SearchPanel(props: SearchPanelProps): ReactElement {
  const { mode, onMode, services, providers, onAdd } = props;
  return (
    <div className="search-panel">
      <div className="search-panel__top">
        <div className="segmented" role="radiogroup" aria-label="Search mode">
          {(['unified', 'separate'] as const).map((m) => (
            <button key={m} type="button" role="radio" aria-checked={mode === m} className="segmented__item"
              onClick={() => onMode(m)}>
              {m === 'unified' ? 'Unified Search' : 'Separate Search'}
            </button>
          ))}
        </div>
        <dl className="counters">
          <div><dt>Available Services</dt><dd>{formatCount(SAMPLE_SERVICES.length)}</dd></div>
          <div><dt>Selected Services</dt><dd>{formatCount(services.length)}</dd></div>
          <div><dt>Available Providers</dt><dd>{formatCount(SAMPLE_PROVIDERS.length)}</dd></div>
          <div><dt>Selected Providers</dt><dd>{formatCount(providers.length)}</dd></div>
        </dl>
      </div>
      <div className="search-panel__boxes">
        {mode === 'unified' ? (
          <Autocomplete label="Search services and providers" placeholder="Service name, CPT code, provider or category"
            search={unifiedSearch} optionKey={hitKey} renderOption={renderHit} onSelect={onAdd} />
        ) : (
          <>
            <Autocomplete label="Search services" placeholder="Service name, CPT code or category"
              search={serviceSearch} optionKey={hitKey} renderOption={renderHit} onSelect={onAdd} />
            <Autocomplete label="Search providers" placeholder="Provider name, type or specialty"
              search={providerSearch} optionKey={hitKey} renderOption={renderHit} onSelect={onAdd} />
          </>
        )}
      </div>
      {(services.length > 0 || providers.length > 0) && (
        <ul className="chips" aria-label="Selected items">
          {services.map((s) => (
            <li key={s.serviceCode} className="chip chip--service">
              <span>{`${s.serviceCode} ${s.serviceName}`}</span>
              <button type="button" aria-label={`Remove ${s.serviceName}`} onClick={() => props.onRemoveService(s.serviceCode)}>
                <CloseIcon />
              </button>
            </li>
          ))}
          {providers.map((p) => (
            <li key={p.id} className="chip chip--provider">
              <span>{p.name}</span>
              <button type="button" aria-label={`Remove ${p.name}`} onClick={() => props.onRemoveProvider(p.id)}>
                <CloseIcon />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
