/**
 * Screen formatting of docs/methodology.md "Rounding": round half away from zero, dollars to whole
 * USD with en-US grouping, percents to one decimal, signed where a sign carries meaning.
 */

/** Rounds half away from zero to `digits` decimals. */
export function roundHalfAway(x: number, digits = 0): number {
  const f = 10 ** digits;
  const r = Math.round(Math.abs(x) * f + Number.EPSILON * f) / f;
  return x < 0 ? -r : r;
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0, minimumFractionDigits: 0 });

/** `$1,234`; '-' for null. Negative values as `-$12`. */
export function formatUsd(x: number | null | undefined): string {
  if (x == null || !Number.isFinite(x)) return '-';
  const r = roundHalfAway(x);
  return r < 0 ? `-${usd.format(-r)}` : usd.format(r === 0 ? 0 : r);
}

/** `+$1,234` / `-$12`; '-' for null. */
export function formatSignedUsd(x: number | null | undefined): string {
  if (x == null || !Number.isFinite(x)) return '-';
  const r = roundHalfAway(x);
  return r > 0 ? `+${usd.format(r)}` : r < 0 ? `-${usd.format(-r)}` : usd.format(0);
}

/** `11.7%`; '-' for null. */
export function formatPercent(x: number | null | undefined): string {
  if (x == null || !Number.isFinite(x)) return '-';
  const r = roundHalfAway(x, 1);
  return `${(r === 0 ? 0 : r).toFixed(1)}%`;
}

/** `+11.7%` / `-6.7%`; '-' for null. */
export function formatSignedPercent(x: number | null | undefined): string {
  if (x == null || !Number.isFinite(x)) return '-';
  const r = roundHalfAway(x, 1);
  return r > 0 ? `+${r.toFixed(1)}%` : r < 0 ? `${r.toFixed(1)}%` : '0.0%';
}

/** Whole number with en-US grouping: `12,345`. */
export function formatCount(x: number): string {
  return Math.round(x).toLocaleString('en-US');
}

/** Bytes as GB/MB/KB with one decimal (10^9, 10^6, 10^3). */
export function formatSize(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  if (bytes >= 1e3) return `${(bytes / 1e3).toFixed(1)} KB`;
  return `${bytes} B`;
}
