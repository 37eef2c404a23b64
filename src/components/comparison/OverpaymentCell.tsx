/**
 * Overpayment of one service (docs/methodology.md, Per comparison unit): signed dollars with an up (above market,
 * red) or down (below market, green) arrow, and the variance percent under it; '-' for null.
 */
import type { ReactElement } from 'react';
import { formatSignedPercent, formatSignedUsd, roundHalfAway } from '../../../contract/rules/format';
import { ArrowDownIcon, ArrowUpIcon } from '../Icons';

export function OverpaymentCell({ overpayment, variance, position }: { overpayment: number | null; variance: number | null; position?: string | null }): ReactElement {
  if (overpayment == null) return <span className="muted">-</span>;
  const rounded = roundHalfAway(overpayment);
  const direction = rounded > 0 ? 'up' : rounded < 0 ? 'down' : 'flat';
  return (
    <span className={`overpay overpay--${direction}`}>
      <span className="overpay__amount">
        {direction === 'up' && <ArrowUpIcon />}
        {direction === 'down' && <ArrowDownIcon />}
        {direction !== 'flat' && (
          <span className="visually-hidden">{direction === 'up' ? 'Above market: ' : 'Below market: '}</span>
        )}
        {formatSignedUsd(overpayment)}
      </span>
      <span className="overpay__percent">{formatSignedPercent(variance)}</span>
      {position && <span className="overpay__position">{position}</span>}
    </span>
  );
}
