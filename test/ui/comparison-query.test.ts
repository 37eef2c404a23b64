// The live comparison's URL state (page, rows per page, category) and its API parameters.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_QUERY, hasNextPage, parseComparisonQuery, servicePricingParams, withCategory, withPage, withPageSize,
  writeComparisonQuery,
} from '../../src/live/url-state/comparison-query';

const parse = (s: string) => parseComparisonQuery(new URLSearchParams(s));

describe('parseComparisonQuery', () => {
  it('defaults to page 1, 50 rows, all categories', () => {
    expect(parse('')).toEqual({ page: 0, limit: 50, category: null });
  });
  it('reads a 1-based page, a page size and a category', () => {
    expect(parse('page=3&limit=200&category=Cardiac')).toEqual({ page: 2, limit: 200, category: 'Cardiac' });
    expect(parse('category=Office+visit').category).toBe('Office visit');
  });
  it('falls back to defaults for invalid values', () => {
    expect(parse('page=0').page).toBe(0);
    expect(parse('page=-2').page).toBe(0);
    expect(parse('page=2.5').page).toBe(0);
    expect(parse('page=abc').page).toBe(0);
    expect(parse('limit=30').limit).toBe(50);
    expect(parse('limit=').limit).toBe(50);
    expect(parse('category=cardiac').category).toBeNull(); // exact names only
  });
});

describe('writeComparisonQuery', () => {
  it('omits defaults and keeps foreign keys', () => {
    expect(writeComparisonQuery(new URLSearchParams('x=1&page=4'), DEFAULT_QUERY).toString()).toBe('x=1');
  });
  it('round-trips through the URL', () => {
    const q = { page: 4, limit: 25 as const, category: 'Lab' as const };
    const text = writeComparisonQuery(new URLSearchParams(), q).toString();
    expect(text).toBe('page=5&limit=25&category=Lab');
    expect(parse(text)).toEqual(q);
  });
});

describe('transitions', () => {
  const q = { page: 3, limit: 50 as const, category: 'Lab' as const };
  it('a new page size resets to the first page', () => {
    expect(withPageSize(q, 100)).toEqual({ page: 0, limit: 100, category: 'Lab' });
  });
  it('a new category resets to the first page', () => {
    expect(withCategory(q, null)).toEqual({ page: 0, limit: 50, category: null });
  });
  it('pages never go below the first', () => {
    expect(withPage(q, -1).page).toBe(0);
    expect(withPage(q, 4).page).toBe(4);
  });
});

describe('servicePricingParams', () => {
  it('offset = page x limit', () => {
    // page index 2 x 50 rows = offset 100
    expect(servicePricingParams({ page: 2, limit: 50, category: null })).toEqual({ limit: 50, offset: 100 });
    // page index 0 x 25 = 0
    expect(servicePricingParams({ page: 0, limit: 25, category: 'Radiology' })).toEqual({
      limit: 25, offset: 0, category: 'Radiology',
    });
  });
});

describe('hasNextPage', () => {
  it('is true only when the returned count equals the page size', () => {
    expect(hasNextPage(50, 50)).toBe(true);
    expect(hasNextPage(49, 50)).toBe(false);
    expect(hasNextPage(0, 25)).toBe(false);
  });
});
