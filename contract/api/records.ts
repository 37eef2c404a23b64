/**
 * Records of the /api answers beyond service pricing (docs/screens.md, Entities; contract/api/index.ts maps each
 * route to one of them). Money in USD, variances in percent; `null` = no value (shown as '-').
 */
import type { UnitBillingClass, ValidationReason } from '../files/dataset';
import type { Component, UnitSetting } from '../rules/medicare';
import type { Alert } from '../rules/alert-rules';

/** `GET /api/regional-comparison` item: Variance by Region (docs/methodology.md, Dashboard figures). */
export interface RegionalComparison {
  /** Two-letter state code. */
  region: string;
  /**
   * Average Overpayment of the reference insurer over that state's rate rows, percent (whatever its
   * id), over the state's comparison units that have a variance and are not thin.
   */
  anthem_avg_overpayment: number;
  /** Comparison units of the state with a variance that are not thin (the ones averaged). */
  services: number;
  /** Sum of the claims weights used (per-state claims when the input had a state column). */
  claims_count: number;
}

/**
 * `GET /api/regional-services?state=XX` row: the map modal's table, docs/screens.md (Live dashboard), one per
 * comparison unit of the state (docs/methodology.md, Per comparison unit).
 */
export interface RegionalServiceRow {
  service_code: string;
  service_name: string;
  billing_class: UnitBillingClass;
  component: Component;
  setting: UnitSetting;
  /** price(s, R) in the state, USD. */
  your_price: number | null;
  /** market_average(s) in the state, USD. */
  market_avg: number | null;
  /** reference_variance(s) in the state, percent. */
  overpayment_pct: number | null;
  /** Whether the unit is thin in the state (docs/methodology.md; left out of the state's Average Overpayment). */
  thin: boolean;
}

/** `GET /api/overpayment-trend` point (docs/methodology.md, Dashboard figures). */
export interface TrendPoint {
  /** `YYYY-MM`. */
  month: string;
  /** Average Overpayment of that month, percent. */
  value: number;
}

/** `GET /api/service-names` and `GET /api/services-search` item, docs/screens.md (Entities). */
export interface ServiceListItem {
  /** The billing code. */
  id: string;
  name: string;
  billing_code_type: string;
  category: string;
}

/** `GET /api/services-search` result: one page of the matches and their total. */
export interface ServicesSearch {
  items: ServiceListItem[];
  /** Services matching `q` (every CPT/HCPCS service without `q`). */
  total: number;
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
  /** The product's name. */
  name: string;
  /** Its company (manifest `insurers[].group`; docs/methodology.md, Products). */
  group: string;
}

/** How `price` reads: USD, percent of billed charges, or USD per day (docs/methodology.md, Live search). */
export type PriceUnit = 'usd' | 'percent' | 'usd_per_day';

/** Where a row's '% of Medicare' comes from (docs/methodology.md, Medicare benchmark): the provider's locality, or the national amount. */
export type MedicareBasis = 'locality' | 'national';

/**
 * `GET /api/service-price-details` row (docs/screens.md, Entities; docs/methodology.md, Live search): one
 * distinct (billing_class, negotiated_type, place-of-service codes, modifiers, rate) of the insurer
 * at the provider. Reference Price and Market Average are over the row's comparison unit (class,
 * component, setting), valid dollar rates only.
 */
export interface PriceDetail {
  serviceName: string;
  providerName: string;
  insurerName: string;
  /** The row's negotiated_rate, in `price_unit`. */
  price: number;
  price_unit: PriceUnit;
  /** Median of the reference insurer's valid dollar rates there of the row's unit, USD. */
  referencePrice: number | null;
  /** Mean of the competitors' medians of their valid dollar rates there of the row's unit, USD. */
  marketAverage: number | null;
  billing_class: string;
  /** The row's component: `26`, `TC` or `global` (from its modifiers). */
  component: Component;
  /** The row's setting: `facility` or `non-facility` (from its class and place-of-service codes). */
  setting: UnitSetting;
  /**
   * '% of Medicare' of a dollar row: 100 x price / the Medicare amount at the provider's locality
   * when the provider has GPCIs and the unit's benchmark is a PFS amount, else the national amount
   * (docs/methodology.md, Medicare benchmark); null for a row without benchmark or not in USD.
   */
  medicare_pct: number | null;
  /** Which amount medicare_pct is of; null when medicare_pct is null. */
  medicare_basis: MedicareBasis | null;
  /** The validation reason of a dollar row that failed (docs/methodology.md, Validation); null when valid or not a dollar rate. */
  validation: ValidationReason | null;
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

/** `PUT /api/alerts/acknowledge-all` result. */
export interface AcknowledgeAllResult {
  /** Alerts newly acknowledged by this call. */
  acknowledged: number;
  alerts: Alert[];
}

/** `GET /api/alerts-page` page size when `limit` is absent (the live dashboard's first page). */
export const ALERTS_PAGE_DEFAULT_LIMIT = 20;
/** The largest `limit` of `GET /api/alerts-page`. */
export const ALERTS_PAGE_MAX_LIMIT = 200;

/** Query parameters of `GET /api/alerts-page`; both optional, decimal integers on the wire. */
export interface AlertsPageParams {
  /** Alerts to skip, from 0 (default 0); past the end gives no items. */
  offset?: number;
  /** Alerts to return, 1..ALERTS_PAGE_MAX_LIMIT (default ALERTS_PAGE_DEFAULT_LIMIT). */
  limit?: number;
}

/** `GET /api/alerts-page` result: one slice of the `GET /api/alerts` list with the list's counts. */
export interface AlertsPage {
  /** Alerts in the whole list. */
  total: number;
  /** Alerts of the whole list not acknowledged. */
  open: number;
  /** The alerts at [offset, offset + limit) of the list, in its order (docs/methodology.md, Alerts). */
  items: Alert[];
}
