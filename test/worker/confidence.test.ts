/**
 * Confidence and position (docs/methodology.md, Confidence and distribution), the pure rules of
 * contract/rules/confidence.ts, on the cases of the methodology: support, spread, Medicare, derived rates,
 * a unit's lowest, a thin unit, the ±5 % position and the minimum-confidence filter.
 */
import { describe, expect, it } from 'vitest';
import { passesMinConfidence, positionOf, priceConfidence, unitConfidence } from '../../contract/rules/confidence';

const base = { providers: 8, p10: 100, p90: 150, medicarePct: 180, derived: false };

describe('a price\'s confidence', () => {
  it('is high on 5 providers or more within 2x, at 75-400 % of Medicare, of contract rates', () => {
    expect(priceConfidence(base)).toEqual({ confidence: 'high', reasons: [] });
    expect(priceConfidence({ ...base, providers: 5, p10: 100, p90: 200, medicarePct: 400 })).toEqual({ confidence: 'high', reasons: [] });
    expect(priceConfidence({ ...base, medicarePct: null })).toEqual({ confidence: 'high', reasons: [] });
  });

  it('is low on 5 providers spread 6x, medium on 3 providers whatever their spread, low on 1', () => {
    expect(priceConfidence({ ...base, providers: 5, p10: 50, p90: 300 })).toEqual({ confidence: 'low', reasons: ["providers' prices spread 6x (p90 / p10)"] });
    expect(priceConfidence({ ...base, providers: 5, p10: 100, p90: 350 }).confidence).toBe('medium');
    expect(priceConfidence({ ...base, providers: 3, p10: 10, p90: 900 })).toEqual({ confidence: 'medium', reasons: ['rests on 3 providers'] });
    expect(priceConfidence({ ...base, providers: 1, p10: 120, p90: 120 })).toEqual({ confidence: 'low', reasons: ['rests on 1 provider'] });
  });

  it('is low at 1,200 % of Medicare, medium at 60 % or 500 %', () => {
    expect(priceConfidence({ ...base, medicarePct: 1200 })).toEqual({ confidence: 'low', reasons: ['1,200 % of Medicare'] });
    expect(priceConfidence({ ...base, medicarePct: 60 }).confidence).toBe('medium');
    expect(priceConfidence({ ...base, medicarePct: 500 }).confidence).toBe('medium');
    expect(priceConfidence({ ...base, medicarePct: 40 }).confidence).toBe('low');
  });

  it('is at most medium on derived rates, and names every check that lowered it', () => {
    expect(priceConfidence({ ...base, derived: true })).toEqual({ confidence: 'medium', reasons: ['rests on derived rates (an estimate, not a contract term)'] });
    expect(priceConfidence({ ...base, providers: 3, medicarePct: 1200, derived: true })).toEqual({
      confidence: 'low', reasons: ['rests on 3 providers', '1,200 % of Medicare', 'rests on derived rates (an estimate, not a contract term)'],
    });
  });
});

describe("a unit's confidence and position", () => {
  it('is the lowest of its prices, each reason said once with whose prices it lowers; a thin unit is low', () => {
    const high = priceConfidence(base);
    const medium = priceConfidence({ ...base, providers: 3 });
    const low = priceConfidence({ ...base, providers: 3, derived: true, medicarePct: 1200 });
    expect(unitConfidence([{ who: 'Reference', result: high }, { who: 'Alpha', result: medium }], null))
      .toEqual({ confidence: 'medium', reasons: ['rests on 3 providers (Alpha)'] });
    expect(unitConfidence([{ who: 'Reference', result: medium }, { who: 'Alpha', result: low }, { who: 'Beta', result: medium }], null)).toEqual({
      confidence: 'low',
      reasons: ['rests on 3 providers (Reference, Alpha, Beta)', '1,200 % of Medicare (Alpha)', 'rests on derived rates (an estimate, not a contract term) (Alpha)'],
    });
    expect(unitConfidence([{ who: 'Reference', result: high }], 'reference price rests on 1 provider'))
      .toEqual({ confidence: 'low', reasons: ['too few providers: reference price rests on 1 provider'] });
  });

  it('is above market over +5 %, at market within ±5 %, below under -5 %', () => {
    expect([5.01, 5, 0, -5, -5.01, null].map(positionOf)).toEqual(['above market', 'at market', 'at market', 'at market', 'below market', null]);
  });

  it('passes a minimum confidence at or above it', () => {
    expect(passesMinConfidence('low', null)).toBe(true);
    expect(passesMinConfidence('low', 'medium')).toBe(false);
    expect(passesMinConfidence('medium', 'medium')).toBe(true);
    expect(passesMinConfidence('medium', 'high')).toBe(false);
    expect(passesMinConfidence('high', 'high')).toBe(true);
  });
});
