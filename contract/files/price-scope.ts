/**
 * The scopes of `price_stats` (contract/files/dataset.ts; docs/dataset.md): which providers a price is
 * taken over, and the screens' options (`shared_providers`, `billed`; docs/methodology.md, Per
 * comparison unit) each scope stands for. Pure.
 */

/** `price_stats.scope` of the medians over every provider. */
export const MARKET_SCOPE = 'market' as const;
/** `price_stats.scope` of the medians at shared providers (docs/methodology.md, Per comparison unit, At shared providers), per month. */
export const SHARED_SCOPE = 'shared' as const;
/** `price_stats.scope` of the medians at billing providers (docs/methodology.md, Per comparison unit, Where we bill it), per snapshot. */
export const BILLED_SCOPE = 'billed' as const;
/** `price_stats.scope` of the medians at shared providers that are billing providers, per month. */
export const SHARED_BILLED_SCOPE = 'shared_billed' as const;
export type PriceScope = typeof MARKET_SCOPE | typeof SHARED_SCOPE | typeof BILLED_SCOPE | typeof SHARED_BILLED_SCOPE;
/**
 * `price_stats.scope` of the market band of the comparison's default selection (docs/methodology.md,
 * Confidence and distribution), per month: the provider medians of every competitor of the dataset
 * pooled (insurer_id and snapshot NULL), over every provider. Not a price of one insurer: no screen
 * option stands for it.
 */
export const MARKET_BAND_SCOPE = 'market_band' as const;
/** The scopes of `price_stats` rows: the prices' and the market band's. */
export type StatsScope = PriceScope | typeof MARKET_BAND_SCOPE;

/** The scope of the screens' options `shared_providers` and `billed` (docs/methodology.md, Per comparison unit). */
export function priceScope(shared: boolean, billed: boolean): PriceScope {
  if (billed) return shared ? SHARED_BILLED_SCOPE : BILLED_SCOPE;
  return shared ? SHARED_SCOPE : MARKET_SCOPE;
}

/** Why "Where we bill it" is off when `manifest.claims_by_provider` is false: the screens' and the API's reason. */
export const BILLED_UNAVAILABLE = 'the claims input names no providers (no npi or tin column), so no provider is known to bill a service';

/** The screens' options a scope stands for: the inverse of priceScope. */
export const scopeOptions = (scope: PriceScope): { sharedProviders: boolean; billed: boolean } =>
  ({ sharedProviders: scope === SHARED_SCOPE || scope === SHARED_BILLED_SCOPE, billed: scope === BILLED_SCOPE || scope === SHARED_BILLED_SCOPE });

/** Whether `scope`'s rows are matched per month (`price_stats.month`) rather than per snapshot. */
export const isMonthScope = (scope: StatsScope): boolean => scope === MARKET_BAND_SCOPE || scopeOptions(scope).sharedProviders;
