/**
 * Normalises one CMS Negotiated Price object (`negotiated_prices[]` element) into `MrfPrice`, each
 * field by its column's kind (contract/files/price-columns.ts PRICE_COLUMNS).
 */
import { PRICE_COLUMN_SPECS } from '../../contract/files/price-columns.js';
import { codeList, describe, enumValue, isObject, knownEnumValue, ratePath, report, text, type ElementContext, type JsonObject } from './normalize-context.js';
import type { MrfPrice } from './types.js';

/** The enum columns (PRICE_COLUMNS kind `enum`): CMS field, values, whether a value is required. */
const ENUMS = PRICE_COLUMN_SPECS.filter((c) => c.kind === 'enum').map((c) => ({ field: c.field, known: new Set(c.values ?? []), required: c.required }));

/**
 * The rate column, the one `number` column: its rules (a finite JSON number, else the price is
 * dropped; a negative one reported) are the rate's, so the table must not hold another number.
 */
const RATE_FIELD = ((): string => {
  const numbers = PRICE_COLUMN_SPECS.filter((c) => c.kind === 'number');
  if (numbers.length !== 1 || numbers[0]!.shape) {
    throw new Error('contract/files/price-columns.ts: normalize-price.ts reads exactly one number column, the rate, outside the shape');
  }
  return numbers[0]!.field;
})();

/**
 * One price, or null when it cannot be used: a `negotiated_rate` that is not a finite JSON number
 * (a string, null, absent, NaN, 1e400 which parses to Infinity) is dropped with an `invalid_rate`
 * problem at `<path>.negotiated_rate`. Unknown `negotiated_type`/`billing_class`/`setting` values
 * are kept lower-cased and reported as `unknown_enum`. A negative rate is kept (it is no dollar rate,
 * docs/methodology.md "Rows that count") and reported as `negative_rate`. Rates are USD, or percent for
 * `percentage`.
 * The price is element `index` of the `negotiated_prices` of the rate at normalize-context.ts
 * `ratePath(path, rateIndex)`; a price without a problem (the common case) never builds its path.
 */
export function normalizePrice(ctx: ElementContext, raw: unknown, path: string, rateIndex: number | undefined, index: number): MrfPrice | null {
  if (isObject(raw)) {
    const rate = raw[RATE_FIELD];
    if (typeof rate === 'number' && Number.isFinite(rate) && rate >= 0) {
      const enums: string[] = [];
      for (const e of ENUMS) {
        const v = raw[e.field];
        const value = !e.required && (v === undefined || v === null || v === '') ? '' : knownEnumValue(v, e.known);
        if (value === null) break;
        enums.push(value);
      }
      if (enums.length === ENUMS.length) return priceOf(raw, rate, enums);
    }
  }
  return checkedPrice(ctx, raw, `${ratePath(path, rateIndex)}.negotiated_prices[${index}]`);
}

/**
 * The price of a raw object whose rate and enum values (`enums`, in ENUMS order) are known good or
 * already reported; the other fields by their column's kind: a code list through codeList, a text
 * trimmed (any scalar as text) or kept when a string (else '').
 */
function priceOf(raw: JsonObject, rate: number, enums: readonly string[]): MrfPrice {
  const price: Record<string, string | number | string[]> = {};
  let e = 0;
  for (const c of PRICE_COLUMN_SPECS) {
    const v = raw[c.field];
    if (c.kind === 'number') price[c.field] = rate;
    else if (c.kind === 'enum') price[c.field] = enums[e++]!;
    else if (c.kind === 'codes') price[c.field] = codeList(v, c.pad);
    else if (c.trim) price[c.field] = typeof v === 'string' ? v.trim() : text(v).trim();
    else price[c.field] = typeof v === 'string' ? v : '';
  }
  return price as MrfPrice;
}

/** normalizePrice for a price with a problem, reported at `path` (the price's JSON path). */
function checkedPrice(ctx: ElementContext, raw: unknown, path: string): MrfPrice | null {
  if (!isObject(raw)) {
    report(ctx, 'invalid_field', path, `negotiated price is not an object: ${describe(raw)}; dropped`);
    return null;
  }
  const rate = raw[RATE_FIELD];
  if (typeof rate !== 'number' || !Number.isFinite(rate)) {
    report(ctx, 'invalid_rate', `${path}.${RATE_FIELD}`, `${RATE_FIELD} is not a finite number: ${describe(rate)}; price dropped`);
    return null;
  }
  if (rate < 0) report(ctx, 'negative_rate', `${path}.${RATE_FIELD}`, `${RATE_FIELD} is negative: ${rate}; kept, in no dollar statistic`);
  return priceOf(raw, rate, ENUMS.map((e) => enumValue(ctx, raw[e.field], e.known, `${path}.${e.field}`, e.required)));
}
