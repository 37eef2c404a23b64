/**
 * Normalises one CMS Negotiated Price object (`negotiated_prices[]` element) into `MrfPrice`, each
 * field by its column's kind (contract/price-columns.ts PRICE_COLUMNS).
 */
import { PRICE_COLUMN_SPECS, priceColumn, type PriceColumnSpec } from '../../contract/price-columns.js';
import { codeList, describe, enumValue, isObject, knownEnumValue, ratePath, report, text, type ElementContext, type JsonObject } from './normalize-context.js';
import type { MrfPrice } from './types.js';

/** The CMS values of enum column `name` (PRICE_COLUMNS `values`). */
const valuesOf = (name: string): ReadonlySet<string> => new Set(priceColumn(name).values ?? []);

/** CMS `negotiated_type` enum. */
export const NEGOTIATED_TYPES = valuesOf('negotiated_type');
/** CMS `billing_class` enum. */
export const BILLING_CLASSES = valuesOf('billing_class');
/** CMS v2 `setting` enum. */
export const SETTINGS = valuesOf('setting');

/**
 * priceOf and checkedPrice read each field by name, the per-price code of the slow path; MrfPrice
 * (a mapped type of the table) makes a field they miss a type error, and this check at import makes
 * a table entry whose handling they lack (an enum, a required field) an error before any price.
 */
const HANDLED: Record<string, Pick<PriceColumnSpec, 'kind' | 'required' | 'trim' | 'pad'>> = {
  billing_class: { kind: 'enum', required: true, trim: false, pad: false },
  negotiated_type: { kind: 'enum', required: true, trim: false, pad: false },
  negotiated_rate: { kind: 'number', required: true, trim: false, pad: false },
  service_codes: { kind: 'codes', required: false, trim: false, pad: true },
  modifiers: { kind: 'codes', required: false, trim: false, pad: false },
  expiration_date: { kind: 'text', required: false, trim: true, pad: false },
  setting: { kind: 'enum', required: false, trim: false, pad: false },
  additional_information: { kind: 'text', required: false, trim: false, pad: false },
};
for (const c of PRICE_COLUMN_SPECS) {
  const h = HANDLED[c.name];
  if (!h || h.kind !== c.kind || h.required !== c.required || h.trim !== c.trim || h.pad !== c.pad) {
    throw new Error(`normalize-price.ts does not handle price column ${c.name} as contract/price-columns.ts describes it`);
  }
}

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
    const rate = raw.negotiated_rate;
    const type = knownEnumValue(raw.negotiated_type, NEGOTIATED_TYPES);
    const cls = knownEnumValue(raw.billing_class, BILLING_CLASSES);
    const s = raw.setting;
    const setting = s === undefined || s === null || s === '' ? '' : knownEnumValue(s, SETTINGS);
    if (typeof rate === 'number' && Number.isFinite(rate) && rate >= 0 && type !== null && cls !== null && setting !== null) {
      return priceOf(raw, rate, type, cls, setting);
    }
  }
  return checkedPrice(ctx, raw, `${ratePath(path, rateIndex)}.negotiated_prices[${index}]`);
}

/** The price of a raw object whose rate and enum values are known good or already reported. */
function priceOf(raw: JsonObject, rate: number, type: string, cls: string, setting: string): MrfPrice {
  const info = raw.additional_information;
  const expiration = raw.expiration_date;
  return {
    negotiated_type: type,
    negotiated_rate: rate,
    expiration_date: typeof expiration === 'string' ? expiration.trim() : text(expiration).trim(),
    billing_class: cls,
    service_code: codeList(raw.service_code, true),
    billing_code_modifier: codeList(raw.billing_code_modifier, false),
    additional_information: typeof info === 'string' ? info : '',
    setting,
  };
}

/** normalizePrice for a price with a problem, reported at `path` (the price's JSON path). */
function checkedPrice(ctx: ElementContext, raw: unknown, path: string): MrfPrice | null {
  if (!isObject(raw)) {
    report(ctx, 'invalid_field', path, `negotiated price is not an object: ${describe(raw)}; dropped`);
    return null;
  }
  const rate = raw.negotiated_rate;
  if (typeof rate !== 'number' || !Number.isFinite(rate)) {
    report(ctx, 'invalid_rate', `${path}.negotiated_rate`, `negotiated_rate is not a finite number: ${describe(rate)}; price dropped`);
    return null;
  }
  if (rate < 0) report(ctx, 'negative_rate', `${path}.negotiated_rate`, `negotiated_rate is negative: ${rate}; kept, in no dollar statistic`);
  return priceOf(raw, rate,
    enumValue(ctx, raw.negotiated_type, NEGOTIATED_TYPES, `${path}.negotiated_type`, true),
    enumValue(ctx, raw.billing_class, BILLING_CLASSES, `${path}.billing_class`, true),
    enumValue(ctx, raw.setting, SETTINGS, `${path}.setting`, false));
}
