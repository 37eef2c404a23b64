/**
 * Per-unit figures of docs/methodology.md ("Per comparison unit", "Rows that count")
 * for one selection, shared by service-pricing, regional-comparison, regional-services,
 * overpayment-trend and alerts: one record per comparison unit (service, billing class, component,
 * setting) and state.
 *
 * SQL joins and averages the medians: from the pre-computed `price_stats` (valid rates only; scope
 * `market` = every provider, one row per insurer snapshot; scope `shared` = at shared providers,
 * one row per month M, docs/methodology.md, Per comparison unit: at shared providers), or, for a provider selection, from the
 * rate rows of those providers (provider-prices.ts, the same rules as the converter's). The claims
 * of each class go to its main unit, the billing-class chips then pick units, and the derived
 * figures (variance, overpayment, savings, thin, % of Medicare) come from contract/rules/metrics.ts, so
 * every screen computes them the same way.
 */
import type { BillingClassFilter, LiveServicePricingRecord } from '../../contract/api';
import {
  ALL_STATES,
  DEFAULT_VALIDATION,
  isMonthScope,
  priceScope,
  UNIT_BILLING_CLASSES,
} from '../../contract/files/dataset';
import {
  claimsByUnit,
  compareUnits,
  effectiveMinProviders,
  medicarePct,
  potentialSavings,
  referenceVariance,
  SERVICE_CODE_TYPES,
  thinReason,
  unitPassesClassFilter,
} from '../../contract/rules/metrics';
import { ALERT_CHANGE_PCT, ALERT_OUTLIER_PCT } from '../../contract/rules/alert-rules';
import { priceConfidenceRankSql } from '../../contract/sql/confidence-sql';
import { ensureClaimsTotals } from '../db/prepare-tables';
import { sql, SqlFragment } from '../db/sql';
import { assertStatsLoaded, chosenRows, EVERY_STATE, latestSnapshot } from './stats-selection';
import type { ApiContext } from '../context';
import { providerPrices } from './provider-prices';
import { confidenceFields, confidenceNames, recordConfidence, type ConfidenceNames } from './unit-confidence';

export { confidenceNames } from './unit-confidence';

/** Percent points below the alert rules' thresholds at which the alert pre-filter still keeps a unit (float slack). */
const ALERT_SLACK_PCT = 0.01;

export { EVERY_STATE, latestSnapshot, monthNeed, statsNeedOf } from './stats-selection';

export interface PricingSelection {
  /** Month M, `YYYY-MM`: each insurer contributes its latest snapshot <= M. */
  snapshot: string;
  reference: string;
  competitors: readonly string[];
  /** The billing-class chips (docs/methodology.md, Rows that count, Filters): which units are listed. */
  billingClass: BillingClassFilter;
  /** A state code, `ALL` (national) or EVERY_STATE (each state plus `ALL`; not with providers). */
  state: string;
  category?: string | undefined;
  /** Billing codes to keep; undefined = every service. */
  services?: readonly string[] | undefined;
  /** Provider ids; undefined = every provider (price_stats). The rates of the codes must be loaded. */
  providers?: readonly string[] | undefined;
  /** false: leave `competitor_prices` and its companions empty (screens that need only the mean). */
  competitorPrices?: boolean;
  /**
   * docs/methodology.md, Per comparison unit, "At shared providers" (default false): for each unit, state and
   * month M (each insurer with its snapshot for M), a competitor's price only over its valid rates
   * at providers where the reference insurer has a valid rate, the reference price only over its
   * valid rates at providers where at least one competitor of the dataset (whatever `competitors`)
   * has one; providers match by provider id. Every derived figure follows from these prices.
   * Read from price_stats scope `shared`, or for a provider selection from the rate rows.
   */
  sharedProviders?: boolean | undefined;
  /**
   * docs/methodology.md, Per comparison unit, "Where we bill it" (default false): every price only
   * over valid rates at billing providers of the code; with `sharedProviders`, both hold. Read from
   * price_stats scopes `billed` / `shared_billed`, or for a provider selection from the rate rows.
   */
  billed?: boolean | undefined;
  /**
   * Only the (state, code) groups where a unit could raise an alert between these two months
   * (contract/rules/alert-rules.ts evaluateAlerts): a variance of ALERT_OUTLIER_PCT or more at `latest`,
   * or the reference price or the market average moved by ALERT_CHANGE_PCT or more from
   * `previous`, each tested with ALERT_SLACK_PCT point of slack so that the rows kept are a superset of those the rules pick. Whole code
   * groups are kept, so the claims each unit receives (claimsByUnit) are unchanged.
   */
  alertCandidates?: { latest: string; previous: string | undefined } | undefined;
}

