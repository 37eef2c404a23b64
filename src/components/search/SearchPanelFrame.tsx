/**
 * The search panel of both comparison screens, docs/screens.md (Sample comparison, Live comparison):
 * the Unified / Separate Search switch, the Available and Selected counters, the mode's search
 * boxes (the screen's Autocompletes) and the chosen services and providers as removable chips.
 * The screens fill it: src/sample/comparison/SearchPanel.tsx, src/live/components/LiveSearchPanel.tsx.
 */
import type { ReactElement, ReactNode } from 'react';
import { formatCount } from '../../../contract/rules/format';
import { CloseIcon } from '../Icons';

export type SearchMode = 'unified' | 'separate';

/** A chosen item as a chip: `label` on the chip, `name` in its remove button's label. */
export interface SearchChip {
  key: string;
  label: string;
  name: string;
  onRemove(): void;
}

export interface SearchPanelFrameProps {
  mode: SearchMode;
  onMode(mode: SearchMode): void;
  /** How many services and providers there are to choose from (null: not known yet, shown as '-'). */
  available: { services: number | null; providers: number | null };
  /** The box of the unified mode (services and providers in one list). */
  unified: ReactNode;
  /** The boxes of the separate mode: one for services, one for providers. */
  separate: ReactNode;
  services: readonly SearchChip[];
  providers: readonly SearchChip[];
}

export function SearchPanelFrame({ mode, onMode, available, unified, separate, services, providers }: SearchPanelFrameProps): ReactElement {
  const chip = (kind: 'service' | 'provider') => (c: SearchChip) => (
    <li key={c.key} className={`chip chip--${kind}`}>
      <span>{c.label}</span>
      <button type="button" aria-label={`Remove ${c.name}`} onClick={c.onRemove}><CloseIcon /></button>
    </li>
  );
  return (
    <div className="search-panel">
      <div className="search-panel__top">
        <div className="segmented" role="radiogroup" aria-label="Search mode">
          {(['unified', 'separate'] as const).map((m) => (
            <button key={m} type="button" role="radio" aria-checked={mode === m} className="segmented__item" onClick={() => onMode(m)}>
              {m === 'unified' ? 'Unified Search' : 'Separate Search'}
            </button>
          ))}
        </div>
        <dl className="counters">
          <div><dt>Available Services</dt><dd>{available.services === null ? '-' : formatCount(available.services)}</dd></div>
          <div><dt>Selected Services</dt><dd>{formatCount(services.length)}</dd></div>
          <div><dt>Available Providers</dt><dd>{available.providers === null ? '-' : formatCount(available.providers)}</dd></div>
          <div><dt>Selected Providers</dt><dd>{formatCount(providers.length)}</dd></div>
        </dl>
      </div>
      <div className="search-panel__boxes">{mode === 'unified' ? unified : separate}</div>
      {(services.length > 0 || providers.length > 0) && (
        <ul className="chips" aria-label="Selected items">
          {services.map(chip('service'))}
          {providers.map(chip('provider'))}
        </ul>
      )}
    </div>
  );
}

/** An option of a search box: its Service or Provider badge, its name and a line of detail. */
export function SearchOption({ kind, name, detail }: { kind: 'service' | 'provider'; name: string; detail: string }): ReactElement {
  return (
    <>
      <span className={`option-badge option-badge--${kind}`}>{kind === 'service' ? 'Service' : 'Provider'}</span>
      <span className="option-text"><span>{name}</span><small>{detail}</small></span>
    </>
  );
}
