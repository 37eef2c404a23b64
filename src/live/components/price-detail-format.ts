/**
 * How a live-search price reads (docs/methodology.md, Live search): USD for dollar rates, a percent of
 * billed charges for `percentage`, USD per day for `per diem`. Pure.
 */
import type { PriceDetail } from '../../../contract/api';
import { formatPercent, formatUsd } from '../../../contract/rules/format';

export function formatPrice(d: Pick<PriceDetail, 'price' | 'price_unit'>): string {
  if (d.price_unit === 'percent') return `${formatPercent(d.price)} of billed charges`;
  if (d.price_unit === 'usd_per_day') return `${formatUsd(d.price)} per day`;
  return formatUsd(d.price);
}