/** A live service pricing record of one state (`ALL` = national), with what the dashboards need beside it. */
export type PricedService = LiveServicePricingRecord & {
  state: string;
  /** The competitor prices' providers added up (kept when `competitorPrices` is false, for alerts). */
  competitor_provider_total: number;
};

/** A selection without its month: the months come apart (one statement for several). */
export type Selection = Omit<PricingSelection, 'snapshot'>;

/** A unit as unitsQuery answers it (one month and state), before the rules of contract/rules/metrics.ts. */
export interface UnitColumns extends Pick<LiveServicePricingRecord, 'service_code' | 'billing_code_type' | 'service_name' | 'published_name'
  | 'category' | 'billing_class' | 'component' | 'setting' | 'reference_price'> {
  month: string;
  state: string;
  reference_providers: number | null;
  market_average: number | null;
  competitor_provider_total: number | null;
  /** The competitors' ids in ascending order, with their medians (USD) and supports alongside; null without the lists (competitorPrices false). */
  competitor_ids: string[] | null;
  competitor_medians: number[] | null;
  competitor_counts: number[] | null;
  medicare_rate: number | null;
  claims_professional: number;
  claims_institutional: number;
  /** The reference price's p10, p90 (USD) and derived flag (docs/methodology.md, Confidence and distribution). */
  reference_p10: number | null;
  reference_p90: number | null;
  reference_derived: boolean;
  /** Confidence ranks (contract/sql/confidence-sql.ts) of the reference price and the lowest of the competitors' prices; null without a price. */
  reference_conf: number | null;
  competitor_conf: number | null;
  /** Beside competitor_ids: each competitor price's p10, p90 and derived flag; null without the lists. */
  competitor_p10s: Array<number | null> | null;
  competitor_p90s: Array<number | null> | null;
  competitor_derived: boolean[] | null;
}

interface UnitRow extends UnitColumns {
  [key: string]: string | number | boolean | null | string[] | number[] | Array<number | null> | boolean[];
}

/** A `price_stats` row's confidence rank (contract/sql/confidence-sql.ts), over its columns. */
const STATS_CONFIDENCE = new SqlFragment(priceConfidenceRankSql({
  providers: 'p.provider_count', p10: 'p.p10', p90: 'p.p90', price: 'p.median_rate', medicareRate: 'p.medicare_rate', derived: 'p.derived',
}), []);

/**
 * The pre-computed medians per unit (every class: the chips apply after the claims), from
 * `price_stats`: the market rows of each insurer's chosen snapshot, or with shared providers the
 * `shared` rows the converter matched for the month itself (`price_stats.month`; the reference's
 * against every competitor of the dataset, so no selection enters them); with each price's p10,
 * p90, derived and confidence rank `conf` (docs/methodology.md, Confidence and distribution).
 */
export function statsPrices(s: Pick<Selection, 'state' | 'sharedProviders' | 'billed'>): SqlFragment {
  const state = s.state === EVERY_STATE ? sql`` : sql`AND p.state = ${s.state}`;
  const scope = priceScope(s.sharedProviders === true, s.billed === true);
  const join = isMonthScope(scope)
    ? sql`p.insurer_id = c.insurer_id AND p.month = c.month`
    : sql`p.insurer_id = c.insurer_id AND p.snapshot = c.snapshot`;
  return sql`
    SELECT c.month, p.insurer_id, p.billing_code, p.billing_class, p.component, p.setting, p.state,
      p.median_rate::DOUBLE AS price, p.provider_count::INTEGER AS provider_count, p.medicare_rate::DOUBLE AS medicare_rate,
      p.p10::DOUBLE AS p10, p.p90::DOUBLE AS p90, p.derived AS derived, ${STATS_CONFIDENCE} AS conf
    FROM price_stats p JOIN chosen c ON ${join}
    WHERE p.scope = ${scope} AND p.billing_class IN (${UNIT_BILLING_CLASSES}) ${state}`;
}

/**
 * Per (month, state, unit): price(s, R) and its support, the competitors' medians with their support
 * and their mean, the unit's Medicare amount, and the code's claims per class (`claims_totals`,
 * built here on first use: db/prepare-tables.ts), in one statement for every month asked, ordered
 * by (month, state, code). Columns: UnitRow's. Also read by overpayment-sql.ts.
 * @throws DatabaseError when claims_totals cannot be built
 */
