/**
 * The comparison's selections in DuckDB (docs/architecture.md, "Selections in DuckDB"):
 * `GET /api/service-pricing` without a provider selection, and `GET /api/dashboard-figures`, answer
 * a selection's summary, its counts and one page from SQL, and carry only the page's units into
 * JavaScript.
 *
 * - A **unit pivot** per (month M, scope, state), a temporary table built on first use: one row
 *   per comparison unit, every insurer's median (USD) and providers in columns `price_<i>` and
 *   `providers_<i>` (insurers in ascending id order; NULL where the insurer has no price for M),
 *   the unit's Medicare amount, the code's category and claims per class, and the claims rule of
 *   contract/unit-figures-sql.ts run once over all its units. It is the part of a pass that reads
 *   `price_stats`; every choice of competitors, category, services or billing class reads it again.
 * - A **selection** is a projection of its pivot (selectionCtes): the reference price, the mean of
 *   the chosen competitors' medians (market_average), the figures of contract/unit-figures-sql.ts
 *   (reference_variance, thin; claims_volume again where the units listed decide it),
 *   overpayment and potential_savings, for the units the billing-class chips keep. Its summary is
 *   one statement, kept in ctx.memo; each page one more.
 *
 * The rules are those of pricing-core.ts (docs/methodology.md, Per comparison unit, Dashboard
 * figures); a page's records go through the same `unitRecord` as a pass, and
 * test/worker/selection-tables.test.ts holds every answer equal to the pass in JavaScript to the
 * last bit. market_average adds the competitors' medians in ascending insurer id order, whatever
 * the order the statistics were loaded in; a pass's `avg` meets them in the order of the loaded
 * rows, which is the same when the competitors' prices come from one snapshot (with three or more
 * from different snapshots the two may differ in the last bit).
 */
import type { BillingClassFilter, LiveServicePricingRecord, ServicePricingResult, ServiceSort } from '../../contract/api';
import { ALL_STATES, UNIT_PIVOT_FILE } from '../../contract/dataset';
import { SERVICE_CODE_TYPES } from '../../contract/metrics';
import {
  averageOverpaymentExpr,
  COMPETITOR_SUPPORT_SQL,
  COUNTING_SQL,
  thinSql,
  UNIT_ORDER_SQL,
  unitFiguresSql,
  VARIANCE_SQL,
} from '../../contract/unit-figures-sql';
import type { PlainValue } from '../db/database';
import { DatabaseError } from '../db/errors';
import type { StatsNeed } from '../db/stats';
import { joinSql, sql, SqlFragment } from '../db/sql';
import type { ApiContext } from './context';
import { allCompetitors, latestSnapshot, minProvidersOf, monthNeed, statsPrices, unitRecord, type UnitColumns } from './pricing-core';
import { assertStatsLoaded, chosenRows } from './stats-selection';
import { serviceRecords } from './unit-records';

/** A comparison selection priced from `price_stats` (no provider selection). */
export interface StatsSelection {
  /** Month M, `YYYY-MM`. */
  snapshot: string;
  /** Competitor ids (never the reference); each contributes its snapshot for M. */
  competitors: readonly string[];
  billingClass: BillingClassFilter;
  /** A state code or `ALL` (national). */
  state: string;
  category?: string | undefined;
  /** Billing codes to keep; undefined = every service. */
  services?: readonly string[] | undefined;
  sharedProviders: boolean;
}

/** What every view of a selection shares: its summary cards and the units of each view. */
export interface SelectionSummary {
  summary: ServicePricingResult['summary'];
  /** The units the selection lists, and those with an overpayment above 0. */
  units: number;
  unitsOverpaying: number;
  /** Of the units that count (a variance, not thin), those with a variance above 0. */
  aboveMarket: number;
  /** Units with a variance left out as thin. */
  thinLeftOut: number;
}

/** Unit pivots kept per open dataset; the least recently used is dropped past this. */
const MAX_PIVOTS = 6;

