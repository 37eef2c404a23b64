/**
 * The row-group indexes of manifest.json (docs/dataset.md): what a table's entry records of its
 * row groups so that the worker reads only those a request needs, since parquet-wasm exposes no
 * column statistics (docs/architecture.md). contract/files/dataset.ts re-exports them with the manifest.
 */
import type { StatsScope } from './dataset';

/** Row-group index entry of a table sorted by billing code (docs/architecture.md). */
export interface RowGroupIndexEntry {
  /** Index into the table's `files`. */
  file: number;
  /** Row group number inside that Parquet file (0-based). */
  row_group: number;
  rows: number;
  /** Smallest and largest `billing_code` in the row group (string order). */
  min_billing_code: string;
  max_billing_code: string;
}

/** Row-group index entry of `provider_groups`: its rows and the sources they belong to. */
export interface SourceIndexEntry {
  /** Row group number inside the table's one file (0-based). */
  row_group: number;
  rows: number;
  /** The `source_id`s of its rows (indices into the manifest's `sources`), in file order. */
  source_ids: number[];
}

/**
 * One run of `price_stats` rows in file order: a period (a `shared` row's `month`, a `market` row's
 * `snapshot`), a scope, and national (`state` 'ALL') or per-state rows. The file is sorted by
 * (period, scope, national first, state), so each run is contiguous, and so is each state's part
 * of a per-state run.
 */
export interface StatsPart {
  period: string;
  scope: StatsScope;
  national: boolean;
  /**
   * Per-state runs: the first and the last `state` of the run's rows in this row group, in byte
   * order (the file's). Absent on national runs, and in datasets written before it (the run may then
   * hold any state).
   */
  states?: [string, string];
}

/**
 * Row-group index entry of `price_stats`: the runs (StatsPart) its rows belong to, so that the
 * worker reads only the row groups of the months, scope and states a request asks for
 * (docs/architecture.md, Statistics by month).
 */
export interface PeriodIndexEntry {
  /** Row group number inside the table's one file (0-based). */
  row_group: number;
  rows: number;
  parts: StatsPart[];
}

/** One insurer snapshot that has `market` rows in `price_stats`. */
export interface StatsSnapshot {
  insurer_id: string;
  snapshot: string;
}
