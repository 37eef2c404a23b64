/**
 * The comparison screens' four summary cards, docs/screens.md (Live comparison), over the whole
 * filtered set as the API computes them (contract/api/index.ts ServicePricingSummary, docs/methodology.md).
 */
import type { ReactElement } from 'react';
import type { ServicePricingSummary } from '../../../contract/api';
import { formatCount, formatSignedPercent, formatUsd } from '../../../contract/rules/format';
import { SummaryCard } from '../../components/SummaryCard';
import './ComparisonSummary.css';

export function ComparisonSummary({ summary }: { summary: ServicePricingSummary }): ReactElement {
  const avg = summary.avg_overpayment;
  return (
    <section className="comparison-summary" aria-label="Summary">
      <SummaryCard title="Total Potential Savings" value={formatUsd(summary.total_potential_savings)}
        subtitle="Overpayment x claims volume" tone={summary.total_potential_savings > 0 ? 'good' : 'neutral'} />
      <SummaryCard title="Avg Overpayment" value={formatSignedPercent(avg)} subtitle="Claims-weighted price variance"
        tone={avg != null && avg > 0 ? 'bad' : 'neutral'} />
      <SummaryCard title="Services Overpaying"
        value={`${formatCount(summary.services_overpaying)} / ${formatCount(summary.services_total)}`}
        subtitle="Priced above the selected average" />
      <SummaryCard title="Comparing Against" value={`${formatCount(summary.comparing_against)} Insurers`}
        subtitle="Competitor insurers selected" />
    </section>
  );
}
