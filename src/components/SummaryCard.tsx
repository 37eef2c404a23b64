/**
 * A summary card, docs/screens.md (Shared components): title, value, subtitle, optional icon and an
 * optional trend shown as a signed percent, green when positive, red otherwise. The title is an h2:
 * the cards sit right under a screen's h1.
 */
import type { ReactElement, ReactNode } from 'react';
import { formatSignedPercent } from '../../contract/rules/format';
import './SummaryCard.css';

export interface SummaryCardProps {
  title: string;
  value: string;
  subtitle?: string;
  /** Colours the value: 'bad' (red) for overpayment, 'good' (green) for savings. */
  tone?: 'neutral' | 'bad' | 'good';
  /** A decorative icon (aria-hidden). */
  icon?: ReactNode;
  /** Trend in percent; `isPositive` picks the colour. */
  trend?: { value: number; isPositive: boolean };
  /**
   * The value is a name (e.g. a service's): the smaller type of a long value whatever its length,
   * two lines held, so that a card waiting for its name is as high as the card with it, and at most
   * two shown (the whole name in the title).
   */
  name?: boolean;
}

export function SummaryCard({ title, value, subtitle, tone = 'neutral', icon, trend, name = false }: SummaryCardProps): ReactElement {
  return (
    <div className="summary-card panel">
      <div className="summary-card__head">
        <h2 className="summary-card__title">{title}</h2>
        {icon && <span className="summary-card__icon" aria-hidden="true">{icon}</span>}
      </div>
      <p className={`summary-card__value summary-card__value--${tone}${name || value.length > 14 ? ' summary-card__value--long' : ''}${name ? ' summary-card__value--name' : ''}`}
        title={name ? value : undefined}>{value}</p>
      {(subtitle || trend) && (
        <p className="summary-card__subtitle">
          {trend && (
            <span className={`summary-card__trend summary-card__trend--${trend.isPositive ? 'up' : 'down'}`}>
              {formatSignedPercent(trend.value)}
            </span>
          )}
          {trend && subtitle ? ' ' : null}
          {subtitle}
        </p>
      )}
    </div>
  );
}