export function unitsQuery(ctx: ApiContext, s: Selection, months: readonly string[], claimsByState: boolean, datasetCompetitors: readonly string[]): SqlFragment {
  ensureClaimsTotals(ctx.db);
  const category = s.category === undefined ? sql`` : sql`AND s.category = ${s.category}`;
  const services = s.services === undefined ? sql`` : sql`AND s.billing_code IN (${s.services})`;
  const insurers = [s.reference, ...s.competitors];
  const shared = s.sharedProviders === true;
  const prices =
    s.providers === undefined
      ? statsPrices(s)
      : providerPrices({ state: s.state, providers: s.providers, insurers, sharedWith: shared ? s.reference : undefined, billed: s.billed });
  // A provider selection at shared providers matches against every insurer of the dataset.
  const chosenAll =
    shared && s.providers !== undefined ? sql`, chosen_all AS (${chosenRows(ctx, months, [s.reference, ...datasetCompetitors])})` : sql``;
  const claimsState = claimsByState ? sql`u.state` : sql`${ALL_STATES}`;
  // Three parallel lists rather than a list of structs: Arrow's struct rows cost the conversion to
  // plain values (workers/db/database.ts) several times what the whole query does.
  const competitor = sql`FILTER (WHERE p.insurer_id <> ${s.reference})`;
  const competitorPrices =
    s.competitorPrices === false
      ? sql`NULL AS competitor_ids, NULL AS competitor_medians, NULL AS competitor_counts,
        NULL AS competitor_p10s, NULL AS competitor_p90s, NULL AS competitor_derived`
      : sql`coalesce(list(p.insurer_id ORDER BY p.insurer_id) ${competitor}, []::VARCHAR[]) AS competitor_ids,
        coalesce(list(p.price ORDER BY p.insurer_id) ${competitor}, []::DOUBLE[]) AS competitor_medians,
        coalesce(list(p.provider_count ORDER BY p.insurer_id) ${competitor}, []::INTEGER[]) AS competitor_counts,
        coalesce(list(p.p10 ORDER BY p.insurer_id) ${competitor}, []::DOUBLE[]) AS competitor_p10s,
        coalesce(list(p.p90 ORDER BY p.insurer_id) ${competitor}, []::DOUBLE[]) AS competitor_p90s,
        coalesce(list(coalesce(p.derived, false) ORDER BY p.insurer_id) ${competitor}, []::BOOLEAN[]) AS competitor_derived`;
  // The prices are grouped to units on their own keys first, and only the unit rows (a tenth of
  // the price rows) are joined to the service's text columns and claims: grouping or hash-joining
  // every price row with those columns costs DuckDB several times the whole aggregation.
  const a = s.alertCandidates;
  const outlier = ALERT_OUTLIER_PCT - ALERT_SLACK_PCT;
  const change = ALERT_CHANGE_PCT - ALERT_SLACK_PCT;
  const candidates = a
    ? sql`,
    moves AS (
      SELECT state, billing_code,
        max(reference_price) FILTER (WHERE month = ${a.latest}) AS ref_now,
        max(reference_price) FILTER (WHERE month = ${a.previous ?? ''}) AS ref_before,
        max(market_average) FILTER (WHERE month = ${a.latest}) AS market_now,
        max(market_average) FILTER (WHERE month = ${a.previous ?? ''}) AS market_before
      FROM units GROUP BY state, billing_code, billing_class, component, setting),
    candidates AS (
      SELECT DISTINCT state, billing_code FROM moves
      WHERE (market_now <> 0 AND 100 * (ref_now - market_now) / market_now >= ${outlier})
        OR (ref_before <> 0 AND 100 * (ref_now - ref_before) / ref_before >= ${change})
        OR (market_before <> 0 AND abs(100 * (market_now - market_before) / market_before) >= ${change}))`
    : sql``;
  const onlyCandidates = a ? sql`SEMI JOIN candidates k ON k.state = u.state AND k.billing_code = u.billing_code` : sql``;
  return sql`
    WITH chosen AS (${chosenRows(ctx, months, insurers)})${chosenAll},
    wanted AS (SELECT billing_code FROM services s WHERE s.billing_code_type IN (${SERVICE_CODE_TYPES}) ${category} ${services}),
    prices AS (${prices}),
    units AS (
      SELECT p.month, p.state, p.billing_code, p.billing_class, p.component, p.setting,
        max(p.price) FILTER (WHERE p.insurer_id = ${s.reference}) AS reference_price,
        max(p.provider_count) FILTER (WHERE p.insurer_id = ${s.reference}) AS reference_providers,
        max(p.p10) FILTER (WHERE p.insurer_id = ${s.reference}) AS reference_p10,
        max(p.p90) FILTER (WHERE p.insurer_id = ${s.reference}) AS reference_p90,
        coalesce(bool_or(p.derived) FILTER (WHERE p.insurer_id = ${s.reference}), false) AS reference_derived,
        min(p.conf) FILTER (WHERE p.insurer_id = ${s.reference}) AS reference_conf,
        min(p.conf) ${competitor} AS competitor_conf,
        avg(p.price) FILTER (WHERE p.insurer_id <> ${s.reference}) AS market_average,
        sum(p.provider_count) FILTER (WHERE p.insurer_id <> ${s.reference})::INTEGER AS competitor_provider_total,
        ${competitorPrices},
        max(p.medicare_rate) AS medicare_rate
      FROM prices p SEMI JOIN wanted w ON w.billing_code = p.billing_code
      GROUP BY p.month, p.state, p.billing_code, p.billing_class, p.component, p.setting)${candidates}
    SELECT u.month, u.state, s.billing_code AS service_code, s.billing_code_type, s.name AS service_name,
      s.published_name, s.category, u.billing_class, u.component, u.setting,
      u.reference_price, u.reference_providers, u.market_average, u.competitor_provider_total,
      u.competitor_ids, u.competitor_medians, u.competitor_counts, u.medicare_rate,
      u.reference_p10, u.reference_p90, u.reference_derived, u.reference_conf, u.competitor_conf,
      u.competitor_p10s, u.competitor_p90s, u.competitor_derived,
      coalesce(cl.professional, 0) AS claims_professional,
      coalesce(cl.institutional, 0) AS claims_institutional
    FROM units u ${onlyCandidates}
    JOIN services s ON s.billing_code = u.billing_code
    LEFT JOIN claims_totals cl ON cl.billing_code = u.billing_code AND cl.state = ${claimsState}
    ORDER BY u.month, u.state, u.billing_code`;
}

