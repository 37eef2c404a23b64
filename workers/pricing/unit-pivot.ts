/**
 * The unit pivots of the comparison's selections (docs/architecture.md, "Selections in DuckDB"):
 * per (month M, scope, state) one DuckDB table with a row per comparison unit and every insurer's
 * median beside it, built on first use from the loaded `price_stats` rows and kept (the six last
 * used), or, for the default selection's month, read from the dataset's derived table
 * `unit_pivot` (adoptStoredPivot), which the converter stores (defaultPivotTable). The selections
 * over a pivot are selection-tables.ts's.
 */
import { ALL_STATES, MARKET_SCOPE, priceScope, scopeOptions, UNIT_PIVOT_FILE, type PriceScope } from '../../contract/files/dataset';
import { SERVICE_CODE_TYPES } from '../../contract/rules/metrics';
import { UNIT_ORDER_SQL, unitFiguresSql } from '../../contract/sql/unit-figures-sql';
import type { PlainValue } from '../db/database';
import { ensureClaimsTotals } from '../db/prepare-tables';
import { DatabaseError } from '../db/errors';
import type { StatsNeed } from '../db/stats';
import { joinSql, sql, SqlFragment } from '../db/sql';
import type { ApiContext } from '../context';
import { latestSnapshot, monthNeed, statsPrices } from './pricing-core';
import { assertStatsLoaded, chosenRows, type MonthOptions } from './stats-selection';

/** The pivot's columns per insurer i, each `<name>_<i>`. */
const PIVOT_INSURER_COLUMNS = ['price', 'providers', 'p10', 'p90', 'derived', 'conf'] as const;

/** Unit pivots kept per open dataset; the least recently used is dropped past this. */
const MAX_PIVOTS = 6;

export interface Pivot {
  name: string;
  /** Read from the dataset's derived table `unit_pivot` (adoptStoredPivot): never dropped, never built. */
  stored?: boolean;
  /** Every insurer of the dataset, ascending: column `price_<i>` is the (i-1)th's. */
  insurers: readonly string[];
  /** Whether some (code, class) has no unit priced by the reference on any provider (its claims depend on which units are listed). */
  openClaims: boolean;
}

/** Pivots of one context, least recently used first. */
const pivots = new WeakMap<ApiContext, Map<string, Pivot>>();
/**
 * The stored unit pivot offered at boot (offerStoredPivot) and not yet in the database: it goes in
 * on first use, so that requests which never read it (Live Search, a state's units) do not wait
 * for its insert.
 */
const offered = new WeakMap<ApiContext, Uint8Array>();
/** Table names are unique in the process: a context opened later on the same database never meets an older one's. */
let tableCount = 0;

/** Ascending by code unit, as DuckDB orders VARCHAR. */
export const ascending = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export const text = (t: string): SqlFragment => new SqlFragment(t, []);

/**
 * The unit pivot of (M, scope, state), built on first use from the loaded `price_stats` rows.
 * Columns: the unit and its ranks, `unit_order` (its place in UNIT_ORDER_SQL, which every sum and
 * sort of a selection follows), `category`, `medicare_rate`, the code's
 * `claims_professional`/`claims_institutional`, `price_<i>`/`providers_<i>` per insurer with
 * `p10_<i>`, `p90_<i>`, `derived_<i>` and the confidence rank `conf_<i>` of that price
 * (docs/methodology.md, Confidence and distribution; contract/sql/confidence-sql.ts),
 * `reference_price`, `reference_providers`, `reference_support`, `claims_class`, `claims_volume`
 * (unitFiguresSql's, with every unit of the pivot listed) and `claims_open` (that claims_volume
 * holds only when the units listed are those of the pivot: the unit's (code, claims class) has no
 * reference price resting on a provider, so its main unit is the first one listed).
 * @throws Error when those rows are not loaded; DatabaseError
 */
