/** bandFactors (scripts/sample/market-band.ts): competitors' national prices pulled into ±25 % of their mean. */
import { describe, expect, it } from 'vitest';
import { bandFactors, median } from '../../scripts/sample/market-band';

describe('bandFactors', () => {
  it('leaves prices already inside the band alone', () => {
    // mean (100 + 120) / 2 = 110: -9.1 % and +9.1 %, inside ±25 %.
    expect([...bandFactors(new Map([['a', 100], ['b', 120]]))]).toEqual([['a', 1], ['b', 1]]);
  });

  it('pulls an outlier down until it is within 25 % of the new mean, and no further than 24 %', () => {
    const f = bandFactors(new Map([['a', 100], ['b', 100], ['c', 100], ['d', 200]]));
    // a, b, c never fall below 0.76 x mean (the mean stays >= 100): factor 1.
    expect([f.get('a'), f.get('b'), f.get('c')]).toEqual([1, 1, 1]);
    // d stops once d <= 1.25 (300 + d) / 4, i.e. d <= 375 / 2.75 = 136.36; it is clamped to
    // 1.24 x mean each pass, whose fixed point is d = 372 / 2.76 = 134.78: so 134.78 < d <= 136.36.
    const d = 200 * (f.get('d') ?? 0);
    expect(d).toBeGreaterThan(134.78);
    expect(d).toBeLessThanOrEqual(136.37);
  });

  it('takes the midpoint of the two middle values for an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5); // (2 + 3) / 2
    expect(median([5, 1, 3])).toBe(3);
  });
});
