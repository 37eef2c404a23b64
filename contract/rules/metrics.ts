/**
 * Pure rules of docs/methodology.md shared by the converter, the worker and the UI.
 * Nothing here touches I/O; every function is total on its documented input.
 */

/** Service categories (docs/methodology.md, Names and categories). */
export const CATEGORIES = ['Office visit', 'Emergency', 'Cardiac', 'Lab', 'Radiology', 'Surgical', 'Other'] as const;
export type Category = (typeof CATEGORIES)[number];

/**
 * Which snapshot each insurer contributes at month M (docs/methodology.md, Rows that count): its
 * latest snapshot at or before M among `pairs`; an insurer with none is absent. `insurer_id ->
 * snapshot`. Pure.
 */
export function chosenSnapshots(pairs: Iterable<{ insurer_id: string; snapshot: string }>, month: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const { insurer_id, snapshot } of pairs) {
    if (snapshot > month) continue;
    const cur = out.get(insurer_id);
    if (cur === undefined || snapshot > cur) out.set(insurer_id, snapshot);
  }
  return out;
}

/** Billing code types that make a service (docs/methodology.md, Rows that count). */
export const SERVICE_CODE_TYPES = ['CPT', 'HCPCS'] as const;

/** negotiated_type values that are dollar amounts (docs/methodology.md, Rows that count); lower case. */
export const DOLLAR_NEGOTIATED_TYPES = ['negotiated', 'fee schedule', 'derived'] as const;

/**
 * Whether a row is a dollar rate (docs/methodology.md, Rows that count): its lower-case
 * `negotiated_type` one of DOLLAR_NEGOTIATED_TYPES and its `negotiated_rate` > 0. The same rule in
 * SQL is contract/sql/unit-sql.ts dollarRateSql.
 */
export function isDollarRate(negotiatedType: string, negotiatedRate: number): boolean {
  return (DOLLAR_NEGOTIATED_TYPES as readonly string[]).includes(negotiatedType) && negotiatedRate > 0;
}

/** Numeric ranges of CPT codes per category, inclusive, in the order docs/methodology.md lists them. */
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
 * Category of a billing code derived from its CPT range (docs/methodology.md, Names and categories).
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
 * (TINs come with or without a hyphen and lose leading zeros: docs/converter.md, Quirks of real files). Returns '' for an empty or all-zero value.
 */
export function normalizeTin(value: string): string {
  const digits = value.replace(/\D/g, '');
  if (digits === '' || /^0+$/.test(digits)) return '';
  return digits.length < 9 ? digits.padStart(9, '0') : digits;
}

/**
 * The provider a rate stands for (docs/methodology.md, Rows that count): the NPI as text, or
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

/** reference_variance in percent (docs/methodology.md, Per comparison unit); null when either side is missing. */
export function referenceVariance(reference: number | null, market: number | null): number | null {
  if (reference == null || market == null || market === 0) return null;
  return (100 * (reference - market)) / market;
}

/** potential_savings in USD: overpayment x claims when overpayment > 0, else 0 (docs/methodology.md). */
export function potentialSavings(overpayment: number | null, claims: number): number {
  return overpayment != null && overpayment > 0 ? overpayment * claims : 0;
}

/**
 * Average Overpayment (docs/methodology.md, Dashboard figures): claims-weighted mean of the variances;
 * the plain mean when every weight is 0; null when there is no variance at all.
 */
export function averageOverpayment(items: ReadonlyArray<{ variance: number | null; claims: number }>): number | null {
  const withVar = items.filter((x): x is { variance: number; claims: number } => x.variance != null);
  if (withVar.length === 0) return null;
  const w = withVar.reduce((a, x) => a + x.claims, 0);
  if (w === 0) return withVar.reduce((a, x) => a + x.variance, 0) / withVar.length;
  return withVar.reduce((a, x) => a + x.variance * x.claims, 0) / w;
}

/** A comparison unit's attributes besides its code (docs/methodology.md, Per comparison unit). */
export interface UnitKey {
  billing_class: string;
  component: string;
  setting: string;
}

/** Order of billing classes in lists and ties: professional, institutional, both. */
export const CLASS_ORDER: readonly string[] = ['professional', 'institutional', 'both'];
/** Order of components in lists and the main-unit tie (docs/methodology.md, Per comparison unit): global, 26, TC. */
export const COMPONENT_ORDER: readonly string[] = ['global', '26', 'TC'];
/** Order of settings in lists and the main-unit tie (docs/methodology.md, Per comparison unit): non-facility, facility. */
export const SETTING_ORDER: readonly string[] = ['non-facility', 'facility'];

const textOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const rank = (order: readonly string[], x: string): number => {
  const i = order.indexOf(x);
  return i < 0 ? order.length : i;
};

/**
 * Order of the units of one code: billing class (professional, institutional, both), then
 * component (global, 26, TC), then setting (non-facility, facility). Values outside the lists
 * come last, by text.
 */
export function compareUnits(a: UnitKey, b: UnitKey): number {
  return (
    rank(CLASS_ORDER, a.billing_class) - rank(CLASS_ORDER, b.billing_class) ||
    rank(COMPONENT_ORDER, a.component) - rank(COMPONENT_ORDER, b.component) ||
    rank(SETTING_ORDER, a.setting) - rank(SETTING_ORDER, b.setting) ||
    textOrder(`${a.billing_class}|${a.component}|${a.setting}`, `${b.billing_class}|${b.component}|${b.setting}`)
  );
}

