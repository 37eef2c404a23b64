/**
 * `GET /api/service-pricing`: the reference insurer's price of every comparison unit against the
 * selected competitors (docs/methodology.md "Per comparison unit", "Dashboard figures", "Which snapshot an
 * insurer contributes"), one record per unit, a page of them with the selection's summary cards
 * (units with a variance that are not thin; Average Overpayment from contract/rules/metrics.ts).
 *
 * Without a provider selection the answer comes from DuckDB (selection-tables.ts): the month's unit
 * pivot, the selection's summary in one statement (kept per selection), the page in another, and
 * records for the page's units only. `shared_providers=1` reads price_stats' `shared` rows
 * (docs/methodology.md, Per comparison unit, At shared providers), `billed=1` its `billed` rows
 * (Where we bill it), both together its `shared_billed` rows.
 *
 * A provider selection prices from the rate rows of those providers (pricing-core.ts, loaded by
 * billing code on demand) in a pass kept in ctx.memo (answerFromPass), whose sorts and pages are
 * picked from it. The pass prices every unit without the competitors' lists of prices
 * (`competitor_prices`, `competitor_medicare_pct`, and the `market_medicare_pct` made from them),
 * which nothing but the records shown reads; the records of a page are priced again with their
 * lists over the codes of the page and of the next units of its view (LISTS_AHEAD), kept in the
 * pass. A unit's record does not depend on the other codes priced with it, so the pages' records
 * are those of one full pass. An answer without `limit` (every unit) takes one full pass. The same
 * pass answers any selection, which is how the tests check the SQL answers.
 */
import {
  BILLING_CLASS_FILTERS,
  MIN_CONFIDENCES,
  SERVICE_SORTS,
  type LiveServicePricingRecord,
  type ServicePricingParams,
  type ServicePricingResult,
  type ServiceSort,
} from '../../contract/api';
import { passesMinConfidence } from '../../contract/rules/confidence';
import { countedAverageOverpayment, countedRecords } from '../../contract/rules/dashboard-figures';
import { ALL_STATES } from '../../contract/files/dataset';
import { compareUnits, unitRowKey } from '../../contract/rules/metrics';
import { sql } from '../db/sql';
import type { ApiContext } from '../context';
import type { Endpoint } from './endpoint';
import { invalidParam } from './errors';
import {
  optional,
  parseBoolean,
  parseCompetitors,
  parseInteger,
  parseList,
  parseOneOf,
  parseProviderIds,
  parseProviderOptions,
  parseSnapshot,
  parseStateCode,
} from './params';
import {
  allCompetitors,
  latestSnapshot,
  priceServices,
  type PricingSelection,
} from '../pricing/pricing-core';
import { selectionPage, selectionSummary, type StatsSelection } from '../pricing/selection-tables';
import { selectionNeed } from '../pricing/unit-pivot';
import { recordWithLists, serviceRecords, unitsWithLists } from '../pricing/unit-records';

/** Largest page (rows). */
export const MAX_LIMIT = 1000;

function parse(query: Readonly<Record<string, string>>, { manifest }: ApiContext): ServicePricingParams {
  const p: ServicePricingParams = {};
  const limit = optional(query, 'limit');
  if (limit !== undefined) p.limit = parseInteger('limit', limit, 1, MAX_LIMIT);
  const offset = optional(query, 'offset');
  if (offset !== undefined) p.offset = parseInteger('offset', offset, 0, Number.MAX_SAFE_INTEGER);
  const category = optional(query, 'category');
  if (category !== undefined) p.category = category;
  const cls = optional(query, 'billing_class');
  if (cls !== undefined) p.billing_class = parseOneOf('billing_class', cls, BILLING_CLASS_FILTERS);
  const state = optional(query, 'state');
  if (state !== undefined) p.state = parseStateCode('state', state);
  const competitors = parseCompetitors(query, manifest);
  if (competitors) p.competitors = competitors;
  const only = optional(query, 'only_overpaying');
  if (only !== undefined) p.only_overpaying = parseBoolean('only_overpaying', only);
  const sort = optional(query, 'sort');
  if (sort !== undefined) p.sort = parseOneOf('sort', sort, SERVICE_SORTS);
  Object.assign(p, parseSnapshot(query, manifest.snapshots));
  const providers = parseProviderIds(query);
  if (providers) p.providers = providers;
  const services = optional(query, 'services');
  if (services !== undefined) {
    const codes = parseList(services);
    for (const c of codes) if (!BILLING_CODE.test(c)) throw invalidParam('services', c);
    if (codes.length > 0) p.services = codes;
  }
  Object.assign(p, parseProviderOptions(query, manifest));
  const minConfidence = optional(query, 'min_confidence');
  if (minConfidence !== undefined) p.min_confidence = parseOneOf('min_confidence', minConfidence, MIN_CONFIDENCES);
  return p;
}

