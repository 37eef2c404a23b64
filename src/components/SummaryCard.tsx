/** A summary card (product-spec §3 Summary card): title, value, subtitle. */
import type { ReactElement } from 'react';
import './SummaryCard.css';

export interface SummaryCardProps {
  title: string;
  value: string;
  subtitle?: string;
  /** Colours the value: 'bad' (red) for overpayment, 'good' (green) for savings. */
  tone?: 'neutral' | 'bad' | 'good';
}

export function SummaryCard({ title, value, subtitle, tone = 'neutral' }: SummaryCardProps): ReactElement {
  return (
    <div className="summary-card panel">
      <h3 className="summary-card__title">{title}</h3>
      <p className={`summary-card__value summary-card__value--${tone}`}>{value}</p>
      {subtitle && <p className="summary-card__subtitle">{subtitle}</p>}
    </div>
  );
}
