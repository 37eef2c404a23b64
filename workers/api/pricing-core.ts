/**
 * Per-service figures of metrics.md ("Per service", "Which snapshot an insurer contributes") for
 * one selection, shared by service-pricing, regional-comparison, overpayment-trend and alerts.
 *
 * SQL joins and averages the medians: from the pre-computed `price_stats` (every provider), or,
 * for a provider selection, from the rate rows of those providers (distinct dollar rows, one per
 * provider, as scripts/convert/build-tables.ts builds price_stats). The derived figures (variance,
 * overpayment, savings) come from contract/metrics.ts, so every screen computes them the same way.
 */
import type { LiveServicePricingRecord } from '../../contract/api';
import { ALL_STATES, type ClassSelection } from '../../contract/dataset';
import { DOLLAR_NEGOTIATED_TYPES, potentialSavings, referenceVariance, SERVICE_CODE_TYPES } from '../../contract/metrics';
import type { Database } from '../db/database';
import { joinSql, sql, type SqlFragment } from '../db/sql';
import type { ApiContext } from './context';

/** `state` value asking for every state and the national rows at once. */
export const EVERY_STATE = '*' as const;

export interface PricingSelection {
  /** Month M, `YYYY-MM`: each insurer contributes its latest snapshot <= M. */
  snapshot: string;
  reference: string;
  competitors: readonly string[];
  classSelection: ClassSelection;
  /** A state code, `ALL` (national) or EVERY_STATE (each state plus `ALL`; not with providers). */
  state: string;
  category?: string | undefined;
  /** Billing codes to keep; undefined = every service. */
  services?: readonly string[] | undefined;
  /** Provider ids; undefined = every provider (price_stats). The rates of the codes must be loaded. */
  providers?: readonly string[] | undefined;
  /** false: leave `competitor_prices` empty (screens that need only the mean; saves the list aggregate). */
  competitorPrices?: boolean;
}

/** A live service pricing record of one state (`ALL` = national). */
export type PricedService = LiveServicePricingRecord & { state: string };

/** A selection without its month: the months come apart (one statement for several). */
type Selection = Omit<PricingSelection, 'snapshot'>;

interface ServiceRow {
  [key: string]: string | number | null | Array<{ id: string; price: number }>;
  month: string;
  state: string;
  service_code: string;
  billing_code_type: string;
  service_name: string;
  category: string;
  reference_price: number | null;
  market_average: number | null;
  competitor_prices: Array<{ id: string; price: number }> | null;
  claims_volume: number;
}

/** Per database: each insurer's price_stats snapshots, ascending (table stats_snapshots, read once). */
const statsSnapshots = new WeakMap<Database, Map<string, string[]>>();

function snapshotsOf(db: Database): Map<string, string[]> {
  let m = statsSnapshots.get(db);
  if (!m) {
    m = new Map();
    for (const r of db.all<{ insurer_id: string; snapshot: string }>(sql`SELECT insurer_id, snapshot FROM stats_snapshots ORDER BY insurer_id, snapshot`)) {
      m.set(r.insurer_id, [...(m.get(r.insurer_id) ?? []), r.snapshot]);
    }
    statsSnapshots.set(db, m);
  }
  return m;
}

/**
 * `(month, insurer_id, snapshot)` rows: for each month, each insurer's latest price_stats snapshot at
 * or before it (metrics.md, Which snapshot an insurer contributes); an insurer with none is absent.
 */
function chosenRows(db: Database, months: readonly string[], insurers: readonly string[]): SqlFragment {
  const known = snapshotsOf(db);
  const rows: SqlFragment[] = [];
  for (const month of months) {
    for (const id of insurers) {
      const snapshot = (known.get(id) ?? []).filter((x) => x <= month).pop();
      if (snapshot !== undefined) rows.push(sql`(${month}::VARCHAR, ${id}::VARCHAR, ${snapshot}::VARCHAR)`);
    }
  }
  if (rows.length === 0) return sql`SELECT NULL::VARCHAR AS month, NULL::VARCHAR AS insurer_id, NULL::VARCHAR AS snapshot WHERE false`;
  return sql`SELECT * FROM (VALUES ${joinSql(rows, ', ')}) v(month, insurer_id, snapshot)`;
}

/** Medians of every provider, pre-computed. */
function statsPrices(s: Selection): SqlFragment {
  const state = s.state === EVERY_STATE ? sql`` : sql`AND p.state = ${s.state}`;
  return sql`
    SELECT c.month, p.insurer_id, p.billing_code, p.state, p.median_rate::DOUBLE AS price
    FROM price_stats p JOIN chosen c ON p.insurer_id = c.insurer_id AND p.snapshot = c.snapshot
    WHERE p.class_selection = ${s.classSelection} ${state}`;
}

