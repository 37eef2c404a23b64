/**
 * Normalises one CMS Negotiated Price object (`negotiated_prices[]` element, tic-format.md §2.4)
 * into `MrfPrice`.
 */
import { codeList, describe, enumValue, isObject, report, text, type ElementContext } from './normalize-context.js';
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
 * are kept lower-cased and reported as `unknown_enum`. Rates are USD, or percent for `percentage`.
 */
export function normalizePrice(ctx: ElementContext, raw: unknown, path: string): MrfPrice | null {
  if (!isObject(raw)) {
    report(ctx, 'invalid_field', path, `negotiated price is not an object: ${describe(raw)}; dropped`);
    return null;
  }
  const rate = raw.negotiated_rate;
  if (typeof rate !== 'number' || !Number.isFinite(rate)) {
    report(ctx, 'invalid_rate', `${path}.negotiated_rate`, `negotiated_rate is not a finite number: ${describe(rate)}; price dropped`);
    return null;
  }
  const info = raw.additional_information;
  return {
    negotiated_type: enumValue(ctx, raw.negotiated_type, NEGOTIATED_TYPES, `${path}.negotiated_type`, true),
    negotiated_rate: rate,
    expiration_date: text(raw.expiration_date).trim(),
    billing_class: enumValue(ctx, raw.billing_class, BILLING_CLASSES, `${path}.billing_class`, true),
    service_code: codeList(raw.service_code, true),
    billing_code_modifier: codeList(raw.billing_code_modifier, false),
    additional_information: typeof info === 'string' ? info : '',
    setting: enumValue(ctx, raw.setting, SETTINGS, `${path}.setting`, false),
  };
}