export function pivotOf(ctx: ApiContext, month: string, state: string, scope: PriceScope): Pivot {
  let kept = pivots.get(ctx);
  if (!kept) pivots.set(ctx, (kept = new Map()));
  const key = pivotKey(month, state, scope);
  const stored = offeredAs(ctx, key);
  if (stored) {
    adoptStoredPivot(ctx, stored);
    offered.delete(ctx);
  }
  const hit = touch(kept, key);
  if (hit) return hit;
  const options = scopeOptions(scope);
  assertStatsLoaded(ctx, { state, ...options }, [month]);
  const insurers = ctx.manifest.insurers.map((i) => i.id).sort(ascending);
  const reference = insurers.indexOf(ctx.manifest.reference_insurer) + 1;
  if (reference === 0) throw new Error(`the reference insurer ${ctx.manifest.reference_insurer} is not among the dataset's insurers`);
  const name = `unit_pivot_${++tableCount}`;
  const columns = joinSql(
    insurers.map(
      (id, i) => sql`(max(p.price) FILTER (WHERE p.insurer_id = ${id})) AS ${text(`price_${i + 1}`)},
        (max(p.provider_count) FILTER (WHERE p.insurer_id = ${id})) AS ${text(`providers_${i + 1}`)},
        (max(p.p10) FILTER (WHERE p.insurer_id = ${id})) AS ${text(`p10_${i + 1}`)},
        (max(p.p90) FILTER (WHERE p.insurer_id = ${id})) AS ${text(`p90_${i + 1}`)},
        (bool_or(p.derived) FILTER (WHERE p.insurer_id = ${id})) AS ${text(`derived_${i + 1}`)},
        (min(p.conf) FILTER (WHERE p.insurer_id = ${id}))::INTEGER AS ${text(`conf_${i + 1}`)}`,
    ),
    ', ',
  );
  const claimsState = ctx.manifest.claims_by_state ? state : ALL_STATES;
  ensureClaimsTotals(ctx.db);
  ctx.db.all(sql`
    CREATE OR REPLACE TEMP TABLE ${text(name)} AS
    WITH chosen AS (${chosenRows(ctx, [month], insurers)}),
    prices AS (${statsPrices({ state, ...options })}),
    units AS (
      SELECT p.billing_code, p.billing_class, p.component, p.setting, ${columns}, max(p.medicare_rate) AS medicare_rate
      FROM prices p
      GROUP BY p.billing_code, p.billing_class, p.component, p.setting),
    unit_rows AS (
      SELECT ${month} AS month, ${state} AS state, u.*, s.category,
        ${text(`price_${reference}`)} AS reference_price, ${text(`providers_${reference}`)} AS reference_providers,
        NULL::DOUBLE AS market_average, NULL::INTEGER AS competitor_provider_total,
        coalesce(cl.professional, 0) AS claims_professional,
        coalesce(cl.institutional, 0) AS claims_institutional
      FROM units u
      JOIN services s ON s.billing_code = u.billing_code AND s.billing_code_type IN (${SERVICE_CODE_TYPES})
      LEFT JOIN claims_totals cl ON cl.billing_code = u.billing_code AND cl.state = ${claimsState}),
    figures AS (${text(unitFiguresSql('unit_rows', 0))})
    SELECT * EXCLUDE (market_average, competitor_provider_total, competitor_support, reference_variance, thin),
      claims_class IS NOT NULL AND max(reference_support) OVER (PARTITION BY billing_code, claims_class) = 0 AS claims_open,
      row_number() OVER (ORDER BY ${text(UNIT_ORDER_SQL)})::INTEGER AS unit_order
    FROM figures`);
  const [open] = ctx.db.all<{ n: number }>(sql`SELECT count(*)::INTEGER AS n FROM ${text(name)} WHERE claims_open`);
  const pivot = { name, insurers, openClaims: (open?.n ?? 0) > 0 };
  kept.set(key, pivot);
  dropPast(kept, MAX_PIVOTS, (old) => {
    dropSelectionTables(ctx, old.name);
    ctx.db.exec(text(`DROP TABLE IF EXISTS ${old.name}`));
  }, (old) => old.stored === true);
  return pivot;
}

/** The entry of `kept` under `key`, made the most recently used (a Map keeps the least recently used first), else undefined. */
function touch<V>(kept: Map<string, V>, key: string): V | undefined {
  const hit = kept.get(key);
  if (hit !== undefined) {
    kept.delete(key);
    kept.set(key, hit);
  }
  return hit;
}

/** Drops the least recently used entries of `kept` while it holds more than `max`, each by `drop`; a `pinned` one stays. */
function dropPast<V>(kept: Map<string, V>, max: number, drop: (old: V) => void, pinned: (old: V) => boolean = () => false): void {
  for (const [key, old] of kept) {
    if (kept.size <= max) break;
    if (pinned(old)) continue;
    kept.delete(key);
    drop(old);
  }
}

