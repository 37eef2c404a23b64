/**
 * The catalog: the converter's input (docs/converter.md, The catalog). Paths are relative to the catalog file;
 * `url`, `table_of_contents`, and the CSV paths also take http(s) URLs.
 */
import type { ValidationSettings } from './dataset';

/** One file of an insurer: an in-network-rates file or a table of contents. */
export interface CatalogFile {
  /** `YYYY-MM`; default: the month of the file's `last_updated_on`. */
  snapshot?: string;
  url?: string;
  table_of_contents?: string;
}

export interface CatalogInsurer {
  id: string;
  name: string;
  short_name?: string;
  /** 0..1 */
  market_share?: number;
  member_count?: number;
  regions?: string[];
  files: CatalogFile[];
}

export interface CatalogFilters {
  /** Path of a text file, one billing code per line, or an inline list. */
  billing_codes?: string | string[];
  states?: string[];
}

export interface Catalog {
  reference_insurer: string;
  insurers: CatalogInsurer[];
  npi_registry?: string;
  claims_volume?: string;
  services?: string;
  filters?: CatalogFilters;
  /** Validation settings (docs/methodology.md, Validation); each key optional, defaults in contract/dataset.ts DEFAULT_VALIDATION. */
  validation?: Partial<ValidationSettings>;
  /** Whether service names may come from the AMA's CPT descriptors in the CMS files (default true; docs/methodology.md, Names and categories). */
  cpt_descriptors?: boolean;
}