/**
 * The record of unit `r` given its claims_volume (claimsByUnit over its code) and the fewest
 * providers a price may rest on: every derived figure from contract/rules/metrics.ts, its confidence from
 * unit-confidence.ts (reasons naming insurers by `names`).
 */
export function unitRecord(r: UnitColumns, claims: number, minProviders: number, names: ConfidenceNames): PricedService {
  const variance = referenceVariance(r.reference_price, r.market_average);
  const overpayment = variance == null ? null : r.reference_price! - r.market_average!;
  const ids = r.competitor_ids ?? [];
  const competitors = ids.map((id, i) => ({ id, price: r.competitor_medians![i]!, providers: r.competitor_counts![i]! }));
  const competitorPct = competitors
    .map((c) => [c.id, medicarePct(c.price, r.medicare_rate)] as const)
    .filter((e): e is readonly [string, number] => e[1] !== null);
  const referenceProviders = r.reference_price === null ? 0 : (r.reference_providers ?? 0);
  const competitorProviders = r.market_average === null ? 0 : (r.competitor_provider_total ?? 0);
  const reason = thinReason(
    r.reference_price === null ? null : referenceProviders,
    r.market_average === null ? null : competitorProviders,
    minProviders,
  );
  // Mean of the competitors' % of Medicare; without their list (competitorPrices false) the same
  // from the mean price, the unit's benchmark being one amount.
  const marketPct =
    r.competitor_ids === null
      ? medicarePct(r.market_average, r.medicare_rate)
      : competitorPct.length === 0
        ? null
        : competitorPct.reduce((a, [, x]) => a + x, 0) / competitorPct.length;
  return {
    state: r.state,
    service_code: r.service_code,
    billing_code_type: r.billing_code_type,
    service_name: r.service_name,
    published_name: r.published_name ?? null,
    category: r.category,
    billing_class: r.billing_class,
    component: r.component,
    setting: r.setting,
    reference_price: r.reference_price,
    competitor_prices: Object.fromEntries(competitors.map((c) => [c.id, c.price])),
    market_average: r.market_average,
    reference_variance: variance,
    overpayment,
    claims_volume: claims,
    potential_savings: potentialSavings(overpayment, claims),
    anthem_price: r.reference_price,
    anthem_variance: variance,
    medicare_rate: r.medicare_rate,
    reference_medicare_pct: medicarePct(r.reference_price, r.medicare_rate),
    competitor_medicare_pct: Object.fromEntries(competitorPct),
    market_medicare_pct: marketPct,
    reference_providers: referenceProviders,
    competitor_providers: Object.fromEntries(competitors.map((c) => [c.id, c.providers])),
    thin: reason !== null,
    thin_reason: reason,
    ...confidenceFields(recordConfidence(r, reason, names.reference, names.label)),
    competitor_provider_total: competitorProviders,
  };
}

