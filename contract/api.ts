/**
 * The /api contract: one route map from "METHOD /path" to its parameters and result.
 *
 * The page calls `fetch('/api/...')`; the fetch interceptor (src/api) hands every `/api/` request
 * except `/api/auth/*` to the worker, whose registry (workers/api) answers by this map
 * (docs/architecture.md). Money is in USD, variances in percent.
 */
import type { UnitBillingClass } from './dataset';
import type { Component, UnitSetting } from './medicare';
import type { Confidence } from './confidence';

/** `GET /api/insurers` item, docs/screens.md (Entities). */
export interface LiveInsurer {
  id: string;
  /** The product's name (docs/converter.md, Products). */
  name: string;
  /** Its company (manifest `insurers[].group`, else `name`); screens list products under it (contract/product.ts). */
  group: string;
  shortName: string;
  /** Market share in percent (0..100), as the checkboxes show it. */
  marketShare: number;
  /** Whether this is the dataset's reference insurer (manifest `reference_insurer`). */
  isReference: boolean;
}

/**
 * Sort orders of the comparison screens, docs/screens.md (Live comparison). Always descending, nulls last; ties by
 * service_code, then the unit: billing_class, component, setting (contract/metrics.ts compareUnits).
 */
export const SERVICE_SORTS = ['overpayment', 'variance', 'savings'] as const;
export type ServiceSort = (typeof SERVICE_SORTS)[number];

/**
 * Billing-class filter values (docs/methodology.md, Rows that count, Filters): `professional` = the
 * Professional chip (professional and `both` units), `institutional` = the Institutional chip
 * (institutional and `both` units), `all` = no chip or both chips (every unit).
 */
export const BILLING_CLASS_FILTERS = ['all', 'professional', 'institutional'] as const;
export type BillingClassFilter = (typeof BILLING_CLASS_FILTERS)[number];

/** Query parameters of `GET /api/service-pricing`; all optional, all strings on the wire. */
export interface ServicePricingParams extends SharedProvidersParam {
  /** Page size; absent = every service. */
  limit?: number;
  /** Rows to skip (page x limit). */
  offset?: number;
  /** Category name as in `services.category`; absent = all categories. */
  category?: string;
  billing_class?: BillingClassFilter;
  /** Two-letter state code; absent = the whole market. */
  state?: string;
  /** Comma-separated competitor insurer ids; absent = every insurer but the reference. */
  competitors?: string[];
  /** Keep only services with overpayment > 0 (default false). */
  only_overpaying?: boolean;
  sort?: ServiceSort;
  /** Snapshot month `YYYY-MM`; absent = the latest of the dataset. */
  snapshot?: string;
  /**
   * Comma-separated provider ids (NPI or `TIN:<tin>`): medians over these providers' valid rate rows
   * only (loaded by billing code on demand), and `min_providers` for thin units becomes the smaller
   * of the manifest's and the number selected. Absent = every provider (pre-computed price_stats).
   */
  providers?: string[];
  /** Comma-separated billing codes: only these services (the comparison screen's chips). */
  services?: string[];
  /**
   * `medium` or `high`: hide the units of a lower confidence (docs/methodology.md, Confidence and
   * distribution); they leave the summary cards and the total. Absent = every unit.
   */
  min_confidence?: MinConfidence;
}

/** The values of `min_confidence`. */
export const MIN_CONFIDENCES = ['medium', 'high'] as const;
export type MinConfidence = (typeof MIN_CONFIDENCES)[number];

/** The "At shared providers" and "Where we bill it" switches of the comparison and the dashboard endpoints. */
export interface SharedProvidersParam {
  /**
   * `1`/`true`: every price at shared providers (docs/methodology.md, Per comparison unit, At shared
   * providers): a competitor's over its valid rates at providers where the reference insurer has
   * one, the reference's over its valid rates at providers where any competitor of the dataset has
   * one (with `providers`, among those). Absent or `0`/`false` = every provider.
   */
  shared_providers?: boolean;
  /**
   * `1`/`true`: every price where we bill it (docs/methodology.md, Per comparison unit, Where we
   * bill it): over valid rates at providers with a claim of the code in the reference insurer's
   * claims; with `shared_providers`, both hold. Refused (400) when the claims name no providers
   * (`manifest.claims_by_provider`). Absent or `0`/`false` = every provider.
   */
  billed?: boolean;
}

/**
 * Live service pricing record, docs/screens.md (Entities): one per comparison unit (docs/methodology.md, "Per
 * comparison unit": a service with its billing class, component and setting), figures by that
 * section over the unit's valid rates. `null` stands for "no value" (shown as '-').
 */
