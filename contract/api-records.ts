/**
 * Records of the /api answers beyond service pricing (product-spec §3; contract/api.ts maps each
 * route to one of them). Money in USD, variances in percent; `null` = no value (shown as '-').
 */

/** `GET /api/regional-comparison` item: Variance by Region (metrics.md, Dashboard figures). */
export interface RegionalComparison {
  /** Two-letter state code. */
  region: string;
  /** Average Overpayment of the reference insurer over that state's rate rows, percent (whatever its id). */
  anthem_avg_overpayment: number;
  /** Services of the state with a variance. */
  services: number;
  /** Sum of the claims weights used (per-state claims when the input had a state column). */
  claims_count: number;
}

/** `GET /api/regional-services?state=XX` row: the map modal's table (product-spec §2). */
export interface RegionalServiceRow {
  service_code: string;
  service_name: string;
  /** price(s, R) in the state, USD. */
  your_price: number | null;
  /** market_average(s) in the state, USD. */
  market_avg: number | null;
  /** reference_variance(s) in the state, percent. */
  overpayment_pct: number | null;
}

/** `GET /api/overpayment-trend` point (metrics.md, Overpayment Trend). */
export interface TrendPoint {
  /** `YYYY-MM`. */
  month: string;
  /** Average Overpayment of that month, percent. */
  value: number;
}

/** `GET /api/service-names` item (product-spec §3, Live search list item). */
export interface ServiceListItem {
  /** The billing code. */
  id: string;
  name: string;
  billing_code_type: string;
  category: string;
}

/** A provider of `GET /api/providers-for-service`. */
export interface ProviderListItem {
  /** NPI, or `TIN:<tin>` for a provider without NPI. */
  id: string;
  name: string;
  npi: string | null;
  state: string | null;
}

/** `GET /api/providers-for-service` result: one page of the matches and their total. */
export interface ProvidersForService {
  items: ProviderListItem[];
  /** Providers matching `q` (all of them without `q`). */
  total: number;
}

/** `GET /api/insurers-for-service` item. */
export interface InsurerListItem {
  id: string;
  name: string;
}

/** How `price` reads: USD, percent of billed charges, or USD per day (metrics.md, Live search). */
export type PriceUnit = 'usd' | 'percent' | 'usd_per_day';

/** `GET /api/service-price-details` row (product-spec §3 Price detail; metrics.md, Live search). */
export interface PriceDetail {
  serviceName: string;
  providerName: string;
  insurerName: string;
  /** The row's negotiated_rate, in `price_unit`. */
  price: number;
  price_unit: PriceUnit;
  /** The reference insurer's dollar rate there with the same billing class (median), USD. */
  referencePrice: number | null;
  /** Mean of the competitors' medians there with that billing class, USD. */
  marketAverage: number | null;
  billing_class: string;
  negotiated_type: string;
  /** Place-of-service codes, comma-separated; '' when none. */
  service_codes: string;
  /** Modifiers, comma-separated; '' when none. */
  modifiers: string;
  snapshot: string;
}

/** `GET /api/dataset`: which dataset answers (the dataset screen). */
export interface DatasetInfo {
  /** `server`: `/data/` of the app's origin; `local`: files opened from disk. */
  origin: 'server' | 'local';
  /** The directory name of a local snapshot; the data URL for the server's. */
  name: string;
  /** ISO 8601 UTC. */
  created_at: string;
  converter_version: string;
  snapshots: string[];
  reference_insurer: string;
  insurers: number;
  rate_rows: number;
  /** Bytes read from the dataset since it was opened (boot tables plus rate row groups). */
  bytes_read: number;
  /** Billing codes whose rate rows are loaded. */
  loaded_codes: number;
}