/** A billing code as published: letters, digits, '.', '-' (at most 20). */
export const BILLING_CODE = /^[A-Za-z0-9.-]{1,20}$/;

const SORT_KEY: Record<ServiceSort, (r: LiveServicePricingRecord) => number | null> = {
  overpayment: (r) => r.overpayment,
  variance: (r) => r.reference_variance,
  savings: (r) => r.potential_savings,
};

/** Descending, nulls last, ties by service_code ascending, then the unit (contract/rules/metrics.ts compareUnits). */
function compareBy(sort: ServiceSort) {
  const key = SORT_KEY[sort];
  return (a: LiveServicePricingRecord, b: LiveServicePricingRecord): number => {
    const x = key(a);
    const y = key(b);
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return y - x;
    }
    return a.service_code < b.service_code ? -1 : a.service_code > b.service_code ? 1 : compareUnits(a, b);
  };
}

/** One pricing pass of a selection (every sort and page of it), kept in ctx.memo. */
interface PricingPass {
  /** The selection's units, in pricing order; with the competitors' lists in an answer without `limit`. */
  all: LiveServicePricingRecord[];
  summary: ServicePricingResult['summary'];
  /** `sort|only_overpaying` -> the units kept, sorted (made on first use). */
  views: Map<string, LiveServicePricingRecord[]>;
  /** unitRowKey -> its record with the lists, filled page by page (an answer with `limit`). */
  priced: Map<string, LiveServicePricingRecord>;
}

/** The units of a view priced with their lists from a page on: this page's and the next ones'. */
const LISTS_AHEAD = 500;

/** The pricing selection of `params` (pricing-core.ts), with the competitors' lists when `lists`. */
function selectionOf(ctx: ApiContext, params: ServicePricingParams, snapshot: string, competitors: string[], lists: boolean): PricingSelection {
  return {
    snapshot,
    reference: ctx.manifest.reference_insurer,
    competitors,
    billingClass: params.billing_class ?? 'all',
    state: params.state ?? ALL_STATES,
    category: params.category,
    services: params.services,
    providers: params.providers,
    sharedProviders: params.shared_providers === true,
    billed: params.billed === true,
    competitorPrices: lists,
  };
}

async function pricingPass(ctx: ApiContext, params: ServicePricingParams, snapshot: string, competitors: string[], lists: boolean): Promise<PricingPass> {
  if (params.providers) {
    // Rate rows of the wanted services only (docs/architecture.md): the chips' codes, else every
    // service of the category (all row groups when no category narrows it).
    const inCategory = params.category === undefined ? sql`` : sql`WHERE category = ${params.category}`;
    const codes = params.services ?? ctx.db.all<{ c: string }>(sql`SELECT billing_code AS c FROM services ${inCategory}`).map((r) => r.c);
    // and the provider groups of the month's snapshots, every insurer's (at shared providers the
    // selection is matched against every insurer of the dataset: provider-prices.ts)
    await Promise.all([ctx.rates.ensure(codes), ctx.providerGroups.ensureMonths([snapshot]), params.billed === true ? ctx.billingProviders() : undefined]);
  }
  // units under the minimum confidence are not listed and leave the summary cards (docs/methodology.md, Confidence and distribution)
  const min = params.min_confidence ?? null;
  const all = serviceRecords(priceServices(ctx, selectionOf(ctx, params, snapshot, competitors, lists))).filter((r) => passesMinConfidence(r.confidence, min));
  // The summary cards: units with a variance that are not thin (docs/methodology.md, Dashboard figures).
  const counted = countedRecords(all);
  const summary = {
    total_potential_savings: counted.reduce((a, r) => a + r.potential_savings, 0),
    avg_overpayment: countedAverageOverpayment(all),
    services_overpaying: counted.filter((r) => r.overpayment !== null && r.overpayment > 0).length,
    services_total: counted.length,
    comparing_against: competitors.length,
  };
  return { all, summary, views: new Map(), priced: new Map() };
}

/**
 * The records of `view[offset, offset + length)` (from a pass without lists) with the competitors'
 * lists: the units not priced so far, from `offset` to LISTS_AHEAD past it, are priced again over
 * their codes and kept in the pass. @throws Error when a unit of the page is not priced again
 */