export interface LiveServicePricingRecord {
  service_code: string;
  billing_code_type: string;
  service_name: string;
  /** The publishers' most frequent item name for the code (docs/methodology.md, Names and categories), shown beside the name; null when none. */
  published_name: string | null;
  category: string;
  /** The unit's billing class as published: `professional`, `institutional` or `both` (a unit of its own). */
  billing_class: UnitBillingClass;
  /** `26` (modifier 26), `TC` (modifier TC) or `global` (docs/methodology.md, Per comparison unit). */
  component: Component;
  /** `facility` or `non-facility` (docs/methodology.md, Per comparison unit; institutional units are `facility`). */
  setting: UnitSetting;
  /** price(s, R), USD. */
  reference_price: number | null;
  /** price(s, i) of every selected competitor with a price, USD, by insurer id. */
  competitor_prices: Record<string, number>;
  /** Mean of competitor_prices, USD. */
  market_average: number | null;
  /** 100 x (reference - market) / market, percent. */
  reference_variance: number | null;
  /** reference - market, USD. */
  overpayment: number | null;
  /**
   * Claims of the reference insurer for this unit: its class's count when it is the class's main
   * unit, else 0 (docs/methodology.md, Per comparison unit, `claims_volume(s)`; contract/metrics.ts claimsByUnit).
   */
  claims_volume: number;
  /** overpayment x claims_volume when overpayment > 0, else 0; USD. */
  potential_savings: number;
  /** Alias of reference_price kept for the live dashboard, docs/screens.md (Entities). */
  anthem_price: number | null;
  /** Alias of reference_variance kept for the live dashboard, docs/screens.md (Entities). */
  anthem_variance: number | null;
  /** The unit's national Medicare amount, USD (docs/methodology.md, Medicare benchmark); null without a benchmark. */
  medicare_rate: number | null;
  /** medicare_pct(s, R): 100 x reference_price / medicare_rate, percent ('% of Medicare'); null when either is missing. */
  reference_medicare_pct: number | null;
  /** medicare_pct(s, i) of every competitor in competitor_prices, percent, by insurer id; {} without a benchmark. */
  competitor_medicare_pct: Record<string, number>;
  /** Mean of the competitors' medicare_pct that exist, percent ('% of Medicare' beside market_average); null when none. */
  market_medicare_pct: number | null;
  /** provider_count(s, R): distinct providers behind reference_price (its support); 0 without a reference price. */
  reference_providers: number;
  /** provider_count(s, i) of every competitor in competitor_prices, by insurer id. */
  competitor_providers: Record<string, number>;
  /**
   * The unit is thin (docs/methodology.md, Per comparison unit): the reference price rests on fewer than
   * `min_providers` providers (manifest `validation`; with a provider selection, the smaller of it
   * and the number selected), or the competitor prices on fewer together. A thin unit is listed
   * with a 'low confidence' mark and enters no summary figure nor alert.
   */
  thin: boolean;
  /** Why the unit is thin ('reference price rests on 1 provider', ...), null when it is not. */
  thin_reason: string | null;
  /**
   * The unit's confidence (docs/methodology.md, Confidence and distribution): the lowest of its
   * reference price's and the selected competitors' prices', `low` when thin.
   */
  confidence: Confidence;
  /** What lowered it, each reason once with the insurers whose prices it lowers ('rests on 3 providers (Aetna, Cigna)'); empty when high. */
  confidence_reasons: string[];
}

/**
 * The comparison screens' four summary cards over the whole filtered set (docs/methodology.md, Dashboard
 * figures): "service" there means a comparison unit that has a variance and is not thin.
 */
export interface ServicePricingSummary {
  /** Sum of potential_savings over the units with a variance that are not thin, USD. */
  total_potential_savings: number;
  /** Claims-weighted mean of reference_variance over the same units, percent; null when there is none. */
  avg_overpayment: number | null;
  /** Of the same units (before only_overpaying), those with overpayment > 0. */
  services_overpaying: number;
  /** Units passing category and billing-class filters that have a variance and are not thin (before only_overpaying). */
  services_total: number;
  /** Number of competitors compared against. */
  comparing_against: number;
}

/** `GET /api/service-pricing` result. */
export interface ServicePricingResult {
  records: LiveServicePricingRecord[];
  /** Records (units) in the filtered set (after only_overpaying), thin or not, for paging. */
  total: number;
  offset: number;
  limit: number | null;
  snapshot: string;
  reference_insurer: string;
  competitors: string[];
  summary: ServicePricingSummary;
}

/**
 * `GET /api/dashboard-figures` result: the live dashboard's KPI cards and Top 10 Overpaid Services
 * (docs/methodology.md, Dashboard figures), computed in the worker over every record of
 * `GET /api/service-pricing` with the same `shared_providers` by contract/dashboard-figures.ts, so
 * the page receives only what it draws. Variances percent, money USD.
 */
