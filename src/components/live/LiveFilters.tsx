/**
 * Filters of the live comparison (product-spec §2 Comparison screens): insurer checkboxes with
 * market share (the reference insurer is not a competitor), the category ('All Categories'),
 * 'Show only overpaying services', 'At shared providers' (metrics.md, Per comparison unit), the
 * Professional and Institutional toggle chips, and the three sorts. Every change goes to the URL
 * state and from there to the API.
 */
import { useId, type ReactElement } from 'react';
import type { LiveInsurer, ServiceSort } from '../../../contract/api';
import { formatPercent } from '../../../contract/format';
import { CategorySelect } from '../comparison/CategorySelect';
import type { LiveComparisonState } from '../../url-state/live-comparison-state';
import { SharedProvidersSwitch } from './SharedProviders';

export const SORT_LABELS: Record<ServiceSort, string> = {
  overpayment: 'Overpayment Amount',
  variance: 'Price Variance %',
  savings: 'Potential Savings',
};

export interface LiveFiltersProps {
  state: LiveComparisonState;
  /** Every insurer but the reference, in display order. */
  competitors: readonly LiveInsurer[];
  /** The selected competitor ids (the URL's, else the default preselection). */
  selected: readonly string[];
  onChange(change: Partial<LiveComparisonState>): void;
  /**
   * Selects or deselects one competitor, against the selection in the URL when the change is made
   * (not the one of the last render: a second quick click would undo the first).
   */
  onToggleCompetitor(id: string, on: boolean): void;
}

export function LiveFilters({ state, competitors, selected, onChange, onToggleCompetitor }: LiveFiltersProps): ReactElement {
  const sortId = useId();
  const typeId = useId();
  return (
    <div className="cmp-filters">
      <fieldset className="cmp-insurers">
        <legend>Compare against</legend>
        <div className="cmp-insurers__list">
          {competitors.map((c) => (
            <label key={c.id} className="check">
              <input type="checkbox" checked={selected.includes(c.id)} onChange={(e) => onToggleCompetitor(c.id, e.target.checked)} />
              <span title={c.name}>{c.shortName}</span>
              <span className="check__meta">{`${formatPercent(c.marketShare)} share`}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="cmp-filters__row">
        <CategorySelect value={state.category} onChange={(category) => onChange({ category })} />
        <div className="filter-field">
          <label htmlFor={sortId}>Sort by</label>
          <select id={sortId} className="select" value={state.sort} onChange={(e) => onChange({ sort: e.target.value as ServiceSort })}>
            {(Object.keys(SORT_LABELS) as ServiceSort[]).map((s) => <option key={s} value={s}>{SORT_LABELS[s]}</option>)}
          </select>
        </div>
        <div className="filter-field">
          <span id={typeId}>Service type</span>
          <div className="toggle-chips" role="group" aria-labelledby={typeId}>
            <button type="button" className="toggle-chip" aria-pressed={state.professional}
              onClick={() => onChange({ professional: !state.professional })}>Professional</button>
            <button type="button" className="toggle-chip" aria-pressed={state.institutional}
              onClick={() => onChange({ institutional: !state.institutional })}>Institutional</button>
          </div>
        </div>
        <label className="check cmp-filters__overpaying">
          <input type="checkbox" checked={state.overpayingOnly} onChange={(e) => onChange({ overpayingOnly: e.target.checked })} />
          <span>Show only overpaying services</span>
        </label>
        <SharedProvidersSwitch checked={state.sharedProviders} onChange={(sharedProviders) => onChange({ sharedProviders })} />
      </div>
    </div>
  );
}