/** A unit of one billing code. */
export interface CodeUnit extends UnitKey {
  service_code: string;
}

/** A stable key of a unit of a code: `99213|professional|global|non-facility` (never the code alone). */
export function unitRowKey(u: CodeUnit): string {
  return `${u.service_code}|${u.billing_class}|${u.component}|${u.setting}`;
}

/** Order of units of any codes: code, then compareUnits. */
export function compareCodeUnits(a: CodeUnit, b: CodeUnit): number {
  return textOrder(a.service_code, b.service_code) || compareUnits(a, b);
}

/**
 * Whether a unit of billing class `billingClass` passes the billing-class filter (docs/methodology.md, Rows
 * that count, Filters): the Professional chip (`professional`) shows professional and `both`
 * units, the Institutional chip (`institutional`) institutional and `both` units, `all` (no chip,
 * or both chips) every unit.
 */
export function unitPassesClassFilter(filter: 'all' | 'professional' | 'institutional', billingClass: string): boolean {
  return filter === 'all' || billingClass === filter || billingClass === 'both';
}

/**
 * The fewest providers a price may rest on for its unit not to be thin (docs/methodology.md, Per comparison
 * unit): the dataset's `min_providers`; with a selection of providers, the smaller of it and the
 * number selected.
 */
export function effectiveMinProviders(minProviders: number, selectedProviders?: number): number {
  return selectedProviders === undefined ? minProviders : Math.min(minProviders, selectedProviders);
}

const providers = (n: number): string => `${n} provider${n === 1 ? '' : 's'}`;

/**
 * Why a unit is thin (docs/methodology.md, Per comparison unit), or null when it is not: its reference price
 * rests on fewer than `minProviders` providers, or its competitor prices' provider counts add up
 * to fewer. A side without a price (`null`) is not checked: it has no figure to doubt, and the unit
 * has no variance anyway. Both reasons are joined by '; '.
 * `thinReason(1, 5, 2)` = 'reference price rests on 1 provider'.
 */
export function thinReason(referenceProviders: number | null, competitorProviders: number | null, minProviders: number): string | null {
  const out: string[] = [];
  if (referenceProviders !== null && referenceProviders < minProviders) out.push(`reference price rests on ${providers(referenceProviders)}`);
  if (competitorProviders !== null && competitorProviders < minProviders) out.push(`competitor prices rest on ${providers(competitorProviders)} together`);
  return out.length === 0 ? null : out.join('; ');
}

/** '% of Medicare' in percent: 100 x price / medicare_rate; null when either is missing or the benchmark is not above 0. */
export function medicarePct(price: number | null, medicareRate: number | null): number | null {
  return price == null || medicareRate == null || !(medicareRate > 0) ? null : (100 * price) / medicareRate;
}

/** A unit of one code as the claims rule sees it: its key and the support of its reference price (0 without one). */
export interface ClaimsUnit extends UnitKey {
  reference_providers: number;
}

/**
 * The claims_volume of each unit of ONE code (docs/methodology.md, Per comparison unit, `claims_volume(s)`),
 * in the order of `units`, from the reference insurer's counts per billing class: a class's count
 * goes to the class's main unit, the one whose reference price rests on the most providers (ties:
 * global before 26 before TC, non-facility before facility), and the class's other units get 0.
 *
 * `both` units: docs/methodology.md gives claims by billing class (`professional`, `institutional`) and a
 * `both` unit is neither; they belong to the professional class when the code has no professional
 * unit with a reference price (a `both` row is benchmarked as professional, contract/files/dataset.ts
 * medicare_benchmarks), else they get 0. A class with several candidates and no reference price at
 * all still names a main unit by the ties (its claims enter no figure: it has no variance).
 */
export function claimsByUnit(units: readonly ClaimsUnit[], claims: { professional: number; institutional: number }): number[] {
  const out = units.map(() => 0);
  const hasPricedProfessional = units.some((u) => u.billing_class === 'professional' && u.reference_providers > 0);
  const classOf = (u: ClaimsUnit): 'professional' | 'institutional' | null =>
    u.billing_class === 'professional' || u.billing_class === 'institutional'
      ? u.billing_class
      : u.billing_class === 'both' && !hasPricedProfessional
        ? 'professional'
        : null;
  for (const cls of ['professional', 'institutional'] as const) {
    let main = -1;
    units.forEach((u, i) => {
      if (classOf(u) !== cls) return;
      if (main < 0) {
        main = i;
        return;
      }
      const m = units[main]!;
      const better =
        u.reference_providers - m.reference_providers ||
        rank(COMPONENT_ORDER, m.component) - rank(COMPONENT_ORDER, u.component) ||
        rank(SETTING_ORDER, m.setting) - rank(SETTING_ORDER, u.setting) ||
        rank(CLASS_ORDER, m.billing_class) - rank(CLASS_ORDER, u.billing_class);
      if (better > 0) main = i;
    });
    if (main >= 0) out[main] = claims[cls];
  }
  return out;
}