interface Pivot {
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
/** Table names are unique in the process: a context opened later on the same database never meets an older one's. */
let tableCount = 0;

/** Ascending by code unit, as DuckDB orders VARCHAR. */
const ascending = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const text = (t: string): SqlFragment => new SqlFragment(t, []);

/**
 * The unit pivot of (M, scope, state), built on first use from the loaded `price_stats` rows.
 * Columns: the unit and its ranks, `unit_order` (its place in UNIT_ORDER_SQL, which every sum and
 * sort of a selection follows), `category`, `medicare_rate`, the code's
 * `claims_professional`/`claims_institutional`, `price_<i>`/`providers_<i>` per insurer,
 * `reference_price`, `reference_providers`, `reference_support`, `claims_class`, `claims_volume`
 * (unitFiguresSql's, with every unit of the pivot listed) and `claims_open` (that claims_volume
 * holds only when the units listed are those of the pivot: the unit's (code, claims class) has no
 * reference price resting on a provider, so its main unit is the first one listed).
 * @throws Error when those rows are not loaded; DatabaseError
 */
function pivotOf(ctx: ApiContext, month: string, state: string, shared: boolean): Pivot {
  let kept = pivots.get(ctx);
  if (!kept) pivots.set(ctx, (kept = new Map()));
  const key = pivotKey(month, state, shared);
  const hit = kept.get(key);
  if (hit) {
    kept.delete(key);
    kept.set(key, hit);
    return hit;
  }
  assertStatsLoaded(ctx, { state, sharedProviders: shared }, [month]);
  const insurers = ctx.manifest.insurers.map((i) => i.id).sort(ascending);
  const reference = insurers.indexOf(ctx.manifest.reference_insurer) + 1;
  if (reference === 0) throw new Error(`the reference insurer ${ctx.manifest.reference_insurer} is not among the dataset's insurers`);
  const name = `unit_pivot_${++tableCount}`;
  const columns = joinSql(
    insurers.map(
      (id, i) => sql`(max(p.price) FILTER (WHERE p.insurer_id = ${id})) AS ${text(`price_${i + 1}`)},
        (max(p.provider_count) FILTER (WHERE p.insurer_id = ${id})) AS ${text(`providers_${i + 1}`)}`,
    ),
    ', ',
  );
  const claimsState = ctx.manifest.claims_by_state ? state : ALL_STATES;
  ctx.db.all(sql`
    CREATE OR REPLACE TEMP TABLE ${text(name)} AS
    WITH chosen AS (${chosenRows(ctx, [month], insurers)}),
    prices AS (${statsPrices({ state, sharedProviders: shared })}),
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
  for (const [oldKey, old] of kept) {
    if (kept.size <= MAX_PIVOTS) break;
    if (old.stored) continue;
    kept.delete(oldKey);
    ctx.db.exec(text(`DROP TABLE IF EXISTS ${old.name}`));
  }
  return pivot;
}

const pivotKey = (month: string, state: string, shared: boolean): string => JSON.stringify([month, state, shared]);

/** Whether the unit pivot of (month, state, shared) is in `ctx`'s database, built or stored: a selection over it reads no `price_stats` row. */
export function holdsPivot(ctx: ApiContext, month: string, state: string, shared: boolean): boolean {
  return pivots.get(ctx)?.has(pivotKey(month, state, shared)) ?? false;
}

/**
 * What a selection of `params` in `state` reads of `price_stats` (endpoint.ts stats): its month's
 * rows (monthNeed), or nothing when the month's unit pivot is held (holdsPivot).
 */
export function selectionNeed(ctx: ApiContext, params: { snapshot?: string | undefined; shared_providers?: boolean | undefined }, state: string): StatsNeed | null {
  return holdsPivot(ctx, params.snapshot ?? latestSnapshot(ctx), state, params.shared_providers === true) ? null : monthNeed(ctx, params, state);
}

/** A unit pivot as the converter stores it: its columns (name and DuckDB type) and its rows, in the table's order. */
export interface PivotTable {
  columns: Array<{ name: string; type: string }>;
  rows: PlainValue[][];
}

/** The columns of table `name`, in order, with their DuckDB types. @throws DatabaseError */
function columnsOf(ctx: ApiContext, name: string): PivotTable['columns'] {
  return ctx.db.all<{ name: string; type: string }>(sql`
    SELECT column_name AS name, data_type AS type FROM duckdb_columns() WHERE table_name = ${name} ORDER BY column_index`);
}

/**
 * The unit pivot of the default selection over every provider (defaultSelection: the latest month,
 * every state), built when it is not: what the converter stores as the derived table `unit_pivot`
 * (contract/dataset.ts UNIT_PIVOT_FILE), rows in the order the pivot holds them.
 * @throws Error when the month's statistics are not loaded; DatabaseError
 */
export function defaultPivotTable(ctx: ApiContext): PivotTable {
  const s = defaultSelection(ctx, false);
  const pivot = pivotOf(ctx, s.snapshot, s.state, false);
  const columns = columnsOf(ctx, pivot.name);
  const rows = ctx.db.all(text(`SELECT * FROM ${pivot.name} ORDER BY rowid`)).map((row) => columns.map((c) => row[c.name] ?? null));
  return { columns, rows };
}

/**
 * Makes the stored unit pivot (the derived table `unit_pivot`, as an Arrow IPC stream) the pivot of
 * the latest month over every state and every provider, for as long as `ctx` is open; a selection
 * over it then reads no `price_stats` row (selectionNeed).
 * @throws DatabaseError naming UNIT_PIVOT_FILE when its columns are not a pivot of the dataset's
 *   insurers or its rows are not the latest month's over every state
 */
export function adoptStoredPivot(ctx: ApiContext, ipc: Uint8Array): void {
  const insurers = ctx.manifest.insurers.map((i) => i.id).sort(ascending);
  const name = `unit_pivot_${++tableCount}`;
  ctx.db.insertArrowIpc(name, ipc, false);
  const bad = (why: string): DatabaseError => {
    ctx.db.exec(text(`DROP TABLE IF EXISTS ${name}`));
    return new DatabaseError(`${UNIT_PIVOT_FILE}: ${why}`);
  };
  const names = new Set(columnsOf(ctx, name).map((c) => c.name));
  const wanted = ['month', 'state', 'billing_code', 'unit_order', 'claims_open', ...insurers.flatMap((_, i) => [`price_${i + 1}`, `providers_${i + 1}`])];
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
  kept.set(pivotKey(month, ALL_STATES, false), { name, insurers, openClaims: (row?.open ?? 0) > 0, stored: true });
}

/** Drops every unit pivot of `ctx` (with ctx.memo cleared: benchmarks measure a selection from nothing). @throws DatabaseError */
export function forgetSelections(ctx: ApiContext): void {
  for (const pivot of pivots.get(ctx)?.values() ?? []) ctx.db.exec(text(`DROP TABLE IF EXISTS ${pivot.name}`));
  pivots.delete(ctx);
}

/**
 * The CTEs ending in `sel`: one row per unit `s` lists, with unitFiguresSql's figures
 * (reference_variance, thin, claims_volume), `overpayment` and `potential_savings`
 * (docs/methodology.md, Per comparison unit), and the pivot's columns. market_average is the mean
 * of the chosen competitors' medians, added in ascending insurer id order from 0: the order in which
 * the pricing pass's avg meets them while the insurers' rows are loaded in that order (its sum
 * depends on the rows' order in the last bit).
 */
function selectionCtes(ctx: ApiContext, pivot: Pivot, s: StatsSelection): SqlFragment {
  const chosen = [...s.competitors].sort(ascending).map((id) => {
    const i = pivot.insurers.indexOf(id);
    if (i < 0) throw new Error(`insurer ${id} is not in the dataset`);
    return i + 1;
  });
  const sumOf = (f: (i: number) => string, empty: string): string => (chosen.length === 0 ? empty : chosen.map(f).join(' + '));
  const n = sumOf((i) => `(price_${i} IS NOT NULL)::INTEGER`, '0');
  const total = sumOf((i) => `coalesce(price_${i}, 0)`, '0');
  const providers = sumOf((i) => `coalesce(providers_${i}, 0)`, '0');
  const category = s.category === undefined ? sql`` : sql`AND category = ${s.category}`;
  const services = s.services === undefined ? sql`` : sql`AND billing_code IN (${s.services})`;
  const classes = s.billingClass === 'all' ? sql`` : sql`WHERE billing_class IN (${[s.billingClass, 'both']})`;
  // A (code, class) without a reference price on a provider gives its claims to its first unit
  // listed, which the competitors chosen decide: unitFiguresSql again over those units only.
  const open = pivot.openClaims
    ? sql`,
    open_rows AS (
      SELECT month, state, billing_code, billing_class, component, setting, reference_price, market_average,
        reference_providers, competitor_provider_total, claims_professional, claims_institutional
      FROM present WHERE claims_open),
    open_claims AS (SELECT billing_code, billing_class, component, setting, claims_volume AS open_volume FROM (${text(unitFiguresSql('open_rows', 0))})),
    claimed AS (
      SELECT present.* REPLACE (coalesce(o.open_volume, present.claims_volume) AS claims_volume)
      FROM present LEFT JOIN open_claims o USING (billing_code, billing_class, component, setting))`
    : sql`, claimed AS (SELECT * FROM present)`;
  return sql`
    base AS (
      SELECT * EXCLUDE (competitor_n, competitor_sum, competitor_providers),
        CASE WHEN competitor_n = 0 THEN NULL ELSE competitor_sum / competitor_n END AS market_average,
        (CASE WHEN competitor_n = 0 THEN NULL ELSE competitor_providers END)::INTEGER AS competitor_provider_total
      FROM (
        SELECT *, ${text(n)} AS competitor_n, ${text(total)}::DOUBLE AS competitor_sum, ${text(providers)} AS competitor_providers
        FROM ${text(pivot.name)} WHERE true ${category} ${services})),
    present AS (SELECT * FROM base WHERE reference_price IS NOT NULL OR market_average IS NOT NULL)${open},
    figured AS (
      SELECT *, ${text(VARIANCE_SQL)} AS reference_variance, ${text(thinSql(minProvidersOf(ctx)))} AS thin
      FROM (SELECT *, ${text(COMPETITOR_SUPPORT_SQL)} AS competitor_support FROM claimed) ${classes}),
    sel AS (
      SELECT *,
        CASE WHEN reference_variance IS NULL THEN NULL ELSE reference_price - market_average END AS overpayment,
        CASE WHEN reference_variance IS NOT NULL AND reference_price - market_average > 0
          THEN (reference_price - market_average) * claims_volume ELSE 0 END AS potential_savings
      FROM figured)`;
}

/**
 * The summary of `s` and the units of its views (kept per selection in ctx.memo): the comparison's
 * summary cards over the units with a variance that are not thin (docs/methodology.md, Dashboard
 * figures), sums in the order of a pass (code, then contract/metrics.ts compareUnits).
 * @throws Error when the statistics of `s` are not loaded; DatabaseError
 */
export function selectionSummary(ctx: ApiContext, s: StatsSelection): SelectionSummary {
  const key = `selection-summary ${JSON.stringify({ ...s, competitors: [...s.competitors].sort(ascending) })}`;
  return ctx.memo.get(key, () => {
    const pivot = pivotOf(ctx, s.snapshot, s.state, s.sharedProviders);
    const [row] = ctx.db.all<{
      units: number; overpaying: number; total: number; counted_overpaying: number; above: number; thin: number; savings: number | null; average: number | null;
    }>(sql`
      WITH ${selectionCtes(ctx, pivot, s)}
      SELECT count(*)::INTEGER AS units,
        count(*) FILTER (WHERE overpayment > 0)::INTEGER AS overpaying,
        count(*) FILTER (WHERE ${text(COUNTING_SQL)})::INTEGER AS total,
        count(*) FILTER (WHERE ${text(COUNTING_SQL)} AND overpayment > 0)::INTEGER AS counted_overpaying,
        count(*) FILTER (WHERE ${text(COUNTING_SQL)} AND reference_variance > 0)::INTEGER AS above,
        count(*) FILTER (WHERE reference_variance IS NOT NULL AND thin)::INTEGER AS thin,
        sum(potential_savings ORDER BY unit_order) FILTER (WHERE ${text(COUNTING_SQL)}) AS savings,
        ${text(averageOverpaymentExpr(COUNTING_SQL, 'unit_order'))} AS average
      FROM sel`);
    return {
      summary: {
        total_potential_savings: row?.savings ?? 0,
        avg_overpayment: row?.average ?? null,
        services_overpaying: row?.counted_overpaying ?? 0,
        services_total: row?.total ?? 0,
        comparing_against: s.competitors.length,
      },
      units: row?.units ?? 0,
      unitsOverpaying: row?.overpaying ?? 0,
      aboveMarket: row?.above ?? 0,
      thinLeftOut: row?.thin ?? 0,
    };
  });
}

/**
 * The selection the dashboard shows and the comparison opens with: the latest month, national,
 * every competitor, every billing class, over every provider or at shared providers.
 */
export function defaultSelection(ctx: ApiContext, sharedProviders: boolean): StatsSelection {
  return { snapshot: latestSnapshot(ctx), competitors: allCompetitors(ctx), billingClass: 'all', state: ALL_STATES, sharedProviders };
}

/**
 * Prices the default selection over every provider (its unit pivot and its summary) unless a
 * request did. Never throws: a failure here is met again, and reported, by the request that needs
 * the selection.
 */
export function warmDefaultSelection(ctx: ApiContext): void {
  if (ctx.manifest.snapshots.length === 0) return;
  try {
    selectionSummary(ctx, defaultSelection(ctx, false));
  } catch {
    // the request that needs it reports it
  }
}

const SORT_COLUMN: Record<ServiceSort, string> = {
  overpayment: 'overpayment',
  variance: 'reference_variance',
  savings: 'potential_savings',
};

/** A row of a page: a unit as pricing-core.ts unitsQuery answers it, with the pivot's columns beside. */
type PageRow = Omit<UnitColumns, 'competitor_ids' | 'competitor_medians' | 'competitor_counts'> & {
  [key: string]: PlainValue;
  claims_volume: number;
};

/** Which units a view keeps: every one listed, those with an overpayment above 0, or those that count (a variance, not thin). */
export type ViewUnits = 'listed' | 'overpaying' | 'counting';

const KEPT: Record<ViewUnits, string> = {
  listed: '',
  overpaying: 'WHERE overpayment > 0',
  counting: `WHERE ${COUNTING_SQL}`,
};

/**
 * Units of a page window: once a user pages past the first page, the page's statement fetches the
 * window of 200 units holding it (a statement sorts the whole selection whatever its LIMIT; the
 * larger window costs tens of milliseconds more), and the window's other pages are sliced from it.
 * A first page is fetched alone: most selections are never paged. A multiple of every page size
 * of the comparison (25, 50, 100, 200), so a page never straddles two windows.
 */
export const PAGE_WINDOW = 200;

/** What selectionPage answers: which units, in which order, from where, how many (every one when `limit` is null). */
export interface PageView {
  sort: ServiceSort;
  units: ViewUnits;
  offset: number;
  limit: number | null;
}

/**
 * The records of one page of `s`: the units `view.units` keeps in the order
 * of `sort` (descending, nulls last, then code and contract/metrics.ts compareUnits), from `offset`,
 * `limit` of them (every one when null), with the competitors' prices; each record is
 * pricing-core.ts unitRecord's. A page after the first, inside one PAGE_WINDOW, is sliced from the
 * window's records, computed once and kept in ctx.memo. @throws Error when the statistics of `s` are not loaded; DatabaseError
 */
export function selectionPage(ctx: ApiContext, s: StatsSelection, view: PageView): LiveServicePricingRecord[] {
  const { offset, limit } = view;
  const start = Math.floor(offset / PAGE_WINDOW) * PAGE_WINDOW;
  if (limit === null || offset === 0 || offset + limit > start + PAGE_WINDOW) return pageRecords(ctx, s, view);
  const window = ctx.memo.get(
    `selection-window ${JSON.stringify([s, view.sort, view.units, start])}`,
    () => pageRecords(ctx, s, { ...view, offset: start, limit: PAGE_WINDOW }),
    (records) => records.length,
  );
  return window.slice(offset - start, offset - start + limit);
}

/** selectionPage's records, from one statement. @throws Error when the statistics of `s` are not loaded; DatabaseError */
function pageRecords(ctx: ApiContext, s: StatsSelection, view: PageView): LiveServicePricingRecord[] {
  const pivot = pivotOf(ctx, s.snapshot, s.state, s.sharedProviders);
  const kept = text(KEPT[view.units]);
  const limit = view.limit === null ? sql`` : sql`LIMIT ${view.limit}`;
  const order = text(`${SORT_COLUMN[view.sort]} DESC NULLS LAST, unit_order`);
  // The sort carries only what a record needs beyond the pivot's row, which the page's units join.
  const rows = ctx.db.all<PageRow>(sql`
    WITH ${selectionCtes(ctx, pivot, s)},
    page AS (
      SELECT unit_order, market_average, competitor_provider_total, claims_volume, ${text(SORT_COLUMN[view.sort])}
      FROM sel ${kept} ORDER BY ${order} ${limit} OFFSET ${view.offset})
    SELECT u.* EXCLUDE (billing_code, category, claims_volume), page.market_average, page.competitor_provider_total,
      page.claims_volume, u.billing_code AS service_code, s.billing_code_type, s.name AS service_name, s.published_name, s.category
    FROM page
    JOIN ${text(pivot.name)} u ON u.unit_order = page.unit_order
    JOIN services s ON s.billing_code = u.billing_code
    ORDER BY ${text(`page.${SORT_COLUMN[view.sort]} DESC NULLS LAST, page.unit_order`)}`);
  const competitors = new Set(s.competitors);
  const minProviders = minProvidersOf(ctx);
  const units = rows.map((row) => {
    const ids: string[] = [];
    const medians: number[] = [];
    const supports: number[] = [];
    pivot.insurers.forEach((id, i) => {
      const price = row[`price_${i + 1}`];
      if (competitors.has(id) && typeof price === 'number') {
        ids.push(id);
        medians.push(price);
        supports.push(Number(row[`providers_${i + 1}`] ?? 0));
      }
    });
    return unitRecord({ ...row, competitor_ids: ids, competitor_medians: medians, competitor_counts: supports }, row.claims_volume, minProviders);
  });
  return serviceRecords(units);
}
