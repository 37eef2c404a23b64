/**
 * The shapes series-medians.ts and shared-providers.ts work on: the provider membership of the
 * groups, a series' rows in blocks, the filter of the providers "at shared providers" (docs/methodology.md,
 * Per comparison unit) and the callback of a median.
 */

/**
 * The providers selection 2 counts (series-medians.ts): the providers of several groups (Membership
 * pids) p with `stamp[p] === id`; `only`: the call computes selection 2 alone (a series matched
 * again in another month).
 */
export interface SharedFilter {
  stamp: Int32Array;
  id: number;
  only: boolean;
}

/**
 * Who a provider group stands for, by `gid` (build-tables.ts resolved_groups), as compressed rows:
 * - its single providers (in no other group) per state: entries weightStart[gid] ..
 *   weightStart[gid + 1] of (weightSt, weightN), st 0 counting all of them (ps_weights);
 * - its providers found in several groups (the `shared*` fields and `pid`s; only they can be at
 *   "shared providers" of two insurers): entries sharedStart[gid] .. sharedStart[gid + 1] of
 *   (sharedPid, sharedSt), sharedSt 0 for a provider without a state (ps_shared_members).
 */
export interface Membership {
  weightStart: Int32Array;
  weightSt: Int32Array;
  weightN: Float64Array;
  sharedStart: Int32Array;
  sharedPid: Int32Array;
  sharedSt: Int32Array;
  /** States including 0 (the whole market): st < stateCount. */
  stateCount: number;
  /** Providers of several groups: pid < pidCount. */
  pidCount: number;
}

/** Selections: 0 the valid rates (docs/methodology.md, Validation), 1 every dollar rate (the headline with validation off), 2 valid rates at a filter's providers. */
export const SELECTION_COUNT = 3;

/** The selection of the valid rates at the providers of a SharedFilter. */
export const SHARED_SELECTION = 2;

/** The selection of every dollar rate, validation off: the only one a row of flag 1 enters. */
export const EVERY_RATE_SELECTION = 1;

/** Rows per block of SeriesRows: a series grows by blocks, never by copying what it holds. */
export const SERIES_BLOCK_ROWS = 1 << 16;

/**
 * One series' group rows, sorted by v, then gid, then vid (identical rows adjacent), in blocks of
 * SERIES_BLOCK_ROWS rows (row r at block r / SERIES_BLOCK_ROWS): 16 bytes a row, so that the 3M
 * rows of one billing code of the benchmark's 200 MB item take 48 MB, not twice that in a doubling
 * array and its copy.
 */
export interface SeriesRows {
  /** Provider group (resolved_groups.gid). */
  gid: Int32Array[];
  /** The row's (billing_class, negotiated_type, service_codes, modifiers), as a dense integer. */
  vid: Int32Array[];
  /** negotiated_rate, USD. */
  v: Float64Array[];
  /** Rows used. */
  n: number;
  /** The validation flag, 0 valid or 1 failed (series-medians.ts SELECTION_MASKS), of each vid: a vid includes it. */
  clsOfVid: Uint8Array;
  /** 1 when the vid's negotiated_type is `derived` (an insurer's estimate: docs/methodology.md, Confidence and distribution), else 0. */
  derivedOfVid: Uint8Array;
  /** Every vid is below it. */
  vids: number;
}

/**
 * Called once per (selection, state) with dollar rows: median USD, rows, providers; for the
 * selections of valid rows (0 and 2) also p10, p25, p75, p90 USD of the provider medians and
 * whether a `derived` row is among them (series-distribution.ts); NaN and false for selection 1.
 */
export type EmitStat = (cs: number, st: number, median: number, rateCount: number, providerCount: number,
  p10: number, p25: number, p75: number, p90: number, derived: boolean) => void;