function withLists(ctx: ApiContext, params: ServicePricingParams, snapshot: string, competitors: string[], pass: PricingPass,
  view: readonly LiveServicePricingRecord[], offset: number, length: number): LiveServicePricingRecord[] {
  const page = view.slice(offset, offset + length);
  if (page.some((r) => !pass.priced.has(unitRowKey(r)))) {
    const ahead = view.slice(offset, offset + Math.max(length, LISTS_AHEAD)).filter((r) => !pass.priced.has(unitRowKey(r)));
    const priced = unitsWithLists(ctx, selectionOf(ctx, params, snapshot, competitors, true), ahead.map((r) => r.service_code));
    for (const [key, record] of priced) pass.priced.set(key, record);
  }
  return page.map((r) => recordWithLists(pass.priced, r, 'service-pricing'));
}

async function run(params: ServicePricingParams, ctx: ApiContext): Promise<ServicePricingResult> {
  if (params.providers) return answerFromPass(params, ctx);
  // From price_stats: the selection, its views and its pages in DuckDB (selection-tables.ts).
  const { snapshot, competitors, sort, offset, limit, answer } = answerBasics(params, ctx);
  const selection: StatsSelection = {
    snapshot,
    competitors,
    billingClass: params.billing_class ?? 'all',
    state: params.state ?? ALL_STATES,
    category: params.category,
    services: params.services,
    sharedProviders: params.shared_providers === true,
    billed: params.billed === true,
    minConfidence: params.min_confidence,
  };
  const onlyOverpaying = params.only_overpaying === true;
  const { summary, units, unitsOverpaying } = selectionSummary(ctx, selection);
  const records = selectionPage(ctx, selection, { sort, units: onlyOverpaying ? 'overpaying' : 'listed', offset, limit });
  return { records, total: onlyOverpaying ? unitsOverpaying : units, ...answer, summary };
}

/** What every answer of `params` states beside its records: the month, the competitors, the sort and the page. */
function answerBasics(params: ServicePricingParams, ctx: ApiContext) {
  const snapshot = params.snapshot ?? latestSnapshot(ctx);
  const competitors = params.competitors ?? allCompetitors(ctx);
  const limit = params.limit ?? null;
  const offset = params.offset ?? 0;
  const sort = params.sort ?? 'overpayment';
  return { snapshot, competitors, sort, offset, limit, answer: { offset, limit, snapshot, reference_insurer: ctx.manifest.reference_insurer, competitors } };
}

/**
 * The answer from a pricing pass in JavaScript (pricing-core.ts priceServices, the records sorted
 * here): the one for a provider selection, which prices from the rate rows, and the oracle the
 * tests hold the SQL answer of every other selection equal to. @throws DatabaseError
 */
export async function answerFromPass(params: ServicePricingParams, ctx: ApiContext): Promise<ServicePricingResult> {
  const { snapshot, competitors, sort, offset, limit, answer } = answerBasics(params, ctx);
  // What the units depend on; the sort, the filter and the page only pick from them.
  const selection = {
    snapshot,
    competitors,
    billing_class: params.billing_class,
    state: params.state,
    category: params.category,
    services: params.services,
    providers: params.providers,
    shared: params.shared_providers === true,
    billed: params.billed === true,
    min_confidence: params.min_confidence,
  };
  // Every unit asked for: one pass with the lists; a page: the pass without, the page's lists after.
  const lists = limit === null;
  const pass = await ctx.memo.get(
    `service-pricing ${lists ? 'lists' : 'figures'} ${JSON.stringify(selection)}`,
    () => pricingPass(ctx, params, snapshot, competitors, lists),
    (p) => p.all.length,
  );
  const viewKey = `${sort}|${params.only_overpaying === true}`;
  let kept = pass.views.get(viewKey);
  if (!kept) {
    kept = params.only_overpaying ? pass.all.filter((r) => r.overpayment !== null && r.overpayment > 0) : [...pass.all];
    kept.sort(compareBy(sort));
    pass.views.set(viewKey, kept);
  }
  return {
    records: limit === null ? kept.slice(offset) : withLists(ctx, params, snapshot, competitors, pass, kept, offset, limit),
    total: kept.length,
    ...answer,
    summary: pass.summary,
  };
}

export const servicePricing: Endpoint<'GET /api/service-pricing'> = {
  route: 'GET /api/service-pricing',
  // a page asked again (back to a filter, the previous page) is served as answered
  pure: true,
  // the statistics alone, unless a provider selection prices from the rate rows and provider tables
  reads: (params) => (params.providers ? 'every-table' : 'first-tables'),
  // a provider selection prices from the rate rows (pricing-core.ts)
  stats: (params, ctx) => (params.providers ? null : selectionNeed(ctx, params, params.state ?? ALL_STATES)),
  parse,
  run,
};