export interface DashboardFiguresResult {
  /** The snapshot month `YYYY-MM` of the figures (the dataset's latest). */
  snapshot: string;
  /** The competitor insurer ids compared against (every insurer but the reference). */
  competitors: string[];
  kpis: DashboardKpis;
  /** The ten largest variances of the counted units, largest first (ties: code, then unit order). */
  top: CountedRecord[];
}

/** Error body of every non-2xx /api answer (docs/architecture.md). */
export interface ApiErrorBody {
  message: string;
  error: { code: ApiErrorCode; message: string };
}

export type ApiErrorCode = 'not_found' | 'bad_request' | 'internal' | 'unauthorized' | 'unavailable';

export type { Alert, AlertSeverity, AlertType } from './alert-rules';
export type { CountedRecord, DashboardKpis } from './dashboard-figures';
import type { CountedRecord, DashboardKpis } from './dashboard-figures';
import type { Alert } from './alert-rules';
import type { SortDirection } from './sort-rows';
export type {
  DatasetInfo,
  MedicareBasis,
  PriceDetail,
  PriceUnit,
  RegionalComparison,
  RegionalServiceRow,
  ServiceListItem,
  ServicesSearch,
  ProviderListItem,
  ProvidersForService,
  InsurerListItem,
  TrendPoint,
} from './api-records';
import type {
  DatasetInfo,
  PriceDetail,
  RegionalComparison,
  RegionalServiceRow,
  ServiceListItem,
  ServicesSearch,
  ProvidersForService,
  InsurerListItem,
  TrendPoint,
} from './api-records';

export type {
  CoverageGroup,
  CoverageResult,
  CoverageSource,
  ProviderSearchItem,
  ProviderSearchResult,
  RateRowRecord,
  RateRowSource,
  RateRowsParams,
  RateRowsResult,
  MarketBand,
  MarketBandParams,
  MarketBandResult,
} from './api-live';
import type { CoverageResult, MarketBandParams, MarketBandResult, ProviderSearchResult, RateRowsParams, RateRowsResult } from './api-live';

// the alerts' pages (contract/api-records.ts)
export { ALERTS_PAGE_DEFAULT_LIMIT, ALERTS_PAGE_MAX_LIMIT } from './api-records';
export type { AcknowledgeAllResult, AlertsPage, AlertsPageParams } from './api-records';
import type { AcknowledgeAllResult, AlertsPage, AlertsPageParams } from './api-records';

/** `GET /api/regional-services-page` page size when `limit` is absent (the state modal's first page). */
export const REGIONAL_SERVICES_PAGE_DEFAULT_LIMIT = 50;
/** The largest `limit` of `GET /api/regional-services-page` (no screen renders more rows). */
export const REGIONAL_SERVICES_PAGE_MAX_LIMIT = 200;
/** The sort keys of `GET /api/regional-services-page`: the state modal's columns. */
export const REGIONAL_SERVICES_SORTS = ['service', 'your_price', 'market_avg', 'overpayment_pct'] as const;
/** One sort key of `GET /api/regional-services-page`. */
export type RegionalServicesSort = (typeof REGIONAL_SERVICES_SORTS)[number];

/** Query parameters of `GET /api/regional-services-page`: the state, the market, the search, the sort and the page. */
export interface RegionalServicesPageParams extends SharedProvidersParam {
  /** Two-letter state code (required). */
  state: string;
  snapshot?: string;
  /** Case-insensitive substring of the billing code or the service name; blank = every unit. */
  q?: string;
  /** The column sorted (default `overpayment_pct`); `service` sorts by 'code name'. Nulls last either way. */
  sort?: RegionalServicesSort;
  /** Default `desc`. */
  direction?: SortDirection;
  /** Units to skip, from 0 (default 0); past the end gives no items. */
  offset?: number;
  /** Units to return, 1..REGIONAL_SERVICES_PAGE_MAX_LIMIT (default REGIONAL_SERVICES_PAGE_DEFAULT_LIMIT). */
  limit?: number;
}

/** `GET /api/regional-services-page` result: one slice of the state's units, with the counts a screen shows. */
export interface RegionalServicesPage {
  /** Comparison units of the state (the `GET /api/regional-services` rows), whatever `q`. */
  total: number;
  /** Units matching `q` (= total without `q`). */
  matched: number;
  /** Units of the state marked thin (low confidence), whatever `q`. */
  thin: number;
  /** The matching units at [offset, offset + limit) in the order asked. */
  items: RegionalServiceRow[];
}

/**
 * The route map. Adding an endpoint edits this and adds one file under workers/api/.
 * A `{name}` path segment is a path parameter: it reaches the endpoint's parser as `query[name]`.
 */
