/**
 * Values of the in-network-rates reader (scripts/mrf) as the converter spools them.
 *
 * The reader splits bytes first and `JSON.parse`s only small elements (docs/architecture.md): each
 * element of the root `provider_references[]` and of `in_network[]` is normalised into one value
 * (normalize-item.ts, normalize-provider.ts; the parser threads' fast path, fast-rates.ts, spools
 * the same values without building them). Field names are the CMS schema's; values are normalised
 * as documented per field, raw where a normalisation could lose information.
 */
import type { NormalizedPrice } from '../../contract/files/price-columns';

/** Root scalar fields of an in-network-rates file (CMS schema, root object). */
export interface MrfHeader {
  reporting_entity_name: string;
  reporting_entity_type: string;
  /** As written in the file ('' when absent). */
  last_updated_on: string;
  /** Claimed schema version ('' when absent). */
  version: string;
  plan_name?: string;
  plan_id_type?: string;
  plan_id?: string;
  plan_market_type?: string;
}

/** One provider of a provider group: one NPI, or the TIN alone (`npi` null) when the group has none usable. */
export interface MrfProvider {
  /** NPI as decimal text; null for `[]`, `[0]` or absent. */
  npi: string | null;
  /** `ein` or `npi`, lower-cased ('' when absent). */
  tin_type: string;
  /** TIN value as published (may carry a hyphen); '' when absent. */
  tin_value: string;
}

/** An element of the root `provider_references[]`. */
export interface MrfProviderReference {
  /**
   * `provider_group_id` exactly as its JSON number token was written (`690.64470` keeps its
   * trailing zero; docs/converter.md, Quirks of real files).
   */
  provider_group_id: string;
  /** Inline `provider_groups[]` flattened to one entry per NPI (or per TIN when no NPI). */
  providers: MrfProvider[];
  /** v1 remote `location` URL when the group is not inline. */
  location?: string;
  network_name?: string[];
}

/**
 * One element of `negotiated_prices[]` (CMS Negotiated Price object), normalised, by CMS field
 * (contract/files/price-columns.ts PRICE_COLUMNS; normalize-price.ts): enums lower-cased (an unknown value
 * kept, lower case; an optional one '' when absent), code lists sorted without repeats ([] when
 * absent or empty; place-of-service codes two digits, modifiers upper-cased), text '' when absent.
 */
export type MrfPrice = NormalizedPrice;

/**
 * One element of `negotiated_rates[]`: prices shared by a set of provider groups. Exactly one of
 * `provider_references` (ids, raw number text as in MrfProviderReference) and `provider_groups`
 * (inline v1 groups, flattened) is non-empty in a valid file; both may be empty in a broken one.
 */
export interface MrfNegotiatedRate {
  provider_references: string[];
  /** Inline groups, each flattened to its providers. */
  provider_groups: MrfProvider[][];
  prices: MrfPrice[];
}

/** One element of `in_network[]`. */
export interface MrfInNetworkItem {
  negotiation_arrangement: string;
  name: string;
  /** Upper-cased (`CPT`, `HCPCS`, `RC`, `CSTM-ALL`, ...). */
  billing_code_type: string;
  billing_code_type_version: string;
  /** Text as published, leading zeros kept, trimmed. */
  billing_code: string;
  description: string;
  negotiated_rates: MrfNegotiatedRate[];
  bundled_codes?: Array<{ billing_code_type: string; billing_code: string; description: string }>;
  covered_services?: Array<{ billing_code_type: string; billing_code: string; description: string }>;
}

/** A tolerated problem: recorded in report.json, the run goes on (docs/converter.md, What it reads, and what it does with bad input). */
export interface MrfProblem {
  /** Short machine code, e.g. `invalid_rate`, `unknown_enum`, `missing_field`. */
  code: string;
  message: string;
  /** JSON path, e.g. `$.in_network[12].negotiated_rates[0].negotiated_prices[3].negotiated_rate`. */
  path: string;
  /** Byte offset in the uncompressed JSON where the element starts. */
  offset: number;
}

/**
 * Thrown when a file cannot be read at all (not JSON, truncated gzip, truncated JSON): names the
 * file and the byte offset of the uncompressed stream (docs/converter.md, What it reads, and what it does with bad input).
 */
export class MrfReadError extends Error {
  constructor(
    readonly file: string,
    readonly offset: number,
    readonly reason: string,
  ) {
    super(`${file}: ${reason} at byte ${offset}`);
    this.name = 'MrfReadError';
  }
}
