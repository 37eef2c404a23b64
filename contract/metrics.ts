/**
 * Pure rules of metrics.md shared by the converter, the worker and the UI.
 * Nothing here touches I/O; every function is total on its documented input.
 */

/** Service categories (metrics.md, Names and categories). */
export const CATEGORIES = ['Office visit', 'Emergency', 'Cardiac', 'Lab', 'Radiology', 'Surgical', 'Other'] as const;
export type Category = (typeof CATEGORIES)[number];

/** Billing code types that make a service (metrics.md, Rows that count). */
export const SERVICE_CODE_TYPES = ['CPT', 'HCPCS'] as const;

/** negotiated_type values that are dollar amounts (metrics.md, Rows that count); lower case. */
export const DOLLAR_NEGOTIATED_TYPES = ['negotiated', 'fee schedule', 'derived'] as const;

/** Numeric ranges of CPT codes per category, inclusive, in the order metrics.md lists them. */
export const CATEGORY_RANGES: ReadonlyArray<readonly [number, number, Category]> = [
  [99202, 99215, 'Office visit'],
  [99281, 99285, 'Emergency'],
  [92920, 93799, 'Cardiac'],
  [33010, 37799, 'Cardiac'],
  [80047, 89398, 'Lab'],
  [70010, 79999, 'Radiology'],
  [10004, 69990, 'Surgical'],
];

/**
 * Category of a billing code derived from its CPT range (metrics.md, Names and categories).
 * Only five-digit numeric codes fall in a range; HCPCS Level II codes (a letter first) and
 * anything else give 'Other'.
 */
export function categoryOfCode(billingCode: string): Category {
  if (!/^\d{5}$/.test(billingCode)) return 'Other';
  const n = Number(billingCode);
  for (const [lo, hi, cat] of CATEGORY_RANGES) if (n >= lo && n <= hi) return cat;
  return 'Other';
}

/**
 * Normalises a TIN for use as a provider id: digits only, EINs left-padded to 9 digits
 * (tic-format.md §6 quirk 7). Returns '' for an empty or all-zero value.
 */
export function normalizeTin(value: string): string {
  const digits = value.replace(/\D/g, '');
  if (digits === '' || /^0+$/.test(digits)) return '';
  return digits.length < 9 ? digits.padStart(9, '0') : digits;
}

/**
 * The provider a rate stands for (metrics.md, Rows that count): the NPI as text, or
 * `TIN:<tin without hyphen>` when the group has no usable NPI. Returns null when neither exists.
 */
export function providerId(npi: number | string | null | undefined, tinValue: string | null | undefined): string | null {
  const n = npi == null ? '' : String(npi).trim();
  if (n !== '' && n !== '0') return n;
  const tin = tinValue ? normalizeTin(tinValue) : '';
  return tin ? `TIN:${tin}` : null;
}

/** Normalises a CMS place-of-service code to two digits ('1' -> '01'); other values kept as-is. */
export function normalizePlaceOfService(code: string): string {
  const t = code.trim();
  return /^\d$/.test(t) ? `0${t}` : t.toUpperCase();
}

/** Median with the midpoint of the two middle values for an even count; null for no values. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** reference_variance in percent (metrics.md, Per service); null when either side is missing. */
export function referenceVariance(reference: number | null, market: number | null): number | null {
  if (reference == null || market == null || market === 0) return null;
  return (100 * (reference - market)) / market;
}

/** potential_savings in USD: overpayment x claims when overpayment > 0, else 0 (metrics.md). */
export function potentialSavings(overpayment: number | null, claims: number): number {
  return overpayment != null && overpayment > 0 ? overpayment * claims : 0;
}

/**
 * Average Overpayment (metrics.md, Dashboard figures): claims-weighted mean of the variances;
 * the plain mean when every weight is 0; null when there is no variance at all.
 */
export function averageOverpayment(items: ReadonlyArray<{ variance: number | null; claims: number }>): number | null {
  const withVar = items.filter((x): x is { variance: number; claims: number } => x.variance != null);
  if (withVar.length === 0) return null;
  const w = withVar.reduce((a, x) => a + x.claims, 0);
  if (w === 0) return withVar.reduce((a, x) => a + x.variance, 0) / withVar.length;
  return withVar.reduce((a, x) => a + x.variance * x.claims, 0) / w;
}
