/**
 * Events of the streaming in-network-rates reader (scripts/mrf) as the converter consumes them.
 *
 * The reader splits bytes first and `JSON.parse`s only small elements (docs/architecture.md): each
 * element of the root `provider_references[]` and of `in_network[]` becomes one event. Field names
 * are the CMS schema's; values are normalised as documented per field, raw where
 * a normalisation could lose information.
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
 * What the reader calls, in file order. The header arrives once, at the end of the file, after all
 * elements (its root fields may sit anywhere in the root object, before or after the arrays).
 */
export interface MrfSink {
  header(h: MrfHeader): void | Promise<void>;
  providerReference(ref: MrfProviderReference, offset: number): void | Promise<void>;
  inNetworkItem(item: MrfInNetworkItem, offset: number): void | Promise<void>;
  problem(p: MrfProblem): void | Promise<void>;
}

/** Options of `readInNetworkFile`. */
export interface MrfReadOptions {
  /** Keep only these billing codes; an item of another code is skipped without full parsing. */
  billingCodes?: ReadonlySet<string>;
  /** Called with (bytes read of the compressed input, total bytes or null) as the file streams. */
  onProgress?: (bytesRead: number, totalBytes: number | null) => void;
  /** An in_network item larger than this (bytes) is split by negotiated_rates (default 8 MiB). */
  splitBytes?: number;
}

/** Totals a read returns. */
export interface MrfReadResult {
  /** Uncompressed JSON bytes scanned. */
  jsonBytes: number;
  /** Bytes of the input as stored (compressed when gzip). */
  inputBytes: number;
  sha256: string;
  inNetworkItems: number;
  providerReferences: number;
  skippedItems: number;
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