/**
 * Selection tables kept per open dataset (selectionTable); the least recently used is dropped past
 * this. A table holds one row per unit of a selection: at the real-file shape some megabytes.
 */
const MAX_SELECTION_TABLES = 4;

/** Per context, least recently used first: the selection's key -> its table and its pivot's table. */
const selectionTables = new WeakMap<ApiContext, Map<string, { name: string; pivot: string }>>();

/**
 * The name of the temporary table of selection `key` over `pivot`, made on first use from the
 * query `rows` (CREATE OR REPLACE, as the pivots are: the statement can be run again, as
 * bench/api.bench.ts replays a call's statements on native DuckDB) and kept while its pivot is (the
 * MAX_SELECTION_TABLES last used). A selection's summary and each of its pages then read its units
 * from one table instead of deriving them from the pivot again (selection-tables.ts).
 * @throws DatabaseError when the statement fails
 */
export function selectionTable(ctx: ApiContext, pivot: Pivot, key: string, rows: SqlFragment): string {
  let kept = selectionTables.get(ctx);
  if (!kept) selectionTables.set(ctx, (kept = new Map()));
  const fullKey = JSON.stringify([pivot.name, key]);
  const hit = touch(kept, fullKey);
  if (hit) return hit.name;
  const name = `selection_${++tableCount}`;
  ctx.db.all(sql`CREATE OR REPLACE TEMP TABLE ${text(name)} AS ${rows}`);
  kept.set(fullKey, { name, pivot: pivot.name });
  dropPast(kept, MAX_SELECTION_TABLES, (old) => ctx.db.exec(text(`DROP TABLE IF EXISTS ${old.name}`)));
  return name;
}

/** Drops the selection tables over pivot table `pivot`, or over every pivot when undefined. @throws DatabaseError */
function dropSelectionTables(ctx: ApiContext, pivot?: string): void {
  const kept = selectionTables.get(ctx);
  for (const [key, table] of kept ?? []) {
    if (pivot !== undefined && table.pivot !== pivot) continue;
    kept!.delete(key);
    ctx.db.exec(text(`DROP TABLE IF EXISTS ${table.name}`));
  }
}

const pivotKey = (month: string, state: string, scope: PriceScope): string => JSON.stringify([month, state, scope]);

/**
 * The stored pivot offered and not yet inserted, when `key` is its key (the latest month over every
 * state and every provider), else undefined.
 */
function offeredAs(ctx: ApiContext, key: string): Uint8Array | undefined {
  const stored = offered.get(ctx);
  return stored && key === pivotKey(latestSnapshot(ctx), ALL_STATES, MARKET_SCOPE) ? stored : undefined;
}

/**
 * Whether the unit pivot of (month, state, scope) is in `ctx`'s database, built or stored, or is
 * the stored one offered: a selection over it reads no `price_stats` row.
 */
export function holdsPivot(ctx: ApiContext, month: string, state: string, scope: PriceScope): boolean {
  const key = pivotKey(month, state, scope);
  return (pivots.get(ctx)?.has(key) ?? false) || offeredAs(ctx, key) !== undefined;
}

/**
 * What a selection of `params` in `state` reads of `price_stats` (endpoint.ts stats): its month's
 * rows (monthNeed), or nothing when the month's unit pivot is held (holdsPivot).
 */
export function selectionNeed(ctx: ApiContext, params: MonthOptions, state: string): StatsNeed | null {
  const scope = priceScope(params.shared_providers === true, params.billed === true);
  return holdsPivot(ctx, params.snapshot ?? latestSnapshot(ctx), state, scope) ? null : monthNeed(ctx, params, state);
}

/** A unit pivot as the converter stores it: its columns (name and DuckDB type) and its rows, in the table's order. */
export interface PivotTable {
  columns: Array<{ name: string; type: string }>;
  rows: PlainValue[][];
}

/**
 * The columns of table `name` (one of this module's `unit_pivot_<n>`, never a request's value), in
 * order, with their DuckDB types. From `pragma_table_info`, not `duckdb_columns()`, whose first call
 * in DuckDB-WASM costs about 0.1 s of the boot that adopts the stored pivot. @throws DatabaseError
 */
