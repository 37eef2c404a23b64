/**
 * The Compete dataset: what the converter (scripts/convert) writes and the worker (workers/) reads.
 *
 * A dataset is a directory holding `manifest.json` plus the Parquet files named by
 * `manifest.tables`. Public contract: docs/dataset.md. Every column below is documented in
 * the data dictionary of docs/dataset.md; change both together.
 *
 * Tables (all Parquet, written by DuckDB's native client, read in the browser by parquet-wasm):
 * - `rates`: one row per negotiated price as published, with the ids of the provider groups it
 *   applies to as a list (`provider_group_ids`); its rate rows (docs/methodology.md, Rows that count) are
 *   that list unnested, one per group (contract/sql/rate-rows-sql.ts rateRowsSql). Sorted by billing_code so the worker can read
 *   only the row groups of one code (manifest row-group index). Never multiplied by NPIs
 *   (docs/architecture.md).
 * - `provider_groups`: one row per (provider group, provider) where provider is an NPI or `TIN:<tin>`.
 * - `providers`: one row per provider id seen in a group, enriched from the NPI registry.
 * - `services`: one row per billing code of type CPT/HCPCS seen in the rates (name, category).
 * - `claims_volume`: the reference insurer's claim counts per billing class, national (`state = 'ALL'`) and per state.
 * - `price_stats`: pre-computed medians of valid rates (docs/methodology.md, Per comparison unit) per
 *   snapshot x insurer x comparison unit (billing code, billing class, component, setting) x state
 *   (`'ALL'` = national), with their support, over every provider (`scope` 'market') and at shared
 *   providers per month (`scope` 'shared'); the dashboards answer from it alone.
 * - `billing_providers`: the providers with a claim of each code in the reference insurer's claims
 *   (docs/methodology.md, Where we bill it); empty when the claims name no providers.
 * - `medicare_benchmarks`: the national Medicare amount of every comparison unit of the dataset's
 *   codes that has one, with its PFS relative values (docs/methodology.md, Medicare benchmark).
 *
 * Derived tables (DERIVED_TABLE_NAMES), computed from the tables above by the worker's own code and
 * listed in `manifest.tables` when the converter wrote them; the worker reads them instead of
 * computing them, and computes them when a manifest does not list them:
 * - `alerts`: the alert list (contract/files/alerts-table.ts).
 * - `unit_pivot`: the unit pivot of the screens' default selection, the latest month over every
 *   state and every provider (workers/pricing/selection-tables.ts), one row per comparison unit in the
 *   order the worker builds it (converter 0.16.0 on).
 */

import type { PeriodIndexEntry, RowGroupIndexEntry, SourceIndexEntry, StatsSnapshot } from './dataset-index';
import { PRICE_COLUMNS, type PriceColumnName } from './price-columns';
import type { StatsScope } from './price-scope';

/** `manifest.format`, fixed. */
export const DATASET_FORMAT = 'compete-dataset' as const;
/**
 * `manifest.format_version`; bump on an incompatible change of tables or columns. Version 2:
 * `price_stats` per comparison unit (docs/methodology.md, Per comparison unit) instead of per billing-class
 * selection, with the Medicare benchmark and validation columns. Version 3: `price_stats` rows at
 * shared providers (`scope`, `month`). Version 4: `billing_providers`, and `price_stats` rows where we
 * bill it (`scope` 'billed' and 'shared_billed'). Version 5: each price's distribution in
 * `price_stats` (`p10` .. `p90`, `derived`) and the unit pivot's columns of it. Version 6: the market
 * band of every competitor in `price_stats` (`scope` 'market_band').
 */
export const DATASET_FORMAT_VERSION = 6 as const;

// the scopes of price_stats and the screens' options they stand for (contract/files/price-scope.ts)
export { BILLED_SCOPE, BILLED_UNAVAILABLE, isMonthScope, MARKET_BAND_SCOPE, MARKET_SCOPE, priceScope, scopeOptions, SHARED_BILLED_SCOPE, SHARED_SCOPE } from './price-scope';
export type { PriceScope, StatsScope } from './price-scope';

/** The state value that stands for the whole market in `price_stats` and `claims_volume`. */
export const ALL_STATES = 'ALL' as const;

/** `billing_class` values of a comparison unit (docs/methodology.md, Per comparison unit), as published, lower case. */
export const UNIT_BILLING_CLASSES = ['professional', 'institutional', 'both'] as const;
export type UnitBillingClass = (typeof UNIT_BILLING_CLASSES)[number];

/** Validation reasons of a dollar rate of a service, in the order they are checked (docs/methodology.md, Validation). */
export const VALIDATION_REASONS = ['source_not_dollars', 'below_benchmark', 'above_benchmark', 'outlier'] as const;
export type ValidationReason = (typeof VALIDATION_REASONS)[number];

