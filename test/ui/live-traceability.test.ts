/**
 * The live dashboard's ways to the rows behind a figure (traceability): the mean of the
 * competitors' medians under the rate-rows dialog (docs/methodology.md, Per comparison unit: market_average) and
 * the live comparison a Top 10 bar opens (URL state `services`, `overpaying`).
 */
import { describe, expect, it } from 'vitest';
import { comparisonPathOf } from '../../src/live/components/dashboard-figures';
import { meanOfMedians } from '../../src/live/components/mean-of-medians';
import { parseLiveComparison } from '../../src/live/url-state/live-comparison-state';

describe('meanOfMedians', () => {
  it('averages the medians that exist and names the insurers without one', () => {
    // (600 + 640) / 2 = 620; Beta has no dollar rate in the state.
    const text = meanOfMedians('Market Avg in NY', [
      { insurer_name: 'Alpha Care', median: 600 }, { insurer_name: 'Beta Health Plan', median: null }, { insurer_name: 'Gamma Mutual', median: 640 },
    ]);
    expect(text).toBe('Market Avg in NY = mean of 2 medians (Alpha Care $600, Gamma Mutual $640) = $620. No dollar rate here: Beta Health Plan.');
  });

  it('rounds the mean to whole dollars like the modal, and says when no insurer has a price', () => {
    // (105 + 90 + 150) / 3 = 115; (100 + 101) / 2 = 100.5 -> $101 (half away from zero).
    expect(meanOfMedians('M', [{ insurer_name: 'A', median: 105 }, { insurer_name: 'B', median: 90 }, { insurer_name: 'C', median: 150 }])).toBe('M = mean of 3 medians (A $105, B $90, C $150) = $115.');
    expect(meanOfMedians('M', [{ insurer_name: 'A', median: 100 }, { insurer_name: 'B', median: 101 }])).toBe('M = mean of 2 medians (A $100, B $101) = $101.');
    expect(meanOfMedians('M', [{ insurer_name: 'A', median: 7 }])).toBe('M = mean of 1 median (A $7) = $7.');
    expect(meanOfMedians('M', [{ insurer_name: 'A', median: null }])).toBe('M: no insurer has a dollar rate here.');
  });
});

describe('comparisonPathOf', () => {
  it('selects the one service; a service not above market also shows non-overpaying services', () => {
    expect(comparisonPathOf('70551', 20.69)).toBe('/live-comparison?services=70551');
    const below = comparisonPathOf('85025', -23.08);
    expect(below).toBe('/live-comparison?overpaying=0&services=85025');
    const state = parseLiveComparison(new URLSearchParams(below.split('?')[1]));
    expect([state.services, state.overpayingOnly, state.page]).toEqual([['85025'], false, 0]);
  });
});
