/**
 * Normalises one CMS Negotiated Price object (`negotiated_prices[]` element)
 * into `MrfPrice`.
 */
import { codeList, describe, enumValue, isObject, knownEnumValue, ratePath, report, text, type ElementContext, type JsonObject } from './normalize-context.js';
import type { MrfPrice } from './types.js';

/** CMS `negotiated_type` enum (per diem since v1.0.0). */
export const NEGOTIATED_TYPES: ReadonlySet<string> = new Set(['negotiated', 'derived', 'fee schedule', 'percentage', 'per diem']);
/** CMS `billing_class` enum (`both` since v1.4.0). */
export const BILLING_CLASSES: ReadonlySet<string> = new Set(['professional', 'institutional', 'both']);
/** CMS v2 `setting` enum. */
export const SETTINGS: ReadonlySet<string> = new Set(['inpatient', 'outpatient', 'both']);

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