/** Names of the dataset's tables, each a key of `manifest.tables`. */
export const TABLE_NAMES = [
  'rates',
  'provider_groups',
  'providers',
  'services',
  'claims_volume',
  'price_stats',
  'medicare_benchmarks',
  'billing_providers',
] as const;
export type TableName = (typeof TABLE_NAMES)[number];

/**
 * Names of the derived tables: optional keys of `manifest.tables` (`alerts` is absent in datasets of
 * converters before 0.14.0, `unit_pivot` before 0.16.0). `alerts` loads when an endpoint first
 * needs it; `unit_pivot` loads at boot, after the first tables.
 */
export const DERIVED_TABLE_NAMES = ['alerts', 'unit_pivot'] as const;

/** The file of the derived table `unit_pivot`. */
export const UNIT_PIVOT_FILE = 'unit_pivot.parquet';
export type DerivedTableName = (typeof DERIVED_TABLE_NAMES)[number];

// the row-group indexes a table's manifest entry carries (contract/files/dataset-index.ts)
export type { PeriodIndexEntry, RowGroupIndexEntry, SourceIndexEntry, StatsPart, StatsSnapshot } from './dataset-index';

/** One table of the manifest: its files (relative to the dataset dir) and their checksums. */
export interface ManifestTable {
  files: string[];
  rows: number;
  /** Size of each file, in bytes. */
  bytes: number[];
  /** SHA-256 of each file, lower-case hex. */
  sha256: string[];
  /** Only on `rates`: the billing-code range of every row group. */
  row_groups?: RowGroupIndexEntry[];
  /** Only on `price_stats` (one file): the periods of every row group. */
  period_index?: PeriodIndexEntry[];
  /**
   * Only on `provider_groups` (one file, sorted by its sources' snapshot, then `source_id`): the
   * sources of every row group, so that the worker reads the groups of the sources a request reads
   * only (docs/architecture.md, Provider groups by source). Absent in an older converter's dataset: the table then loads whole at boot.
   */
  source_index?: SourceIndexEntry[];
  /**
   * Only on `price_stats`: its distinct (insurer, snapshot) pairs of `market` rows, ascending, from
   * which a month's snapshots are chosen (docs/methodology.md, Rows that count) before any row loads.
   */
  stats_snapshots?: StatsSnapshot[];
}

/** An insurer as configured in the catalog (docs/converter.md, The catalog). */
export interface ManifestInsurer {
  id: string;
  /** The product's name (docs/converter.md, Products): one `insurers[]` entry of the catalog. */
  name: string;
  /** The company whose product it is (the catalog's `group`, else `name`); datasets before 0.18 lack it: read it as `name`. */
  group: string;
  short_name: string;
  /** Share of the market, 0..1. */
  market_share: number;
  member_count: number;
  regions: string[];
}

/** A product's valid rate rows of one snapshot, and how many are at billing providers (Data Coverage). */
export interface BillingCoverage {
  insurer_id: string;
  snapshot: string;
  /** Distinct valid rate rows of services, one per provider (price_stats' national `market` rate_count summed). */
  valid_rate_rows: number;
  /** Those at billing providers of their code (the `billed` scope's rate_count summed). */
  billed_rate_rows: number;
}

/** One converted in-network file (docs/dataset.md, manifest `sources`). Its index is `rates.source_id`. */
export interface ManifestSource {
  insurer_id: string;
  snapshot: string;
  /**
   * Where the file came from, as the catalog or table of contents named it; `<url>#<entry name>`
   * for one JSON entry of a zip or 7z archive that bundles several (scripts/convert/ingest/open-sources.ts).
   */
  url: string;
  /** The table of contents that led to it, when any. */
  table_of_contents?: string;
  reporting_entity_name: string;
  reporting_entity_type?: string;
  last_updated_on: string;
  /** The schema version the file claims (CMS `version`), '' when absent. */
  version: string;
  /** Size of the file as read (compressed, if it was; the whole archive for a zip or 7z entry), in bytes. */
  bytes: number;
  /** SHA-256 of those bytes, lower-case hex. */
  sha256: string;
  rate_rows: number;
  unresolved_rate_rows: number;
  provider_groups: number;
  problems: number;
  /**
   * Its dollar rates of services that failed validation, by reason (docs/methodology.md, Validation), in
   * rate rows like `rate_rows`; a reason no rate failed is 0.
   */
  validation: Record<ValidationReason, number>;
  /**
   * Median % of Medicare (100 x negotiated_rate / medicare_rate) over its valid dollar rates of
   * services that have a benchmark, one per distinct price (code, class, component, setting,
   * rate); null when none has a benchmark.
   */
  median_medicare_pct: number | null;
  /**
   * Remote provider references (`location`) of this file that stayed unresolved: named by a rate
   * and not fetchable (HTTP error, time-out, not a provider-reference file), or, when remote
   * fetching is off, every remote reference the file declares. Absent in datasets of converter 0.1.
   */
  unresolved_provider_references?: number;
  /**
   * Whether this run took the source from the partition an earlier run ingested (its file
   * unchanged: same ETag, Last-Modified and size, or SHA-256) rather than reading it
   * (docs/converter.md, Two stages). Absent in datasets of converters before 0.10.
   */
  reused?: boolean;
}

