/**
 * Filters of the live comparison, docs/screens.md (Live comparison): insurer checkboxes with
 * market share (the reference insurer is not a competitor), the category ('All Categories'),
 * 'Show only overpaying services', 'Minimum confidence' (docs/methodology.md, Confidence and distribution),
 * 'At shared providers' and 'Where we bill it' (docs/methodology.md, Per comparison unit), the
 * Professional and Institutional toggle chips, and the three sorts: the shared comparison filters
 * (src/components/comparison/ComparisonFilters.tsx) over the URL state. The categories are the
 * dataset's (src/live/url-state/categories.ts). Every change goes to the URL state and from there to the API.
 */
import type { ReactElement } from 'react';
import type { LiveInsurer, ServiceSort } from '../../../contract/api';
import { ComparisonFilters } from '../../components/comparison/ComparisonFilters';
import type { LiveComparisonState } from '../url-state/live-comparison-state';
import { ProviderOptionSwitches } from './SharedProviders';
import { MinConfidenceSelect } from './ConfidenceParts';

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
  /** The categories of the dataset's services (src/live/url-state/categories.ts datasetCategories); empty while loading. */
  categories: readonly string[];
  onChange(change: Partial<LiveComparisonState>): void;
  /**
   * Selects or deselects one competitor, against the selection in the URL when the change is made
   * (not the one of the last render: a second quick click would undo the first).
   */
  onToggleCompetitor(id: string, on: boolean): void;
  /** Whether 'Where we bill it' can be on (SharedProviders.tsx useBilledAvailable; null while unknown). */
  billedAvailable: boolean | null;
}

export function LiveFilters({ state, competitors, selected, categories, onChange, onToggleCompetitor, billedAvailable }: LiveFiltersProps): ReactElement {
  return (
    <ComparisonFilters insurers={competitors} selected={selected} onToggleInsurer={onToggleCompetitor}
      categories={categories} category={state.category} onCategory={(category) => onChange({ category })}
      sortLabels={SORT_LABELS} sort={state.sort} onSort={(sort) => onChange({ sort })}
      professional={state.professional} institutional={state.institutional} onServiceType={onChange}
      overpayingOnly={state.overpayingOnly} onOverpayingOnly={(overpayingOnly) => onChange({ overpayingOnly })}
      extra={<>
        <MinConfidenceSelect value={state.minConfidence} onChange={(minConfidence) => onChange({ minConfidence })} />
        <ProviderOptionSwitches options={state} onChange={onChange} billedAvailable={billedAvailable} />
      </>} />
  );
}
