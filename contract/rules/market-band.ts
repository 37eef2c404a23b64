/**
 * Which market bands the converter stores (docs/methodology.md, Confidence and distribution;
 * `price_stats` rows of scope `market_band`, scripts/convert/build/stats/market-bands.ts): those of the live
 * comparison's default selection. The worker answers them from those rows
 * (workers/api/market-band.ts) and the screen asks for them at once; any other selection is
 * computed from the page's rate rows, which the screen asks for only once the page has stayed. Pure.
 */
import type { MarketBandParams } from '../api';

/**
 * Whether the band request `p` is the default selection, whose bands are stored: every competitor
 * of the dataset (`datasetCompetitors`: every insurer but the reference; `p.competitors` absent or
 * the same set), every provider, neither "At shared providers" nor "Where we bill it".
 */
export function isStoredBandSelection(p: Pick<MarketBandParams, 'competitors' | 'providers' | 'shared_providers' | 'billed'>,
  datasetCompetitors: readonly string[]): boolean {
  if (p.providers !== undefined || p.shared_providers === true || p.billed === true) return false;
  if (p.competitors === undefined) return true;
  const asked = new Set(p.competitors);
  return asked.size === datasetCompetitors.length && datasetCompetitors.every((id) => asked.has(id));
}