/** A plan of a table of contents (CMS `reporting_plans[]`; docs/dataset.md); enums lower-cased. */
export interface ManifestReportingPlan {
  plan_name: string;
  /** `ein` or `hios` (lower-cased as v2.1 writes them). */
  plan_id_type: string;
  plan_id: string;
  /** `group` or `individual`. */
  plan_market_type: string;
  issuer_name?: string;
  plan_sponsor_name?: string;
}

/** One `reporting_structure[]` of a table of contents the catalog names: its plans and what became of its files. */
export interface ManifestReportingStructure {
  insurer_id: string;
  /** The catalog's snapshot for the table, when given. */
  snapshot?: string;
  /** The table of contents, as the catalog named it. */
  table_of_contents: string;
  reporting_entity_name: string;
  /** The first 1000 plans of the structure. */
  reporting_plans: ManifestReportingPlan[];
  /** Plans the structure lists (may exceed reporting_plans.length). */
  plan_count: number;
  /** In-network files the structure lists. */
  in_network_files: number;
  /** Indices into `sources` of its files that were converted (the others are in report.json failed_files). */
  source_ids: number[];
}

/** Totals over the whole dataset. */
export interface ManifestCounts {
  rate_rows: number;
  unresolved_rate_rows: number;
  provider_groups: number;
  providers: number;
  services: number;
  problems: number;
  /** Remote provider references that could not be fetched. */
  unresolved_provider_references: number;
}

/** The validation settings a conversion used (docs/methodology.md, Validation; the catalog's `validation`). */
export interface ValidationSettings {
  /** A rate under min_ratio x Medicare fails `below_benchmark` (default 0.3). */
  min_ratio: number;
  /** A rate over max_ratio x Medicare fails `above_benchmark` (default 30). */
  max_ratio: number;
  /** A source whose median ratio to Medicare is under it fails `source_not_dollars` (default 0.1). */
  source_min_ratio: number;
  /** A rate without benchmark more than this many times off its code's median is an `outlier` (default 10). */
  outlier_factor: number;
  /** Fewest providers behind a price for a unit not to be thin (default 2). */
  min_providers: number;
}

/** The defaults of docs/methodology.md, Validation. */
export const DEFAULT_VALIDATION: Readonly<ValidationSettings> = {
  min_ratio: 0.3,
  max_ratio: 30,
  source_min_ratio: 0.1,
  outlier_factor: 10,
  min_providers: 2,
};

/** The CMS reference data a conversion read (the repository's reference-data/, docs/methodology.md, Medicare benchmark). */
export interface ManifestMedicare {
  /** The fee schedules' year (from the PFS file). */
  year: number;
  /** PFS conversion factor, USD per RVU. */
  conversion_factor: number;
  /** The files read: name, size in bytes, SHA-256. */
  files: Array<{ name: string; bytes: number; sha256: string }>;
  /** Copyright notices the files carry (the AMA's for CPT descriptors), quoted. */
  notices: string[];
  /** Whether service names may come from CPT descriptors (catalog `cpt_descriptors`). */
  cpt_descriptors: boolean;
}

/**
 * The headline Average Overpayment (percent) with validation off: latest month, national, all
 * competitors, all units, every dollar rate counted, no thin rule (docs/methodology.md, Validation); beside
 * it the validated figure under the same terms (thin units left out), for the Data Coverage screen.
 */
export interface ManifestHeadline {
  snapshot: string;
  avg_overpayment_unvalidated: number | null;
  avg_overpayment_validated: number | null;
}

