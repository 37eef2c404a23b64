/**
 * `GET /api/market-band`: the market band of each unit of a page of the live comparison
 * (docs/methodology.md, Confidence and distribution): p25-p75 of the selected competitors'
 * provider medians pooled, from the rate rows of the page's codes (loaded by code on demand), under
 * the same month, state, provider selection and options as the page's prices (provider-prices.ts
 * marketBand). The screen asks for it once the page's prices are shown.
 *
 * The comparison's default selection (every competitor of the dataset, every provider, neither
 * option) reads the bands the converter stored (`price_stats` rows of scope `market_band`, per
 * month and state: scripts/convert/build/stats/market-bands.ts), the same figures to the last bit
 * (test/generate/price-stats.test.ts, test/worker/market-band.test.ts), without the page's rate
 * rows: those cost a read of every rate row group that holds one of the page's codes.
 */
import type { MarketBand, MarketBandParams, MarketBandResult } from '../../contract/api';
import { MARKET_BAND_MAX_SERVICES } from '../../contract/api';
import { ALL_STATES, MARKET_BAND_SCOPE } from '../../contract/files/dataset';
import { isStoredBandSelection } from '../../contract/rules/market-band';
import type { PlainValue } from '../db/database';
import { sql } from '../db/sql';
import type { StatsNeed } from '../db/stats';
import type { ApiContext } from '../context';
import type { Endpoint } from './endpoint';
import { invalidParam } from './errors';
import { optional, parseCompetitors, parseList, parseProviderIds, parseProviderOptions, parseSnapshot, parseStateCode, required } from './params';
import { allCompetitors, latestSnapshot } from '../pricing/pricing-core';
import { marketBand as marketBandSql } from '../pricing/provider-prices';
import { BILLING_CODE } from './service-pricing';
import { chosenRows } from '../pricing/stats-selection';

function parse(query: Readonly<Record<string, string>>, { manifest }: ApiContext): MarketBandParams {
  const services = required(query, 'services');
  const codes = parseList(services);
  if (codes.length === 0 || codes.length > MARKET_BAND_MAX_SERVICES) throw invalidParam('services', services);
  for (const c of codes) if (!BILLING_CODE.test(c)) throw invalidParam('services', c);
  const p: MarketBandParams = { services: codes };
  const competitors = parseCompetitors(query, manifest);
  if (competitors) p.competitors = competitors;
  const state = optional(query, 'state');
  if (state !== undefined) p.state = parseStateCode('state', state);
  const providers = parseProviderIds(query);
  if (providers) p.providers = providers;
  return { ...p, ...parseSnapshot(query, manifest.snapshots), ...parseProviderOptions(query, manifest) };
}

/** Whether `p` is the comparison's default selection, whose bands the converter stored (contract/rules/market-band.ts). */
export function storedBands(p: MarketBandParams, ctx: ApiContext): boolean {
  return isStoredBandSelection(p, allCompetitors(ctx));
}

/** The `price_stats` rows of the stored bands `p` reads: its month's `market_band` rows, national or of its state. */
function bandNeed(p: MarketBandParams, ctx: ApiContext): StatsNeed | null {
  if (!storedBands(p, ctx)) return null;
  const months = [p.snapshot ?? latestSnapshot(ctx)];
  return p.state === undefined ? { months, scope: MARKET_BAND_SCOPE, states: 'national' } : { months, scope: MARKET_BAND_SCOPE, states: 'states', state: p.state };
}

/** The stored bands of `p`'s codes at month `snapshot` (storedBands; its price_stats rows loaded: bandNeed). */
export function storedBandRows(p: MarketBandParams, snapshot: string, ctx: ApiContext): MarketBand[] {
  return ctx.db.all<MarketBand & Record<string, PlainValue>>(sql`
    SELECT billing_code AS service_code, billing_class, component, setting, p25::DOUBLE AS p25, p75::DOUBLE AS p75, provider_count::INTEGER AS providers
    FROM price_stats WHERE scope = ${MARKET_BAND_SCOPE} AND month = ${snapshot} AND state = ${p.state ?? ALL_STATES}
      AND billing_code IN (${p.services})
    ORDER BY billing_code, billing_class, component, setting`);
}

/**
 * The bands of `p` at month `snapshot` from the rate rows of its codes (loaded here), under any
 * selection. @throws SourceError, DatabaseError as the loads
 */
export async function rateRowBands(p: MarketBandParams, snapshot: string, ctx: ApiContext): Promise<MarketBand[]> {
  const competitors = p.competitors ?? allCompetitors(ctx);
  const reference = ctx.manifest.reference_insurer;
  const shared = p.shared_providers === true;
  await Promise.all([ctx.rates.ensure(p.services), ctx.providerGroups.ensureMonths([snapshot]), p.billed === true ? ctx.billingProviders() : undefined]);
  // at shared providers, every insurer of the dataset says where the other side has a rate (provider-prices.ts)
  const chosenAll = shared ? sql`, chosen_all AS (${chosenRows(ctx, [snapshot], [reference, ...allCompetitors(ctx)])})` : sql``;
  const band = marketBandSql({
    state: p.state ?? ALL_STATES, providers: p.providers, codes: p.services, insurers: competitors,
    sharedWith: shared ? reference : undefined, billed: p.billed,
  });
  return ctx.db.all<MarketBand & Record<string, PlainValue>>(sql`
    WITH chosen AS (${chosenRows(ctx, [snapshot], competitors)})${chosenAll}
    SELECT billing_code AS service_code, billing_class, component, setting, p25, p75, providers
    FROM (${band}) ORDER BY billing_code, billing_class, component, setting`);
}

async function run(p: MarketBandParams, ctx: ApiContext): Promise<MarketBandResult> {
  const snapshot = p.snapshot ?? latestSnapshot(ctx);
  const bands = storedBands(p, ctx) ? storedBandRows(p, snapshot, ctx) : await rateRowBands(p, snapshot, ctx);
  return { snapshot, bands };
}

export const marketBand: Endpoint<'GET /api/market-band'> = {
  route: 'GET /api/market-band',
  pure: true,
  parse,
  // the stored bands are price_stats rows; the rate rows' path joins the providers and their groups
  reads: (p, ctx) => (storedBands(p, ctx) ? 'first-tables' : 'every-table'),
  stats: bandNeed,
  run,
};
