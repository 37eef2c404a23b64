/**
 * Filters of the sample comparison, docs/screens.md (Sample comparison): the shared comparison
 * filters (src/components/comparison/ComparisonFilters.tsx) over the sample's React state: insurer
 * checkboxes with market share, the category dropdown ('All Categories', the sample catalogue's
 * categories), 'Show only overpaying services' (default on), the Professional and Institutional
 * toggle chips, and the sort order.
 */
import type { ReactElement } from 'react';
import { ComparisonFilters as SharedFilters } from '../../components/comparison/ComparisonFilters';
import { SAMPLE_COMPETITORS } from '../data/insurers';
import type { ComparisonFilters as Filters, ComparisonSort } from '../data/comparison';
import { SERVICE_CATEGORIES } from '../data/services';

export const SORT_LABELS: Record<ComparisonSort, string> = {
  overpayment: 'Overpayment Amount',
  variance: 'Price Variance %',
  savings: 'Potential Savings',
};

/** The sample's competitors as checkboxes (short name and share; no tooltip, as before the shared filters). */
const INSURERS = SAMPLE_COMPETITORS.map(({ id, shortName, marketShare }) => ({ id, shortName, marketShare }));

export interface ComparisonFiltersProps {
  filters: Filters;
  onChange(next: Filters): void;
}

export function ComparisonFilters({ filters, onChange }: ComparisonFiltersProps): ReactElement {
  const toggleInsurer = (id: string, on: boolean) =>
    onChange({
      ...filters,
      competitors: SAMPLE_COMPETITORS.map((c) => c.id).filter((c) => (c === id ? on : filters.competitors.includes(c))),
    });
  return (
    <SharedFilters insurers={INSURERS} selected={filters.competitors} onToggleInsurer={toggleInsurer}
      categories={SERVICE_CATEGORIES} category={filters.category} onCategory={(category) => onChange({ ...filters, category })}
      sortLabels={SORT_LABELS} sort={filters.sort} onSort={(sort) => onChange({ ...filters, sort })}
      professional={filters.professional} institutional={filters.institutional}
      onServiceType={(change) => onChange({ ...filters, ...change })}
      overpayingOnly={filters.overpayingOnly} onOverpayingOnly={(overpayingOnly) => onChange({ ...filters, overpayingOnly })} />
  );
}