/** `manifest.json` (docs/dataset.md). */
export interface DatasetManifest {
  format: typeof DATASET_FORMAT;
  format_version: typeof DATASET_FORMAT_VERSION;
  /** ISO 8601 UTC timestamp. */
  created_at: string;
  converter_version: string;
  catalog_sha256: string;
  reference_insurer: string;
  /** Snapshot months present, `YYYY-MM`, ascending. */
  snapshots: string[];
  insurers: ManifestInsurer[];
  /** The tables of TABLE_NAMES, and the derived tables (DERIVED_TABLE_NAMES) that were written. */
  tables: Record<TableName, ManifestTable> & Partial<Record<DerivedTableName, ManifestTable>>;
  sources: ManifestSource[];
  counts: ManifestCounts;
  /** Whether claims_volume carried a per-state column. */
  claims_by_state: boolean;
  /** Whether the claims name providers (`npi`/`tin` on a row with a claim): only then do `billing_providers` and the billed scopes hold rows. */
  claims_by_provider: boolean;
  /** Per product and snapshot, its valid rate rows and those at billing providers (only when claims_by_provider). */
  billing_coverage: BillingCoverage[];
  /** The reporting structures of every table of contents converted (absent when none). */
  reporting_structures?: ManifestReportingStructure[];
  /** The validation settings used. */
  validation: ValidationSettings;
  medicare: ManifestMedicare;
  headline: ManifestHeadline;
}

/**
 * The price columns of `rates` (contract/files/price-columns.ts), each followed by the columns of the item
 * or the groups that follow it in the file (`ratesNext`: `provider_group_ids`, `negotiation_arrangement`).
 */
const RATES_PRICE_PART = PRICE_COLUMNS.flatMap((c) => [c.name, ...c.ratesNext]) as
  ReadonlyArray<PriceColumnName | (typeof PRICE_COLUMNS)[number]['ratesNext'][number]>;

/** Column lists, in file order; the data dictionary of docs/dataset.md documents each. */
export const COLUMNS = {
  rates: [
    'billing_code',
    'billing_code_type',
    'snapshot',
    'insurer_id',
    'source_id',
    ...RATES_PRICE_PART,
    'medicare_rate',
    'validation',
  ],
  provider_groups: [
    'provider_group_key',
    'source_id',
    'provider_group_id',
    'provider_id',
    'npi',
    'tin_type',
    'tin_value',
  ],
  providers: ['provider_id', 'npi', 'name', 'entity_type', 'state', 'postal_code', 'taxonomy_code', 'medicare_locality', 'gpci_work', 'gpci_pe', 'gpci_mp'],
  services: ['billing_code', 'billing_code_type', 'name', 'category', 'description', 'keywords', 'published_name'],
  claims_volume: ['billing_code', 'state', 'billing_class', 'claims_count'],
  price_stats: ['snapshot', 'insurer_id', 'billing_code', 'billing_class', 'component', 'setting', 'state', 'median_rate', 'rate_count',
    'provider_count', 'medicare_rate', 'scope', 'month', 'p10', 'p25', 'p75', 'p90', 'derived'],
  medicare_benchmarks: ['billing_code', 'billing_class', 'component', 'setting', 'medicare_rate', 'source', 'work_rvu', 'pe_rvu', 'mp_rvu'],
  billing_providers: ['billing_code', 'billing_class', 'provider_id'],
} as const satisfies Record<TableName, readonly string[]>;

/**
 * A row of `price_stats`, as the worker reads it: one insurer's price of one comparison unit in one
 * state, or (scope MARKET_BAND_SCOPE) the pooled provider medians of every competitor, whose
 * `snapshot`, `insurer_id` and `rate_count` are null.
 */
export interface PriceStatRow {
  snapshot: string | null;
  insurer_id: string | null;
  billing_code: string;
  billing_class: UnitBillingClass;
  /** `global`, `26` or `TC` (contract/rules/medicare.ts componentOf). */
  component: string;
  /** `facility` or `non-facility` (contract/rules/medicare.ts settingOf). */
  setting: string;
  state: string;
  /** Median negotiated_rate in USD over distinct valid rate rows (docs/methodology.md, Per comparison unit). */
  median_rate: number;
  rate_count: number | null;
  /** Distinct providers behind the median: its support. */
  provider_count: number;
  /** The unit's national Medicare amount, USD; null without a benchmark. */
  medicare_rate: number | null;
  /**
   * MARKET_SCOPE: every provider; SHARED_SCOPE: at shared providers, matched in `month`; BILLED_SCOPE,
   * SHARED_BILLED_SCOPE: the same at billing providers; MARKET_BAND_SCOPE: every competitor pooled in `month`.
   */
  scope: StatsScope;
  /** For rows of a month scope (isMonthScope), the month M (`YYYY-MM`) whose snapshots were matched; null otherwise. */
  month: string | null;
  /** p10 .. p90 of the provider medians, USD, and whether a row is `derived` (docs/methodology.md, Confidence and distribution). */
  p10: number | null;
  p25: number | null;
  p75: number | null;
  p90: number | null;
  derived: boolean | null;
}
