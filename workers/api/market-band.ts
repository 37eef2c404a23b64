/**
 * `GET /api/market-band`: the market band of each unit of a page of the live comparison
 * (docs/methodology.md, Confidence and distribution): p25-p75 of the selected competitors'
 * provider medians pooled, from the rate rows of the page's codes (loaded by code on demand), under
 * the same month, state, provider selection and options as the page's prices (provider-prices.ts
 * marketBand). The screen asks for it once the page's prices are shown: a band needs every
 * competitor's providers, which `price_stats` does not keep.
 */
import type { MarketBand, MarketBandParams, MarketBandResult } from '../../contract/api';
import { MARKET_BAND_MAX_SERVICES } from '../../contract/api-live';
import { ALL_STATES } from '../../contract/dataset';
import type { PlainValue } from '../db/database';
import { sql } from '../db/sql';
import type { ApiContext } from './context';
import type { Endpoint } from './endpoint';
import { invalidParam } from './errors';
import { optional, parseCompetitors, parseList, parseProviderIds, parseProviderOptions, parseSnapshot, parseStateCode, required } from './params';
import { allCompetitors, latestSnapshot } from './pricing-core';
import { marketBand as marketBandSql } from './provider-prices';
import { BILLING_CODE } from './service-pricing';
import { chosenRows } from './stats-selection';

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

async function run(p: MarketBandParams, ctx: ApiContext): Promise<MarketBandResult> {
  const snapshot = p.snapshot ?? latestSnapshot(ctx);
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
  const bands = ctx.db.all<MarketBand & Record<string, PlainValue>>(sql`
    WITH chosen AS (${chosenRows(ctx, [snapshot], competitors)})${chosenAll}
    SELECT billing_code AS service_code, billing_class, component, setting, p25, p75, providers
    FROM (${band}) ORDER BY billing_code, billing_class, component, setting`);
  return { snapshot, bands };
}

export const marketBand: Endpoint<'GET /api/market-band'> = {
  route: 'GET /api/market-band',
  pure: true,
  parse,
  run,
};
