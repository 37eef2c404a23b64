/**
 * The records of `GET /api/service-pricing` and `GET /api/dashboard-figures` (docs/screens.md,
 * Entities), with the query parameters the comparison and the dashboard share. Money in USD,
 * variances in percent.
 */
import type { Confidence } from '../rules/confidence';
import type { UnitBillingClass } from '../files/dataset';
import type { Component, UnitSetting } from '../rules/medicare';

/** `GET /api/insurers` item, docs/screens.md (Entities). */
export interface LiveInsurer {
  id: string;
  /** The product's name (docs/converter.md, Products). */
  name: string;
  /** Its company (manifest `insurers[].group`, else `name`); screens list products under it (contract/rules/product.ts). */
  group: string;
  shortName: string;
  /** Market share in percent (0..100), as the checkboxes show it. */
  marketShare: number;
  /** Whether this is the dataset's reference insurer (manifest `reference_insurer`). */
  isReference: boolean;
}

/**
 * Sort orders of the comparison screens, docs/screens.md (Live comparison). Always descending, nulls last; ties by
 * service_code, then the unit: billing_class, component, setting (contract/rules/metrics.ts compareUnits).
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
   * unit, else 0 (docs/methodology.md, Per comparison unit, `claims_volume(s)`; contract/rules/metrics.ts claimsByUnit).
   */
  claims_volume: number;
  /** overpayment x claims_volume when overpayment > 0, else 0; USD. */
  potential_savings: number;
  /**
   * Alias of reference_price, under the name the product specification gives the live dashboard's
   * field (docs/screens.md, Entities); the app's own screens read reference_price.
   */
  anthem_price: number | null;
  /** Alias of reference_variance, likewise (docs/screens.md, Entities). */
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
 * `GET /api/service-pricing` with the same `shared_providers` by contract/rules/dashboard-figures.ts, so
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

/** A unit that enters the dashboard figures: it has a variance and is not thin. */
export type CountedRecord = LiveServicePricingRecord & { reference_variance: number };

/** The three KPI cards (docs/methodology.md, Dashboard figures). */
export interface DashboardKpis {
  /** Claims-weighted mean of reference_variance over the counted units, percent; null when there is none. */
  averageOverpayment: number | null;
  /** The counted unit with the largest variance (ties: code, then unit order), or null. */
  top: CountedRecord | null;
  /** Share of the counted units whose variance is above 0, percent; null when there is none. */
  claimsAboveMarket: number | null;
  /** Counted units (with a variance, not thin). */
  withVariance: number;
  /** Units with a variance left out because they are thin. */
  thinLeftOut: number;
}
