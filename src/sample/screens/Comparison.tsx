/**
 * The sample price comparison (/comparison), docs/screens.md (Sample comparison): search
 * (unified or separate) with chips and counters, four summary cards, insurer checkboxes, the
 * category, overpaying-only, Professional/Institutional and sort controls, and the results
 * table, all on the fixed sample catalogue. Selected services narrow the table to them.
 */
import { useMemo, useState, type ReactElement } from 'react';
import { formatCount, formatPercent, formatUsd } from '../../../contract/rules/format';
import { SummaryCard } from '../../components/SummaryCard';
import { ComparisonFilters } from '../comparison/ComparisonFilters';
import { SampleResultsTable } from '../comparison/SampleResultsTable';
import { SearchPanel, type SearchMode } from '../comparison/SearchPanel';
import type { SearchHit } from '../comparison/sample-search';
import { PageHeader } from '../../components/PageHeader';
import {
  comparisonRows, comparisonSummary, scopeRows, type ComparisonFilters as Filters,
} from '../data/comparison';
import { DEFAULT_COMPARISON_INSURERS } from '../data/insurers';
import type { SampleProvider } from '../data/providers';
import { addUnique } from '../data/search';
import { SAMPLE_SERVICES, type SampleService } from '../data/services';
import '../../styles/screens.css';
import '../../styles/comparison.css';

const INITIAL: Filters = {
  competitors: DEFAULT_COMPARISON_INSURERS, category: null, overpayingOnly: true,
  professional: true, institutional: true, sort: 'overpayment', serviceCodes: [],
};

export function Comparison(): ReactElement {
  const [mode, setMode] = useState<SearchMode>('unified');
  const [services, setServices] = useState<SampleService[]>([]);
  const [providers, setProviders] = useState<SampleProvider[]>([]);
  const [filters, setFilters] = useState<Filters>(INITIAL);
  const effective = useMemo(() => ({ ...filters, serviceCodes: services.map((s) => s.serviceCode) }), [filters, services]);
  const scoped = useMemo(() => scopeRows(SAMPLE_SERVICES, effective), [effective]);
  const rows = useMemo(() => comparisonRows(SAMPLE_SERVICES, effective), [effective]);
  const summary = comparisonSummary(scoped, rows, filters.competitors.length);

  const add = (hit: SearchHit) => {
    if (hit.kind === 'service') setServices((l) => addUnique(l, hit.service, (s) => s.serviceCode));
    else setProviders((l) => addUnique(l, hit.provider, (p) => p.id));
  };

  return (
    <section className="page comparison" aria-labelledby="comparison-title">
      <title>Price Comparison · Compete</title>
      <PageHeader id="comparison-title" title="Price Comparison" sample
        description="Anthem Blue Cross prices against the competitors you select." />

      <div className="section panel">
        <SearchPanel mode={mode} onMode={setMode} services={services} providers={providers} onAdd={add}
          onRemoveService={(code) => setServices((l) => l.filter((s) => s.serviceCode !== code))}
          onRemoveProvider={(id) => setProviders((l) => l.filter((p) => p.id !== id))} />
      </div>

      <div className="card-grid">
        <SummaryCard title="Total Potential Savings" value={formatUsd(summary.totalSavings)} tone="good"
          subtitle="At the selected competitors' average" />
        <SummaryCard title="Avg Overpayment" value={formatPercent(summary.avgOverpayment)} tone="bad"
          subtitle="Claims-weighted, services shown" />
        <SummaryCard title="Services Overpaying" value={`${formatCount(summary.overpaying)} / ${formatCount(summary.total)}`}
          subtitle="Priced above the selected average" />
        <SummaryCard title="Comparing Against" value={`${summary.comparingAgainst} Insurers`}
          subtitle={summary.comparingAgainst === 0 ? 'None selected: market average of all nine' : 'Selected competitors'} />
      </div>

      <div className="section panel" role="group" aria-label="Filters">
        <ComparisonFilters filters={filters} onChange={setFilters} />
      </div>

      <div className="panel cmp-results">
        <div className="section__head cmp-results__head">
          <h2>Services</h2>
          <p role="status">{`${formatCount(rows.length)} services shown`}</p>
        </div>
        <SampleResultsTable rows={rows} competitors={filters.competitors} />
      </div>
    </section>
  );
}
