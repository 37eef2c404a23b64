/**
 * The comparison's selections in DuckDB (docs/architecture.md, "Selections in DuckDB"):
 * `GET /api/service-pricing` without a provider selection, and `GET /api/dashboard-figures`, answer
 * a selection's summary, its counts and one page from SQL, and carry only the page's units into
 * JavaScript.
 *
 * - A **unit pivot** per (month M, scope, state) (unit-pivot.ts), a table built on first use or stored by the converter: one row
 *   per comparison unit, every insurer's median (USD) and providers in columns `price_<i>` and
 *   `providers_<i>` (insurers in ascending id order; NULL where the insurer has no price for M),
 *   the unit's Medicare amount, the code's category and claims per class, and the claims rule of
 *   contract/sql/unit-figures-sql.ts run once over all its units. It is the part of a pass that reads
 *   `price_stats`; every choice of competitors, category, services or billing class reads it again.
 * - A **selection** is a projection of its pivot (selectionCtes): the reference price, the mean of
 *   the chosen competitors' medians (market_average), the figures of contract/sql/unit-figures-sql.ts
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
import type { BillingClassFilter, LiveServicePricingRecord, MinConfidence, ServicePricingResult, ServiceSort, SharedProvidersParam } from '../../contract/api';
import { ALL_STATES, priceScope } from '../../contract/files/dataset';
import {
  averageOverpaymentExpr,
  COMPETITOR_SUPPORT_SQL,
  COUNTING_SQL,
  thinSql,
  unitFiguresSql,
  VARIANCE_SQL,
} from '../../contract/sql/unit-figures-sql';
import type { PlainValue } from '../db/database';
import { sql, SqlFragment } from '../db/sql';
import type { ApiContext } from '../context';
import { allCompetitors, confidenceNames, latestSnapshot, minProvidersOf, unitRecord, type UnitColumns } from './pricing-core';
import { confidenceRank } from '../../contract/sql/confidence-sql';
import { ascending, pivotOf, selectionTable, text, type Pivot } from './unit-pivot';
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
  /** docs/methodology.md, Where we bill it: prices at billing providers only. */
  billed: boolean;
  /** Hide the units under this confidence (docs/methodology.md, Confidence and distribution); undefined = every unit. */
  minConfidence?: MinConfidence | undefined;
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

