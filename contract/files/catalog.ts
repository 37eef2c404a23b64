/**
 * The catalog: the converter's input (docs/converter.md, The catalog). Paths are relative to the catalog file;
 * `url`, `table_of_contents`, and the CSV paths also take http(s) URLs.
 */
import type { ValidationSettings } from './dataset';

/**
 * One file of an insurer: an in-network-rates file or a table of contents. `plans` and
 * `file_name` replace the catalog's `filters.plans` and `filters.file_name` for this entry alone,
 * so that one table of contents feeds several products (docs/converter.md, Products).
 */
export interface CatalogFile {
  /** `YYYY-MM`; default: the month of the file's `last_updated_on`. */
  snapshot?: string;
  url?: string;
  table_of_contents?: string;
  /** This entry's plan filter, in place of `filters.plans`. */
  plans?: CatalogPlanFilter;
  /** This entry's file-name pattern, in place of `filters.file_name`. */
  file_name?: string;
  /**
   * Case-insensitive RE2 pattern: only the provider references whose `network_name` (schema 2.0)
   * has a name it matches are kept, with the rate rows that name them; the others are filtered
   * out, not unresolved. A file without network names keeps every reference (the run warns once
   * per file).
   */
  network_name?: string;
}

/** One product of an insurer (docs/converter.md, Products): what the metrics call an insurer. */
export interface CatalogInsurer {
  id: string;
  name: string;
  /** The company's display name, shared by its products (`UnitedHealthcare`); default: `name`. */
  group?: string;
  short_name?: string;
  /** 0..1 */
  market_share?: number;
  member_count?: number;
  regions?: string[];
  files: CatalogFile[];
}

/**
 * Which plans of a table of contents a run is for (CMS table-of-contents schema,
 * `reporting_plans[]`): a plan matches when it meets every criterion given (within a list, any
 * value). A reporting structure is followed when one of its plans matches; its in-network files
 * are read once however many structures list them.
 */
export interface CatalogPlanFilter {
  /** Case-insensitive RE2 pattern (docs/converter.md, The catalog) searched in `plan_name`, e.g. `"\\bPPO\\b"`. */
  plan_name?: string;
  /** `plan_id` values (HIOS, EIN or other), compared as written, trimmed. */
  plan_id?: string[];
  /** `plan_market_type`. */
  plan_market_type?: 'group' | 'individual';
  /** Employer identification numbers (`12-3456789` or `123456789`): plans with `plan_id_type` EIN and that `plan_id`. */
  ein?: string[];
}

export interface CatalogFilters {
  /** Path of a text file, one billing code per line, or an inline list. */
  billing_codes?: string | string[];
  states?: string[];
  /** Follow only the reporting structures of a table of contents that serve these plans. */
  plans?: CatalogPlanFilter;
  /**
   * Case-insensitive RE2 pattern searched in each in-network file's name (the last path
   * segment of its location, without the query), e.g. `"_PPO_"`: files named directly and files
   * listed by a table of contents alike.
   */
  file_name?: string;
}

export interface Catalog {
  reference_insurer: string;
  insurers: CatalogInsurer[];
  npi_registry?: string;
  claims_volume?: string;
  services?: string;
  filters?: CatalogFilters;
  /** Validation settings (docs/methodology.md, Validation); each key optional, defaults in contract/files/dataset.ts DEFAULT_VALIDATION. */
  validation?: Partial<ValidationSettings>;
  /** Whether service names may come from the AMA's CPT descriptors in the CMS files (default true; docs/methodology.md, Names and categories). */
  cpt_descriptors?: boolean;
}
