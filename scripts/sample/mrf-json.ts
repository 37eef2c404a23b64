/**
 * Serialises one insurer's in-network-rates file (CMS schema) in the shape of the
 * version it claims:
 * - v1 `inline`: `negotiated_rates[].provider_groups` hold the groups (no root references);
 * - v1 `references`: root `provider_references[]` with numeric ids, `negotiated_rates[].provider_references`;
 * - v2.0.0: references only, plus `network_name`, `tin.business_name`, `setting`; empty arrays and
 *   strings omitted (the v2 schema's minItems/minLength).
 * Groups whose price lists are identical share one negotiated rate, as real files do.
 * Decimal ids are written verbatim (`12.50` keeps its trailing zero), which JSON.stringify cannot do,
 * so they travel through the object as marker strings replaced in the final text.
 */
import type { SampleInsurer } from './insurers';
import type { NetworkGroup } from './networks';
import type { FinalPrice } from './rate-model';
import { rngFor } from './rng';
import type { SampleService } from './services';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

const MARK = /"@@num:([0-9.]+)@@"/g;

/** `provider_group_id` of the group at index i, per the insurer's id style (text of the JSON number). */
export function providerGroupId(ins: SampleInsurer, i: number): string {
  if (ins.idStyle === 'zero-based') return String(i);
  const rng = rngFor('group-id', ins.id, i);
  if (ins.idStyle === 'sparse') return String(1000 + i * 10 + rng.int(0, 9));
  // Decimal ids, two decimals, about half with a significant trailing zero (as CareFirst's 690.64470).
  const frac = rng.chance(0.5) ? `${rng.int(1, 9)}0` : String(rng.int(11, 99));
  return `${i + 1}.${frac}`;
}

function idJson(ins: SampleInsurer, i: number): Json {
  return ins.idStyle === 'decimal' ? `@@num:${providerGroupId(ins, i)}@@` : Number(providerGroupId(ins, i));
}

function groupJson(ins: SampleInsurer, g: NetworkGroup): Json {
  const p = g.practice;
  const value = ins.emptyFields && p.tin.type === 'ein' ? p.tin.value.replace('-', '') : p.tin.value;
  const tin: Record<string, Json> = { type: p.tin.type, value };
  if (ins.version === '2.0.0' && p.tin.type === 'ein') tin.business_name = p.name;
  return { npi: p.tinOnly ? [0] : g.npis.map(Number), tin };
}

function priceJson(ins: SampleInsurer, p: FinalPrice): Json {
  const v2 = ins.version === '2.0.0';
  const o: Record<string, Json> = { negotiated_type: p.negotiatedType, negotiated_rate: p.rate, expiration_date: p.expiration };
  if (p.serviceCode.length > 0) o.service_code = p.serviceCode;
  o.billing_class = p.billingClass;
  if (v2) o.setting = p.setting;
  if (p.modifiers.length > 0 || ins.emptyFields) o.billing_code_modifier = p.modifiers;
  if (ins.emptyFields) o.additional_information = '';
  return o;
}

/** Header fields of the file, in the order real files write them. */
function header(ins: SampleInsurer, lastUpdatedOn: string): Record<string, Json> {
  return { reporting_entity_name: ins.reportingEntityName, reporting_entity_type: ins.reportingEntityType, ...(ins.plan ?? {}), last_updated_on: lastUpdatedOn, version: ins.version };
}

/**
 * The JSON text of one in-network-rates file. `items`: the snapshot's prices (rate-model.ts
 * snapshotPrices); `network`: the insurer's groups, indexed as the items' `group`.
 */
export function inNetworkJson(
  ins: SampleInsurer,
  lastUpdatedOn: string,
  network: readonly NetworkGroup[],
  items: ReadonlyArray<{ service: SampleService; groups: ReadonlyArray<{ group: number; prices: readonly FinalPrice[] }> }>,
): string {
  const inline = ins.layout === 'inline' && ins.version !== '2.0.0';
  const referenced = new Set<number>();
  const inNetwork: Json[] = items.map(({ service, groups }) => {
    const byPrices = new Map<string, { groups: number[]; prices: Json[] }>();
    for (const { group, prices } of groups) {
      const unique = new Map(prices.map((p) => priceJson(ins, p)).map((j) => [JSON.stringify(j), j]));
      const key = [...unique.keys()].join('|');
      const entry = byPrices.get(key) ?? { groups: [], prices: [...unique.values()] };
      entry.groups.push(group);
      byPrices.set(key, entry);
    }
    const negotiatedRates = [...byPrices.values()].map((e): Json => {
      if (inline) return { provider_groups: e.groups.map((g) => groupJson(ins, network[g] as NetworkGroup)), negotiated_prices: e.prices };
      e.groups.forEach((g) => referenced.add(g));
      return { provider_references: e.groups.map((g) => idJson(ins, g)), negotiated_prices: e.prices };
    });
    return {
      negotiation_arrangement: 'ffs',
      name: ins.upperNames ? service.name.toUpperCase() : service.name,
      billing_code_type: service.codeType,
      billing_code_type_version: '2025',
      billing_code: service.code,
      description: service.description,
      negotiated_rates: negotiatedRates,
    };
  });
  const root: Record<string, Json> = header(ins, lastUpdatedOn);
  if (!inline) {
    root.provider_references = network.flatMap((g, i): Json[] => {
      if (!referenced.has(i)) return [];
      const ref: Record<string, Json> = { provider_group_id: idJson(ins, i) };
      if (ins.version === '2.0.0') ref.network_name = ins.networkNames;
      ref.provider_groups = [groupJson(ins, g)];
      return [ref];
    });
  }
  root.in_network = inNetwork;
  return JSON.stringify(root).replace(MARK, '$1');
}