/** The pivot's columns a selection reads beyond its insurers' (the page joins the pivot again for the rest of a record). */
const SELECTION_COLUMNS = ['unit_order', 'month', 'state', 'billing_code', 'billing_class', 'component', 'setting', 'reference_price',
  'reference_providers', 'reference_support', 'claims_professional', 'claims_institutional', 'claims_volume', 'claims_open'] as const;

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
  // the unit's confidence rank: the lowest of its prices' (least skips an insurer without a price), 0 when thin
  const reference = pivot.insurers.indexOf(ctx.manifest.reference_insurer) + 1;
  const ranks = [reference, ...chosen].map((i) => `conf_${i}`).join(', ');
  const confidence = `CASE WHEN thin THEN ${confidenceRank('low')} ELSE coalesce(least(${ranks}), ${confidenceRank('high')}) END`;
  const hidden = s.minConfidence === undefined ? sql`` : sql`WHERE confidence_rank >= ${confidenceRank(s.minConfidence)}`;
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
        SELECT ${text([...SELECTION_COLUMNS, ...[...new Set([reference, ...chosen])].map((i) => `conf_${i}`)].join(', '))},
          ${text(n)} AS competitor_n, ${text(total)}::DOUBLE AS competitor_sum, ${text(providers)} AS competitor_providers
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
      FROM (SELECT *, ${text(confidence)} AS confidence_rank FROM figured) ${hidden})`;
}

/**
 * The columns of `sel` the summary and the pages read: a selection's table keeps only those (a
 * record's other figures come from the pivot's row), so that writing it costs little more than
 * deriving the units once.
 */
const SELECTION_TABLE_COLUMNS = ['unit_order', 'market_average', 'competitor_provider_total', 'claims_volume', 'overpayment',
  'reference_variance', 'potential_savings', 'thin'] as const;

/**
 * The pivot of `s` and the table of its units (selectionCtes' `sel`, SELECTION_TABLE_COLUMNS),
 * made on first use and kept beside the pivot (unit-pivot.ts selectionTable): the summary and every
 * page of a selection read it. @throws Error when the statistics of `s` are not loaded; DatabaseError
 */
function unitsOf(ctx: ApiContext, s: StatsSelection): { pivot: Pivot; table: string } {
  const pivot = pivotOf(ctx, s.snapshot, s.state, priceScope(s.sharedProviders, s.billed));
  const key = JSON.stringify([[...s.competitors].sort(ascending), s.billingClass, s.category ?? null, s.services ?? null, s.minConfidence ?? null]);
  const table = selectionTable(ctx, pivot, key, sql`WITH ${selectionCtes(ctx, pivot, s)} SELECT ${text(SELECTION_TABLE_COLUMNS.join(', '))} FROM sel`);
  return { pivot, table };
}

/**
 * The summary of `s` and the units of its views (kept per selection in ctx.memo): the comparison's
 * summary cards over the units with a variance that are not thin (docs/methodology.md, Dashboard
 * figures), sums in the order of a pass (code, then contract/rules/metrics.ts compareUnits).
 * @throws Error when the statistics of `s` are not loaded; DatabaseError
 */
export function selectionSummary(ctx: ApiContext, s: StatsSelection): SelectionSummary {
  const key = `selection-summary ${JSON.stringify({ ...s, competitors: [...s.competitors].sort(ascending) })}`;
  return ctx.memo.get(key, () => {
    const { table } = unitsOf(ctx, s);
    const [row] = ctx.db.all<{
      units: number; overpaying: number; total: number; counted_overpaying: number; above: number; thin: number; savings: number | null; average: number | null;
    }>(sql`
      SELECT count(*)::INTEGER AS units,
        count(*) FILTER (WHERE overpayment > 0)::INTEGER AS overpaying,
        count(*) FILTER (WHERE ${text(COUNTING_SQL)})::INTEGER AS total,
        count(*) FILTER (WHERE ${text(COUNTING_SQL)} AND overpayment > 0)::INTEGER AS counted_overpaying,
        count(*) FILTER (WHERE ${text(COUNTING_SQL)} AND reference_variance > 0)::INTEGER AS above,
        count(*) FILTER (WHERE reference_variance IS NOT NULL AND thin)::INTEGER AS thin,
        sum(potential_savings ORDER BY unit_order) FILTER (WHERE ${text(COUNTING_SQL)}) AS savings,
        ${text(averageOverpaymentExpr(COUNTING_SQL, 'unit_order'))} AS average
      FROM ${text(table)}`);
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
 * every competitor, every billing class, with the provider options asked (params.ts parseProviderOptions).
 */
export function defaultSelection(ctx: ApiContext, options: SharedProvidersParam): StatsSelection {
  return {
    snapshot: latestSnapshot(ctx), competitors: allCompetitors(ctx), billingClass: 'all', state: ALL_STATES,
    sharedProviders: options.shared_providers === true, billed: options.billed === true,
  };
}

/**
 * Prices the default selection over every provider (its unit pivot and its summary) unless a
 * request did. Never throws: a failure here is met again, and reported, by the request that needs
 * the selection.
 */
export function warmDefaultSelection(ctx: ApiContext): void {
  if (ctx.manifest.snapshots.length === 0) return;
  try {
    selectionSummary(ctx, defaultSelection(ctx, {}));
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
type PageRow = Omit<UnitColumns, 'competitor_ids' | 'competitor_medians' | 'competitor_counts' | 'competitor_p10s' | 'competitor_p90s'
  | 'competitor_derived' | 'reference_p10' | 'reference_p90' | 'reference_derived' | 'reference_conf' | 'competitor_conf'> & {
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
 * of `sort` (descending, nulls last, then code and contract/rules/metrics.ts compareUnits), from `offset`,
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
  const { pivot, table } = unitsOf(ctx, s);
  const kept = text(KEPT[view.units]);
  const limit = view.limit === null ? sql`` : sql`LIMIT ${view.limit}`;
  const order = text(`${SORT_COLUMN[view.sort]} DESC NULLS LAST, unit_order`);
  // The sort carries only what a record needs beyond the pivot's row, which the page's units join.
  const rows = ctx.db.all<PageRow>(sql`
    WITH page AS (
      SELECT unit_order, market_average, competitor_provider_total, claims_volume, ${text(SORT_COLUMN[view.sort])}
      FROM ${text(table)} ${kept} ORDER BY ${order} ${limit} OFFSET ${view.offset})
    SELECT u.* EXCLUDE (billing_code, category, claims_volume), page.market_average, page.competitor_provider_total,
      page.claims_volume, u.billing_code AS service_code, s.billing_code_type, s.name AS service_name, s.published_name, s.category
    FROM page
    JOIN ${text(pivot.name)} u ON u.unit_order = page.unit_order
    JOIN services s ON s.billing_code = u.billing_code
    ORDER BY ${text(`page.${SORT_COLUMN[view.sort]} DESC NULLS LAST, page.unit_order`)}`);
  const competitors = new Set(s.competitors);
  const minProviders = minProvidersOf(ctx);
  const names = confidenceNames(ctx);
  const reference = pivot.insurers.indexOf(ctx.manifest.reference_insurer) + 1;
  const num = (v: PlainValue | undefined): number | null => (typeof v === 'number' ? v : null);
  const units = rows.map((row) => {
    const ids: string[] = [];
    const medians: number[] = [];
    const supports: number[] = [];
    const p10s: Array<number | null> = [];
    const p90s: Array<number | null> = [];
    const derived: boolean[] = [];
    pivot.insurers.forEach((id, i) => {
      const price = row[`price_${i + 1}`];
      if (competitors.has(id) && typeof price === 'number') {
        ids.push(id);
        medians.push(price);
        supports.push(Number(row[`providers_${i + 1}`] ?? 0));
        p10s.push(num(row[`p10_${i + 1}`]));
        p90s.push(num(row[`p90_${i + 1}`]));
        derived.push(row[`derived_${i + 1}`] === true);
      }
    });
    return unitRecord({
      ...row, competitor_ids: ids, competitor_medians: medians, competitor_counts: supports,
      competitor_p10s: p10s, competitor_p90s: p90s, competitor_derived: derived,
      reference_p10: num(row[`p10_${reference}`]), reference_p90: num(row[`p90_${reference}`]), reference_derived: row[`derived_${reference}`] === true,
      reference_conf: num(row[`conf_${reference}`]), competitor_conf: null,
    }, row.claims_volume, minProviders, names);
  });
  return serviceRecords(units);
}
