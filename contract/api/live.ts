/**
 * Records of the /api answers added for the live screens' traceability: the rate rows
 * behind one median (`GET /api/rate-rows`), the data coverage page (`GET /api/coverage`) and the
 * provider search of the comparison screen (`GET /api/providers`). contract/api/index.ts maps the routes.
 * Money in USD; `null` = no value.
 */
import type { Confidence } from '../rules/confidence';
import type { BillingClassFilter } from './pricing';
import type { MedicareBasis } from './records';
import type { ManifestCounts, ManifestHeadline, ManifestMedicare, ManifestSource, UnitBillingClass, ValidationReason, ValidationSettings } from '../files/dataset';
import type { Component, UnitSetting } from '../rules/medicare';
import type { RateRowPriceFields } from '../files/price-columns';

/**
 * Query of `GET /api/rate-rows`: the selection one median was computed over. A price of the live
 * service pricing record is one comparison unit's: pass its `billing_class`, `component` and
 * `setting` (all three) to get exactly the rows behind it.
 */
export interface RateRowsParams {
  /** The billing code. */
  service_id: string;
  insurer_id: string;
  /**
   * Without `component`/`setting`: a billing-class filter, default `all` (the Professional chip
   * `professional` passes professional and `both` rows, `institutional` institutional and `both`).
   * With them: the unit's class, matched exactly (`professional`, `institutional` or `both`).
   */
  billing_class?: BillingClassFilter | 'both';
  /** The unit's component (`global`, `26`, `TC`); given together with `setting` and a unit `billing_class`. */
  component?: Component;
  /** The unit's setting (`facility`, `non-facility`); given together with `component` and a unit `billing_class`. */
  setting?: UnitSetting;
  /** Two-letter state of the providers; absent = the whole market. */
  state?: string;
  /** Month M `YYYY-MM`: the insurer contributes its latest snapshot <= M; absent = the latest. */
  snapshot?: string;
  /** Provider ids (NPI or `TIN:<tin>`), comma-separated on the wire: only these providers' rows. */
  providers?: string[];
  /**
   * `1`/`true`: only the rows at shared providers (docs/methodology.md, Per comparison unit, At shared
   * providers), the rows behind a price the screens show with that option: for the reference
   * insurer, at providers where any other insurer of the dataset has a valid dollar row of the same
   * code and unit; for another insurer, where the reference insurer has one. Absent = every provider.
   */
  shared_providers?: boolean;
  /**
   * `1`/`true`: only the rows at billing providers of the code (docs/methodology.md, Where we bill
   * it); with `shared_providers`, the shared rows among them. Absent = every provider.
   */
  billed?: boolean;
}

/**
 * One distinct dollar rate row of the selection (docs/methodology.md, Rows that count: identical rows
 * once): a valid one enters the median; one that failed validation is listed with its reason and
 * enters nothing (docs/methodology.md, Validation). Its price fields (the rate in USD, code lists
 * comma-separated, '' when none) are those of contract/files/price-columns.ts with an `api` field.
 */
export interface RateRowRecord extends RateRowPriceFields {
  /** NPI, or `TIN:<tin>`. */
  provider_id: string;
  provider_name: string;
  npi: string | null;
  provider_state: string | null;
  /** Indices into `RateRowsResult.sources` ids (`manifest.sources`) of every file publishing the row. */
  source_ids: number[];
  /** The row's comparison unit: component (`26`, `TC`, `global`) and setting. */
  component: Component;
  setting: UnitSetting;
  /**
   * '% of Medicare' at the provider's Medicare locality when it has GPCIs and the unit's benchmark
   * is a PFS amount, else at the national amount (docs/methodology.md, Medicare benchmark); null without benchmark.
   */
  medicare_pct: number | null;
  /** Which amount medicare_pct is of; null when medicare_pct is null. */
  medicare_basis: MedicareBasis | null;
  /** Validation reason (docs/methodology.md, Validation); null for a valid rate, which alone enters the median. */
  validation: ValidationReason | null;
}

/** An in-network file named by rate rows (manifest `sources`), with how many of the rows it holds. */
export interface RateRowSource {
  source_id: number;
  url: string;
  reporting_entity_name: string;
  last_updated_on: string;
  snapshot: string;
  /** Rows of `RateRowsResult.rows` this file publishes. */
  rows: number;
}

/** `GET /api/rate-rows` result. */
export interface RateRowsResult {
  service_code: string;
  service_name: string;
  insurer_id: string;
  insurer_name: string;
  /** Month M asked for. */
  month: string;
  /** The insurer's snapshot used at M; null when it has none at or before M. */
  snapshot: string | null;
  /** The billing-class filter, or the unit's class when `component` and `setting` are set. */
  billing_class: BillingClassFilter | UnitBillingClass;
  /** The unit's component and setting asked for; null when the rows are of a billing-class filter. */
  component: Component | null;
  setting: UnitSetting | null;
  /** The state, or null for the whole market. */
  state: string | null;
  /** Whether the rows are only those at shared providers (RateRowsParams.shared_providers). */
  shared_providers: boolean;
  /** Whether the rows are only those at billing providers (RateRowsParams.billed). */
  billed: boolean;
  /** Median of the valid rows' `negotiated_rate` (the midpoint of the two middle values when even); null when none. */
  median: number | null;
  /** Distinct valid dollar rate rows behind the median (rows with `validation` null). */
  rate_count: number;
  /** Distinct providers among the valid rows. */
  provider_count: number;
  /**
   * p10, p25, p75, p90 of the valid rows' provider medians, USD (docs/methodology.md, Confidence
   * and distribution: each provider once, by the median of its rates); null without a valid row.
   */
  p10: number | null;
  p25: number | null;
  p75: number | null;
  p90: number | null;
  /** Whether any valid row is `derived` (an insurer's estimate). */
  derived: boolean;
  /** The price's confidence (contract/rules/confidence.ts priceConfidence) and what lowered it; null without a valid row. */
  confidence: Confidence | null;
  confidence_reasons: string[];
  /** Rows that failed validation, listed in `rows` with their reason, outside the median. */
  failed_rows: number;
  rows: RateRowRecord[];
  sources: RateRowSource[];
  /** Rows of the same selection that are not dollar rates (percentage, per diem, rate <= 0): shown, never counted. */
  other_rows: number;
}

