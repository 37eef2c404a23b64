/**
 * `GET /api/insurers`: the dataset's insurers as LiveInsurer (contract/api/index.ts), from the manifest
 * alone. Reference insurer (manifest `reference_insurer`) first, then by market share descending,
 * ties by id. Query parameters are ignored.
 */
import type { LiveInsurer } from '../../contract/api';
import type { Endpoint } from './endpoint';

/** 0..1 share to percent, without binary noise (0.28 x 100 = 28.000000000000004 -> 28). */
function percent(share: number): number {
  return Number((share * 100).toPrecision(12));
}

export const insurers: Endpoint<'GET /api/insurers'> = {
  route: 'GET /api/insurers',
  reads: 'first-tables',
  parse: () => ({}),
  run(_params, { manifest }): LiveInsurer[] {
    const ref = manifest.reference_insurer;
    return manifest.insurers
      .map((i) => ({
        id: i.id,
        name: i.name,
        group: i.group || i.name,
        shortName: i.short_name || i.name,
        marketShare: percent(i.market_share ?? 0),
        isReference: i.id === ref,
      }))
      .sort(
        (a, b) =>
          Number(b.isReference) - Number(a.isReference) ||
          b.marketShare - a.marketShare ||
          (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
      );
  },
};
