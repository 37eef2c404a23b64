/**
 * Filters of the sample comparison (product-spec §2 Comparison screens): insurer checkboxes with
 * market share, the category dropdown ('All Categories'), 'Show only overpaying services'
 * (default on), the Professional and Institutional toggle chips, and the sort order.
 */
import type { ReactElement } from 'react';
import { formatPercent } from '../../../contract/format';
import { SAMPLE_COMPETITORS, type CompetitorId } from '../../sample-data/insurers';
import type { ComparisonFilters as Filters, ComparisonSort } from '../../sample-data/comparison';
import { SERVICE_CATEGORIES, type ServiceCategory } from '../../sample-data/services';

export const SORT_LABELS: Record<ComparisonSort, string> = {
  overpayment: 'Overpayment Amount',
  variance: 'Price Variance %',
  savings: 'Potential Savings',
};

export interface ComparisonFiltersProps {
  filters: Filters;
  onChange(next: Filters): void;
}

export function ComparisonFilters({ filters, onChange }: ComparisonFiltersProps): ReactElement {
  const toggleInsurer = (id: CompetitorId, on: boolean) =>
    onChange({
      ...filters,
      competitors: SAMPLE_COMPETITORS.map((c) => c.id).filter((c) => (c === id ? on : filters.competitors.includes(c))),
    });
  return (
    <div className="cmp-filters">
      <fieldset className="cmp-insurers">
        <legend>Compare against</legend>
        <div className="cmp-insurers__list">
          {SAMPLE_COMPETITORS.map((c) => (
            <label key={c.id} className="check">
              <input type="checkbox" checked={filters.competitors.includes(c.id)} onChange={(e) => toggleInsurer(c.id, e.target.checked)} />
              <span>{c.shortName}</span>
              <span className="check__meta">{`${formatPercent(c.marketShare)} share`}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="cmp-filters__row">
        <label className="filter-field">
          Category
          <select className="select" value={filters.category ?? ''}
            onChange={(e) => onChange({ ...filters, category: (e.target.value || null) as ServiceCategory | null })}>
            <option value="">All Categories</option>
            {SERVICE_CATEGORIES.map((c) => <option key={c} value={c}>{c}</option>)}
          </select>
        </label>
        <label className="filter-field">
          Sort by
          <select className="select" value={filters.sort} onChange={(e) => onChange({ ...filters, sort: e.target.value as ComparisonSort })}>
            {(Object.keys(SORT_LABELS) as ComparisonSort[]).map((s) => <option key={s} value={s}>{SORT_LABELS[s]}</option>)}
          </select>
        </label>
        <div className="filter-field">
          <span id="service-type-label">Service type</span>
          <div className="toggle-chips" role="group" aria-labelledby="service-type-label">
            <button type="button" className="toggle-chip" aria-pressed={filters.professional}
              onClick={() => onChange({ ...filters, professional: !filters.professional })}>Professional</button>
            <button type="button" className="toggle-chip" aria-pressed={filters.institutional}
              onClick={() => onChange({ ...filters, institutional: !filters.institutional })}>Institutional</button>
          </div>
        </div>
        <label className="check cmp-filters__overpaying">
          <input type="checkbox" checked={filters.overpayingOnly} onChange={(e) => onChange({ ...filters, overpayingOnly: e.target.checked })} />
          <span>Show only overpaying services</span>
        </label>
      </div>
    </div>
  );
}