/** The dataset's `min_providers` (manifest `validation`; docs/methodology.md default 2 for a manifest without it). */
export function minProvidersOf(ctx: ApiContext): number {
  return ctx.manifest.validation?.min_providers ?? DEFAULT_VALIDATION.min_providers;
}

/**
 * The units priced by the reference or a selected competitor, one record per (state, unit), the
 * units of one code in compareUnits order. Claims weights: the state's own claims when the manifest
 * says `claims_by_state`, else national (docs/methodology.md, Dashboard figures: per-state claims weights), each class's count
 * to its main unit. @throws DatabaseError
 */
export function priceServices(ctx: ApiContext, s: PricingSelection): PricedService[] {
  return priceServicesByMonth(ctx, s, [s.snapshot]).get(s.snapshot) ?? [];
}

/**
 * priceServices for every competitor and every billing class, without competitor prices: the
 * market's units in `state` (EVERY_STATE: all) at `snapshot` (default the latest), over every
 * provider or at shared providers, which the regional screens read. @throws DatabaseError
 */
export function priceMarket(ctx: ApiContext, state: string, p: { snapshot?: string; shared_providers?: boolean; billed?: boolean }): PricedService[] {
  return priceServices(ctx, {
    snapshot: p.snapshot ?? latestSnapshot(ctx),
    reference: ctx.manifest.reference_insurer,
    competitors: allCompetitors(ctx),
    billingClass: 'all',
    state,
    competitorPrices: false,
    sharedProviders: p.shared_providers === true,
    billed: p.billed === true,
  });
}

/**
 * `priceServices` for several months M at once (one statement): month -> records; a month without
 * any priced unit maps to no entry. @throws DatabaseError
 */
export function priceServicesByMonth(ctx: ApiContext, s: Selection, months: readonly string[]): Map<string, PricedService[]> {
  const { db, manifest } = ctx;
  if (s.providers !== undefined && s.state === EVERY_STATE) throw new Error('a provider selection needs one state');
  if (s.providers === undefined) assertStatsLoaded(ctx, s, months);
  const minProviders = effectiveMinProviders(minProvidersOf(ctx), s.providers?.length);
  const out = new Map<string, PricedService[]>();
  const names = confidenceNames(ctx);
  const flush = (units: UnitRow[]): void => {
    if (units.length === 0) return;
    units.sort(compareUnits);
    const first = units[0]!;
    // Claims go to each class's main unit among ALL units of the code (before the chips pick units);
    // a `both` unit belongs to the professional class when the code has no professional unit with a
    // reference price (contract/rules/metrics.ts claimsByUnit).
    const claims = claimsByUnit(
      units.map((u) => ({ ...u, reference_providers: u.reference_price === null ? 0 : (u.reference_providers ?? 0) })),
      { professional: first.claims_professional, institutional: first.claims_institutional },
    );
    const list = out.get(first.month) ?? [];
    units.forEach((u, i) => {
      if (unitPassesClassFilter(s.billingClass, u.billing_class)) list.push(unitRecord(u, claims[i]!, minProviders, names));
    });
    if (list.length > 0) out.set(first.month, list);
  };
  // Rows come ordered by (month, state, code): the units of one code are consecutive.
  let group: UnitRow[] = [];
  for (const row of db.all<UnitRow>(unitsQuery(ctx, s, months, manifest.claims_by_state, allCompetitors(ctx)))) {
    const head = group[0];
    if (head && (head.month !== row.month || head.state !== row.state || head.service_code !== row.service_code)) {
      flush(group);
      group = [];
    }
    group.push(row);
  }
  flush(group);
  return out;
}

/** Every insurer but the reference. */
export function allCompetitors(ctx: ApiContext): string[] {
  return ctx.manifest.insurers.map((i) => i.id).filter((id) => id !== ctx.manifest.reference_insurer);
}