export interface Api {
  'GET /api/insurers': { params: Record<string, never>; result: LiveInsurer[] };
  'GET /api/service-pricing': { params: ServicePricingParams; result: ServicePricingResult };
  /**
   * The live dashboard's KPI cards and Top 10 (docs/methodology.md, Dashboard figures), from every
   * unit of service-pricing at the latest snapshot against every competitor: a few KB however
   * many units the dataset has.
   */
  'GET /api/dashboard-figures': { params: SharedProvidersParam; result: DashboardFiguresResult };
  /** Variance by Region (docs/methodology.md): one entry per state with rates, by state code. */
  'GET /api/regional-comparison': { params: { snapshot?: string } & SharedProvidersParam; result: RegionalComparison[] };
  /** The map modal's rows for one state (`state` required). */
  'GET /api/regional-services': { params: { state: string; snapshot?: string } & SharedProvidersParam; result: RegionalServiceRow[] };
  /**
   * The same rows a page at a time, searched and sorted in the worker, so that the state modal
   * receives only the rows it shows (a state has thousands of units at a national dataset's size).
   * 400 for a bad state, snapshot, sort, direction, offset or limit.
   */
  'GET /api/regional-services-page': { params: RegionalServicesPageParams; result: RegionalServicesPage };
  'GET /api/overpayment-trend': { params: SharedProvidersParam; result: TrendPoint[] };
  'GET /api/alerts': { params: Record<string, never>; result: Alert[] };
  /**
   * One page of the `GET /api/alerts` list, in its order, with the whole list's total and open
   * counts, so that a screen receives only the alerts it shows. 400 for an `offset` or `limit` that
   * is not a decimal integer in range (AlertsPageParams).
   */
  'GET /api/alerts-page': { params: AlertsPageParams; result: AlertsPage };
  'PUT /api/alerts/{id}/acknowledge': { params: { id: string }; result: Alert };
  'PUT /api/alerts/acknowledge-all': { params: Record<string, never>; result: AcknowledgeAllResult };
  'GET /api/service-names': { params: Record<string, never>; result: ServiceListItem[] };
  /**
   * The distinct non-empty categories of the CPT/HCPCS services (workers/api/service-categories.ts),
   * by name: the live comparison's category filter, without the whole service list.
   */
  'GET /api/service-categories': { params: Record<string, never>; result: string[] };
  /**
   * Service search for typing ahead (workers/api/services-search.ts): `q` a case-insensitive substring
   * of name, code, category, description or keywords; prefix matches (name or code) first, then by
   * name, then code; blank `q` = every service by name. `limit` 1..100, default 10; `total` counts all
   * matches (blank `q`: every service, the live comparison's Available Services).
   */
  'GET /api/services-search': { params: { q?: string; limit?: number }; result: ServicesSearch };
  'GET /api/providers-for-service': {
    params: { service_id: string; q?: string; limit?: number };
    result: ProvidersForService;
  };
  'GET /api/insurers-for-service': { params: { service_id: string }; result: InsurerListItem[] };
  'GET /api/service-price-details': {
    params: { service_id: string; provider_id: string; insurer_id: string };
    result: PriceDetail[];
  };
  /** Which dataset is open (origin or local, created when, snapshots). */
  'GET /api/dataset': { params: Record<string, never>; result: DatasetInfo };
  /** The distinct dollar rate rows behind one median, with their source files (contract/api-live.ts). */
  'GET /api/rate-rows': { params: RateRowsParams; result: RateRowsResult };
  /**
   * The market band of each unit of a few codes (the comparison's page), from their rate rows:
   * p25-p75 of the selected competitors' provider medians pooled. 400 without `services`.
   */
  'GET /api/market-band': { params: MarketBandParams; result: MarketBandResult };
  /** Files, rate rows, unresolved references and problems per insurer and snapshot (manifest + report.json). */
  'GET /api/coverage': { params: Record<string, never>; result: CoverageResult };
  /** Provider search over the whole dataset (name or id, case-insensitive substring; prefix first). */
  'GET /api/providers': { params: { q?: string; limit?: number }; result: ProviderSearchResult };
}

export type ApiRoute = keyof Api;

/** A request as it crosses into the worker: plain data, structured-clone safe. */
export interface ApiRequest {
  method: string;
  /** Path without query string, e.g. `/api/insurers`. */
  path: string;
  /** Query parameters; a repeated key keeps its last value. */
  query: Record<string, string>;
  body?: string;
  /** The signed-in user's name (the access token's `name` claim), when the page knows it. */
  user?: string;
}

/** A response as it comes back from the worker; the interceptor wraps it in a `Response`. */
export interface ApiResponse {
  status: number;
  body: unknown;
}
