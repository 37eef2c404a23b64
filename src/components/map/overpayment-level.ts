/**
 * The map's colour class of an overpayment percent, docs/screens.md (Constants), the classes UsStateMap's
 * legend names: above 17, 15-17, 13-15, else (and no figure).
 */
export function overpaymentLevel(percent: number | undefined): 0 | 1 | 2 | 3 {
  if (percent === undefined) return 0;
  if (percent > 17) return 3;
  if (percent > 15) return 2;
  if (percent > 13) return 1;
  return 0;
}