/** Medians over the selected providers' distinct dollar rate rows (metrics.md, Rows that count). */
function providerPrices(s: Selection, providers: readonly string[]): SqlFragment {
  const cls = s.classSelection === 'all' ? sql`` : sql`AND (r.billing_class = ${s.classSelection} OR r.billing_class = 'both')`;
  const state = s.state === ALL_STATES ? sql`` : sql`WHERE d.state = ${s.state}`;
  return sql`
    SELECT d.month, d.insurer_id, d.billing_code, ${s.state} AS state, median(d.negotiated_rate)::DOUBLE AS price
    FROM (
      SELECT DISTINCT c.month, r.snapshot, r.insurer_id, r.billing_code, g.provider_id, r.billing_class,
        lower(r.negotiated_type) AS negotiated_type, r.negotiated_rate, r.service_codes, r.modifiers, pr.state
      FROM rates r
      JOIN chosen c ON c.insurer_id = r.insurer_id AND c.snapshot = r.snapshot
      JOIN provider_groups g ON g.provider_group_key = r.provider_group_key
      LEFT JOIN providers pr ON pr.provider_id = g.provider_id
      WHERE g.provider_id IN (${providers}) AND r.billing_code_type IN (${SERVICE_CODE_TYPES})
        AND lower(r.negotiated_type) IN (${DOLLAR_NEGOTIATED_TYPES}) AND r.negotiated_rate > 0 ${cls}
    ) d ${state}
    GROUP BY d.month, d.insurer_id, d.billing_code`;
}

/**
 * Per (month, state, service): price(s, R), the competitors' medians and their mean, and the claims
 * weight (`claims_totals`, built at boot), in one statement for every month asked.
 */
function servicesQuery(db: Database, s: Selection, months: readonly string[], claimsByState: boolean): SqlFragment {
  const category = s.category === undefined ? sql`` : sql`AND s.category = ${s.category}`;
  const services = s.services === undefined ? sql`` : sql`AND s.billing_code IN (${s.services})`;
  const prices = s.providers === undefined ? statsPrices(s) : providerPrices(s, s.providers);
  const claimsState = claimsByState ? sql`p.state` : sql`${ALL_STATES}`;
  const competitorPrices =
    s.competitorPrices === false
      ? sql`NULL`
      : sql`list(struct_pack(id := p.insurer_id, price := p.price)) FILTER (WHERE p.insurer_id <> ${s.reference})`;
  return sql`
    WITH chosen AS (${chosenRows(db, months, [s.reference, ...s.competitors])}), prices AS (${prices})
    SELECT p.month, p.state, s.billing_code AS service_code, s.billing_code_type, s.name AS service_name, s.category,
      max(p.price) FILTER (WHERE p.insurer_id = ${s.reference}) AS reference_price,
      avg(p.price) FILTER (WHERE p.insurer_id <> ${s.reference}) AS market_average,
      ${competitorPrices} AS competitor_prices,
      coalesce(any_value(cl.claims), 0) AS claims_volume
    FROM services s
    JOIN prices p ON p.billing_code = s.billing_code
    LEFT JOIN claims_totals cl ON cl.billing_code = s.billing_code AND cl.state = ${claimsState}
    WHERE s.billing_code_type IN (${SERVICE_CODE_TYPES}) ${category} ${services}
    GROUP BY p.month, p.state, s.billing_code, s.billing_code_type, s.name, s.category
    ORDER BY p.month, p.state, s.billing_code`;
}

function toRecord(r: ServiceRow): PricedService {
  const variance = referenceVariance(r.reference_price, r.market_average);
  const overpayment = variance == null ? null : r.reference_price! - r.market_average!;
  return {
    state: r.state,
    service_code: r.service_code,
    billing_code_type: r.billing_code_type,
    service_name: r.service_name,
    category: r.category,
    reference_price: r.reference_price,
    competitor_prices: Object.fromEntries((r.competitor_prices ?? []).sort((a, b) => (a.id < b.id ? -1 : 1)).map((c) => [c.id, c.price])),
    market_average: r.market_average,
    reference_variance: variance,
    overpayment,
    claims_volume: r.claims_volume,
    potential_savings: potentialSavings(overpayment, r.claims_volume),
    anthem_price: r.reference_price,
    anthem_variance: variance,
  };
}

/**
 * The services priced by the reference or a selected competitor, one record per (state, service).
 * Claims weights: the state's own claims when the manifest says `claims_by_state`, else national
 * (metrics.md, Per-state claims weights). @throws DatabaseError
 */
export function priceServices(ctx: ApiContext, s: PricingSelection): PricedService[] {
  return priceServicesByMonth(ctx, s, [s.snapshot]).get(s.snapshot) ?? [];
}

/**
 * `priceServices` for several months M at once (one statement): month -> records; a month without
 * any priced service maps to no entry. @throws DatabaseError
 */
export function priceServicesByMonth(
  { db, manifest }: ApiContext,
  s: Selection,
  months: readonly string[],
): Map<string, PricedService[]> {
  if (s.providers !== undefined && s.state === EVERY_STATE) throw new Error('a provider selection needs one state');
  const out = new Map<string, PricedService[]>();
  for (const row of db.all<ServiceRow>(servicesQuery(db, s, months, manifest.claims_by_state))) {
    const list = out.get(row.month) ?? [];
    list.push(toRecord(row));
    out.set(row.month, list);
  }
  return out;
}

/** The latest snapshot of the dataset, or '' when it has none. */
export function latestSnapshot(ctx: ApiContext): string {
  const s = ctx.manifest.snapshots;
  return s[s.length - 1] ?? '';
}

/** Every insurer but the reference. */
export function allCompetitors(ctx: ApiContext): string[] {
  return ctx.manifest.insurers.map((i) => i.id).filter((id) => id !== ctx.manifest.reference_insurer);
}