/** A provider search hit of `GET /api/providers` (the comparison screen's chips). */
export interface ProviderSearchItem {
  id: string;
  name: string;
  npi: string | null;
  state: string | null;
}

/** `GET /api/providers` result: one page of matches and their total. */
export interface ProviderSearchResult {
  items: ProviderSearchItem[];
  /** Providers matching `q` (all providers of the dataset without `q`). */
  total: number;
}

/** The counts of a file, and their sums over an insurer's snapshot, on the coverage page. */
export interface CoverageCounts {
  rate_rows: number;
  unresolved_rate_rows: number;
  provider_groups: number;
  problems: number;
  unresolved_provider_references: number;
}

/** One converted in-network file on the coverage page (manifest `sources`, report.json problems). */
export interface CoverageSource extends CoverageCounts {
  source_id: number;
  insurer_id: string;
  snapshot: string;
  url: string;
  table_of_contents: string | null;
  reporting_entity_name: string;
  last_updated_on: string;
  version: string;
  /** Bytes as read (compressed, if it was). */
  bytes: number;
  /** Its dollar rates that failed validation, by reason (manifest; docs/methodology.md, Validation). */
  validation: ManifestSource['validation'];
  /** Median % of Medicare of its valid rates (manifest); null when none has a benchmark. */
  median_medicare_pct: number | null;
  /** report.json problem counts of this file by code; {} when the report is not available. */
  problem_codes: Record<string, number>;
}

/** Per insurer and snapshot: the sums over its files. */
export interface CoverageGroup extends CoverageCounts {
  insurer_id: string;
  /** The product's name (docs/methodology.md, Products). */
  insurer_name: string;
  /** Its company (manifest `insurers[].group`). */
  insurer_group: string;
  snapshot: string;
  files: number;
  /** Sums of its files' validation counts, by reason. */
  validation: ManifestSource['validation'];
  /**
   * Its valid rate rows of services, one per provider, and those at billing providers
   * (docs/methodology.md, Products and Where we bill it; manifest `billing_coverage`); null when
   * the claims name no providers.
   */
  valid_rate_rows: number | null;
  billed_rate_rows: number | null;
}

/** `GET /api/coverage`: what the numbers rest on (manifest.json and report.json). */
export interface CoverageResult {
  created_at: string;
  converter_version: string;
  reference_insurer: string;
  snapshots: string[];
  counts: ManifestCounts;
  /** The validation settings the conversion used (manifest; docs/methodology.md, Validation). */
  validation: ValidationSettings;
  /** The CMS reference data read: year, conversion factor, files, notices (manifest). */
  medicare: ManifestMedicare;
  /** The headline Average Overpayment with validation off and on (manifest; docs/methodology.md, Validation). */
  headline: ManifestHeadline;
  /** Whether the claims input names providers: "Where we bill it" can be turned on (manifest `claims_by_provider`). */
  claims_by_provider: boolean;
  groups: CoverageGroup[];
  sources: CoverageSource[];
  report: {
    /** Whether report.json could be read; `reason` says why not. */
    available: boolean;
    reason: string | null;
    problems_total: number;
    /** Files listed by a table of contents that could not be read. */
    failed_files: Array<{ file: string; reason: string }>;
    warnings: string[];
    /** Problem counts of files that are not among `sources` (a failed file, the catalog), by code. */
    other_files: Array<{ file: string; codes: Record<string, number> }>;
  };
}

/**
 * Query of `GET /api/market-band`: the units of `services` as the live comparison prices them
 * (the same competitors, month, state, providers and options as its `GET /api/service-pricing`).
 */
export interface MarketBandParams {
  /** Billing codes (at most MARKET_BAND_MAX_SERVICES), comma-separated on the wire. */
  services: string[];
  /** Competitor ids; absent = every insurer but the reference. */
  competitors?: string[];
  /** Month M `YYYY-MM`; absent = the latest. */
  snapshot?: string;
  /** Two-letter state of the providers; absent = the whole market. */
  state?: string;
  /** Provider ids: only these providers' rows. */
  providers?: string[];
  shared_providers?: boolean;
  billed?: boolean;
}

/** The most codes one `GET /api/market-band` takes (a page of the comparison has at most 200 units). */
export const MARKET_BAND_MAX_SERVICES = 200;

/**
 * A unit's market band (docs/methodology.md, Confidence and distribution): p25 and p75 (USD) of the
 * provider medians of every selected competitor pooled, each provider once per competitor.
 */
export interface MarketBand {
  service_code: string;
  billing_class: UnitBillingClass;
  component: Component;
  setting: UnitSetting;
  p25: number;
  p75: number;
  /** The provider medians pooled. */
  providers: number;
}

/** `GET /api/market-band` result: one band per unit of the codes asked that a selected competitor prices. */
export interface MarketBandResult {
  snapshot: string;
  bands: MarketBand[];
}
