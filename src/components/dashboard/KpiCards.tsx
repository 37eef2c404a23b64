/**
 * The dashboards' three KPI cards (docs/screens.md: Sample dashboard, Live dashboard): 'Average Overpayment',
 * 'Top Overpaid Service' and 'Claims Above Market', from figures the screen formats; and the same
 * three cards in their places while the figures load (`aria-busy`) or after they failed.
 */
import type { ReactElement } from 'react';
import { AlertIcon, DollarIcon, TrendUpIcon } from '../Icons';
import { SummaryCard, type SummaryCardProps } from '../SummaryCard';
import '../../styles/screens.css';

export interface KpiCardsProps {
  averageOverpayment: { value: string; subtitle: string; tone: SummaryCardProps['tone'] };
  topService: { value: string; subtitle: string };
  /** The formatted share of services priced above market. */
  claimsAboveMarket: string;
}

export function KpiCards({ averageOverpayment, topService, claimsAboveMarket }: KpiCardsProps): ReactElement {
  return (
    <div className="card-grid card-grid--kpi">
      <SummaryCard title="Average Overpayment" value={averageOverpayment.value} tone={averageOverpayment.tone}
        subtitle={averageOverpayment.subtitle} icon={<TrendUpIcon />} />
      <SummaryCard title="Top Overpaid Service" value={topService.value} subtitle={topService.subtitle} icon={<AlertIcon />} name />
      <SummaryCard title="Claims Above Market" value={claimsAboveMarket}
        subtitle="Share of services priced above market" icon={<DollarIcon />} />
    </div>
  );
}

/**
 * The three cards without figures: '…' and `text` ('Loading figures...') while `busy` (the grid is
 * `aria-busy`), '-' and `text` (the error) otherwise. The screen announces the state elsewhere.
 */
export function KpiCardsPending({ text, busy }: { text: string; busy: boolean }): ReactElement {
  const value = busy ? '…' : '-';
  return (
    <div className="card-grid card-grid--kpi card-grid--pending" aria-busy={busy}>
      <SummaryCard title="Average Overpayment" value={value} subtitle={text} icon={<TrendUpIcon />} />
      <SummaryCard title="Top Overpaid Service" value={value} subtitle={text} icon={<AlertIcon />} name />
      <SummaryCard title="Claims Above Market" value={value} subtitle={text} icon={<DollarIcon />} />
    </div>
  );
}
