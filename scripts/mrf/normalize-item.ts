/**
 * Normalises one element of `in_network[]` (CMS In-Network object with its Negotiated Rate
 * Details of the CMS schema) into `MrfInNetworkItem`.
 */
import { describe, enumValue, isObject, ratePath, report, text, type ElementContext } from './normalize-context.js';
import { normalizePrice } from './normalize-price.js';
import { flattenProviderGroup } from './normalize-provider.js';
import type { MrfInNetworkItem, MrfNegotiatedRate, MrfPrice, MrfProvider } from './types.js';

/** CMS `negotiation_arrangement` enum. */
export const ARRANGEMENTS: ReadonlySet<string> = new Set(['ffs', 'bundle', 'capitation']);

type ContainedCode = { billing_code_type: string; billing_code: string; description: string };

function containedCodes(v: unknown): ContainedCode[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out: ContainedCode[] = [];
  for (const c of v) {
    if (!isObject(c)) continue;
    out.push({
      billing_code_type: text(c.billing_code_type).trim().toUpperCase(),
      billing_code: text(c.billing_code).trim(),
      description: text(c.description),
    });
  }
  return out.length > 0 ? out : undefined;
}

/**
 * One `negotiated_rates[]` element, or null (with a problem) when it is not an object. Its JSON
 * path is ratePath(path, index), built only when a problem is reported: most rates and prices
 * have none, and a path string per rate and price was a tenth of what a parser thread allocated.
 */
export function normalizeRate(ctx: ElementContext, raw: unknown, path: string, index?: number): MrfNegotiatedRate | null {
  if (!isObject(raw)) {
    report(ctx, 'invalid_field', ratePath(path, index), `negotiated rate is not an object: ${describe(raw)}; dropped`);
    return null;
  }
  const refs: string[] = [];
  if (Array.isArray(raw.provider_references)) {
    const list = raw.provider_references as unknown[];
    for (let k = 0; k < list.length; k++) {
      const x = list[k];
      // an integer id is its digits (quote-id-tokens.ts leaves only those unquoted): nothing to trim
      const id = typeof x === 'number' && Number.isInteger(x) ? String(x) : text(x).trim();
      if (id !== '') refs.push(id);
      else report(ctx, 'invalid_field', `${ratePath(path, index)}.provider_references[${k}]`, `not a provider group id: ${describe(x)}`);
    }
  }
  const groups: MrfProvider[][] = [];
  if (Array.isArray(raw.provider_groups)) {
    const list = raw.provider_groups as unknown[];
    for (let g = 0; g < list.length; g++) {
      const providers = flattenProviderGroup(ctx, list[g], `${ratePath(path, index)}.provider_groups[${g}]`);
      if (providers.length > 0) groups.push(providers);
    }
  }
  if (refs.length === 0 && groups.length === 0) {
    report(ctx, 'missing_providers', ratePath(path, index), 'negotiated rate has neither provider_references nor provider_groups; kept');
  }
  const prices: MrfPrice[] = [];
  const list = Array.isArray(raw.negotiated_prices) ? (raw.negotiated_prices as unknown[]) : [];
  if (list.length === 0) {
    report(ctx, 'missing_field', `${ratePath(path, index)}.negotiated_prices`, `no negotiated prices: ${describe(raw.negotiated_prices)}`);
  }
  for (let p = 0; p < list.length; p++) {
    const price = normalizePrice(ctx, list[p], path, index, p);
    if (price) prices.push(price);
  }
  return { provider_references: refs, provider_groups: groups, prices };
}

/**
 * One `in_network[]` element at JSON path `path` (e.g. `$.in_network[12]`), or null when it is
 * dropped: not an object, or `billing_code` missing, empty or not a string (a number counts as the
 * wrong type) — each with a problem. Everything else is tolerated and reported (see normalizePrice).
 * `split`: the item's negotiated_rates were cut out by the scanner (item-splitter.ts) and come apart,
 * so an empty list is expected.
 */
export function normalizeInNetworkItem(ctx: ElementContext, raw: unknown, path: string, split = false): MrfInNetworkItem | null {
  if (!isObject(raw)) {
    report(ctx, 'invalid_field', path, `in_network item is not an object: ${describe(raw)}; dropped`);
    return null;
  }
  const code = raw.billing_code;
  if (typeof code !== 'string' || code.trim() === '') {
    const kind = code === undefined || code === null || code === '' ? 'missing_field' : 'invalid_field';
    report(ctx, kind, `${path}.billing_code`, `billing_code must be a non-empty string, found ${describe(code)}; item dropped`);
    return null;
  }
  const billingCodeType = text(raw.billing_code_type).trim().toUpperCase();
  if (billingCodeType === '') report(ctx, 'missing_field', `${path}.billing_code_type`, `missing billing_code_type: ${describe(raw.billing_code_type)}`);
  const rates: MrfNegotiatedRate[] = [];
  const list = Array.isArray(raw.negotiated_rates) ? raw.negotiated_rates : [];
  if (list.length === 0 && !split) report(ctx, 'missing_field', `${path}.negotiated_rates`, `no negotiated rates: ${describe(raw.negotiated_rates)}`);
  for (let r = 0; r < list.length; r++) {
    const rate = normalizeRate(ctx, list[r], path, r);
    if (rate) rates.push(rate);
  }
  const item: MrfInNetworkItem = {
    negotiation_arrangement: enumValue(ctx, raw.negotiation_arrangement, ARRANGEMENTS, `${path}.negotiation_arrangement`, true),
    name: text(raw.name),
    billing_code_type: billingCodeType,
    billing_code_type_version: text(raw.billing_code_type_version).trim(),
    billing_code: code.trim(),
    description: text(raw.description),
    negotiated_rates: rates,
  };
  const bundled = containedCodes(raw.bundled_codes);
  if (bundled) item.bundled_codes = bundled;
  const covered = containedCodes(raw.covered_services);
  if (covered) item.covered_services = covered;
  return item;
}
