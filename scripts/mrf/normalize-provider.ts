/**
 * Normalises provider groups (CMS Providers object: `npi[]` + `tin {type, value}`) and elements of
 * the root `provider_references[]` of the CMS schema into `MrfProvider` / `MrfProviderReference`.
 */
import { describe, isObject, report, text, type ElementContext } from './normalize-context.js';
import type { MrfProvider, MrfProviderReference } from './types.js';

/** NPI text of one `npi[]` entry: null for the `0` placeholder, undefined when unusable. */
function npiText(v: unknown): string | null | undefined {
  if (typeof v === 'number') {
    if (v === 0) return null;
    return Number.isSafeInteger(v) && v > 0 ? String(v) : undefined;
  }
  if (typeof v === 'string') {
    const s = v.trim();
    if (s === '' || /^0+$/.test(s)) return null;
    return /^[0-9]+$/.test(s) ? s : undefined;
  }
  return undefined;
}

/**
 * One provider group flattened: one `MrfProvider` per usable NPI, all with the group's TIN; a single
 * entry with `npi: null` when the group has none (`[]`, `[0]`, absent; CMS v1.1.2 TIN-only rule).
 * Unusable NPI values (text, fractions) are dropped with an `invalid_npi` problem.
 */
export function flattenProviderGroup(ctx: ElementContext, raw: unknown, path: string): MrfProvider[] {
  if (!isObject(raw)) {
    report(ctx, 'invalid_field', path, `provider group is not an object: ${describe(raw)}`);
    return [];
  }
  const tin = isObject(raw.tin) ? raw.tin : {};
  const tinType = text(tin.type).trim().toLowerCase();
  const tinValue = text(tin.value).trim();
  const list = Array.isArray(raw.npi) ? raw.npi : raw.npi === undefined || raw.npi === null ? [] : [raw.npi];
  const out: MrfProvider[] = [];
  for (let k = 0; k < list.length; k++) {
    const npi = npiText(list[k]);
    if (npi === undefined) report(ctx, 'invalid_npi', `${path}.npi[${k}]`, `not an NPI: ${describe(list[k])}; dropped`);
    else if (npi !== null) out.push({ npi, tin_type: tinType, tin_value: tinValue });
  }
  if (out.length === 0) out.push({ npi: null, tin_type: tinType, tin_value: tinValue });
  return out;
}

/** Flattens every group of a `provider_groups[]` array into one provider list. */
export function flattenProviderGroups(ctx: ElementContext, raw: unknown, path: string): MrfProvider[] {
  if (!Array.isArray(raw)) return [];
  const out: MrfProvider[] = [];
  for (let g = 0; g < raw.length; g++) out.push(...flattenProviderGroup(ctx, raw[g], `${path}[${g}]`));
  return out;
}

/**
 * An element of the root `provider_references[]`. `provider_group_id` must arrive as the raw token
 * text (quote-id-tokens.ts) or as a number a double prints back exactly. Returns null (with a
 * `missing_field` problem) when the id is absent: nothing could reference the group. A group with
 * neither `provider_groups` nor `location` is kept with no providers and reported as
 * `missing_providers`.
 */
export function normalizeProviderReference(ctx: ElementContext, raw: unknown, path: string): MrfProviderReference | null {
  if (!isObject(raw)) {
    report(ctx, 'invalid_field', path, `provider reference is not an object: ${describe(raw)}; dropped`);
    return null;
  }
  const id = text(raw.provider_group_id).trim();
  if (id === '') {
    report(ctx, 'missing_field', `${path}.provider_group_id`, `missing provider_group_id: ${describe(raw.provider_group_id)}; dropped`);
    return null;
  }
  const ref: MrfProviderReference = {
    provider_group_id: id,
    providers: flattenProviderGroups(ctx, raw.provider_groups, `${path}.provider_groups`),
  };
  const location = text(raw.location).trim();
  if (location !== '') ref.location = location;
  if (Array.isArray(raw.network_name)) {
    const names = raw.network_name.map(text).filter((s) => s !== '');
    if (names.length > 0) ref.network_name = names;
  }
  if (ref.providers.length === 0 && ref.location === undefined) {
    report(ctx, 'missing_providers', path, 'provider reference has neither provider_groups nor location');
  }
  return ref;
}
