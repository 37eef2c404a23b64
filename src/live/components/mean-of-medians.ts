/**
 * The sentence under the rate-rows dialog's medians when they make a market average (docs/methodology.md,
 * Per comparison unit: market_average = the arithmetic mean of the competitors' medians that exist). Pure.
 */
import type { RateRowsResult } from '../../../contract/api';
import { formatUsd } from '../../../contract/rules/format';

/** '<label> = mean of the N medians (A $x, B $y) = $z', naming the insurers without a median; USD. */
export function meanOfMedians(label: string, results: ReadonlyArray<Pick<RateRowsResult, 'insurer_name' | 'median'>>): string {
  const priced = results.filter((r): r is Pick<RateRowsResult, 'insurer_name'> & { median: number } => r.median !== null);
  const none = results.filter((r) => r.median === null).map((r) => r.insurer_name);
  const head = priced.length === 0 ? `${label}: no insurer has a dollar rate here.`
    : `${label} = mean of ${priced.length} median${priced.length === 1 ? '' : 's'} (${priced.map((r) => `${r.insurer_name} ${formatUsd(r.median)}`).join(', ')}) = ${formatUsd(priced.reduce((a, r) => a + r.median, 0) / priced.length)}.`;
  return none.length === 0 || priced.length === 0 ? head : `${head} No dollar rate here: ${none.join(', ')}.`;
}