function columnsOf(ctx: ApiContext, name: string): PivotTable['columns'] {
  return ctx.db.all<{ name: string; type: string }>(sql`SELECT name, type FROM pragma_table_info(${text(`'${name}'`)}) ORDER BY cid`);
}

/**
 * The unit pivot of the default selection over every provider (defaultSelection: the latest month,
 * every state), built when it is not: what the converter stores as the derived table `unit_pivot`
 * (contract/files/dataset.ts UNIT_PIVOT_FILE), rows in the order the pivot holds them.
 * @throws Error when the month's statistics are not loaded; DatabaseError
 */
export function defaultPivotTable(ctx: ApiContext): PivotTable {
  const pivot = pivotOf(ctx, latestSnapshot(ctx), ALL_STATES, MARKET_SCOPE);
  const columns = columnsOf(ctx, pivot.name);
  const rows = ctx.db.all(text(`SELECT * FROM ${pivot.name} ORDER BY rowid`)).map((row) => columns.map((c) => row[c.name] ?? null));
  return { columns, rows };
}

/**
 * Offers the stored unit pivot (the derived table `unit_pivot`, as an Arrow IPC stream) as the
 * pivot of the latest month over every state and every provider, for as long as `ctx` is open: the
 * first request that reads that pivot inserts and checks it (adoptStoredPivot), and a selection over
 * it reads no `price_stats` row (selectionNeed). A table that is not such a pivot then fails that
 * request, and every later one that reads it, naming UNIT_PIVOT_FILE.
 */
export function offerStoredPivot(ctx: ApiContext, ipc: Uint8Array): void {
  offered.set(ctx, ipc);
}

/**
 * Inserts the stored unit pivot and makes it the pivot of the latest month over every state and
 * every provider.
 * @throws DatabaseError naming UNIT_PIVOT_FILE when its columns are not a pivot of the dataset's
 *   insurers or its rows are not the latest month's over every state
 */
function adoptStoredPivot(ctx: ApiContext, ipc: Uint8Array): void {
  const insurers = ctx.manifest.insurers.map((i) => i.id).sort(ascending);
  const name = `unit_pivot_${++tableCount}`;
  ctx.db.insertArrowIpc(name, ipc, false);
  const bad = (why: string): DatabaseError => {
    ctx.db.exec(text(`DROP TABLE IF EXISTS ${name}`));
    return new DatabaseError(`${UNIT_PIVOT_FILE}: ${why}`);
  };
  const names = new Set(columnsOf(ctx, name).map((c) => c.name));
  const wanted = ['month', 'state', 'billing_code', 'unit_order', 'claims_open', ...insurers.flatMap((_, i) => PIVOT_INSURER_COLUMNS.map((c) => `${c}_${i + 1}`))];
  const missing = wanted.filter((c) => !names.has(c));
  if (missing.length > 0 || names.has(`price_${insurers.length + 1}`)) {
    throw bad(`not a unit pivot of the dataset's ${insurers.length} insurers (columns ${missing.length > 0 ? `missing: ${missing.join(', ')}` : `beyond price_${insurers.length}`})`);
  }
  const month = latestSnapshot(ctx);
  const [row] = ctx.db.all<{ others: number; open: number }>(sql`
    SELECT count(*) FILTER (WHERE month IS DISTINCT FROM ${month} OR state IS DISTINCT FROM ${ALL_STATES})::INTEGER AS others,
      count(*) FILTER (WHERE claims_open)::INTEGER AS open
    FROM ${text(name)}`);
  if ((row?.others ?? 0) > 0) throw bad(`holds rows of another month or state than ${month} over every state`);
  let kept = pivots.get(ctx);
  if (!kept) pivots.set(ctx, (kept = new Map()));
  kept.set(pivotKey(month, ALL_STATES, MARKET_SCOPE), { name, insurers, openClaims: (row?.open ?? 0) > 0, stored: true });
}

/** Drops every unit pivot and selection table of `ctx` (with ctx.memo cleared: benchmarks measure a selection from nothing). @throws DatabaseError */
export function forgetSelections(ctx: ApiContext): void {
  offered.delete(ctx);
  dropSelectionTables(ctx);
  for (const pivot of pivots.get(ctx)?.values() ?? []) ctx.db.exec(text(`DROP TABLE IF EXISTS ${pivot.name}`));
  pivots.delete(ctx);
}
