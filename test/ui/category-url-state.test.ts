/**
 * The live comparison's category filter in the URL (src/live/url-state/categories.ts): any category
 * of the dataset is kept as `category=<name>` (not only the derived ones), sent to the API as is,
 * put in the CSV file name, and the categories offered are the distinct ones of the services.
 */
import { describe, expect, it } from 'vitest';
import { comparisonFileName } from '../../src/live/components/comparison-csv';
import { datasetCategories, parseCategory } from '../../src/live/url-state/categories';
import {
  DEFAULT_STATE, parseLiveComparison, pricingParams, withChange, writeLiveComparison,
} from '../../src/live/url-state/live-comparison-state';

describe('category in the live comparison URL', () => {
  it('keeps a category of the dataset that is no derived one (Laboratory, Vaccines)', () => {
    for (const category of ['Laboratory', 'Vaccines', 'Office visit', 'Lab']) {
      const url = writeLiveComparison(new URLSearchParams('other=1'), { ...DEFAULT_STATE, category, sharedProviders: true });
      expect(url.get('category')).toBe(category);
      expect(url.get('shared_providers')).toBe('1');
      expect(url.get('other')).toBe('1');
      expect(parseLiveComparison(url).category).toBe(category);
    }
    expect(writeLiveComparison(new URLSearchParams('category=Surgery&page=3'), { ...DEFAULT_STATE, category: null }).toString()).toBe('');
  });

  it('reads a category from a link: trimmed; absent, empty or over 100 characters = all categories', () => {
    expect(parseLiveComparison(new URLSearchParams('category=Office+visit')).category).toBe('Office visit');
    expect(parseCategory(new URLSearchParams('category=%20Surgery%20'))).toBe('Surgery');
    expect(parseCategory(new URLSearchParams(''))).toBeNull();
    expect(parseCategory(new URLSearchParams('category=%20'))).toBeNull();
    expect(parseCategory(new URLSearchParams({ category: 'x'.repeat(101) }))).toBeNull();
  });

  it('choosing a category goes back to page 1 and is sent to the API as is', () => {
    const s = withChange({ ...DEFAULT_STATE, page: 4 }, { category: 'Laboratory' });
    expect(s.page).toBe(0);
    expect(pricingParams(s, ['alpha'])).toMatchObject({ category: 'Laboratory', offset: 0 });
    expect(pricingParams(DEFAULT_STATE, [])).not.toHaveProperty('category');
  });

  it('names the CSV export after the category, beside "shared providers"', () => {
    const s = { ...DEFAULT_STATE, category: 'Office visit', sharedProviders: true };
    expect(comparisonFileName(s, ['alpha', 'beta'], 2)).toBe('live-comparison_category-office-visit_shared-providers_page-1-of-50.csv');
    expect(comparisonFileName({ ...s, category: null }, ['alpha', 'beta'], 2)).toBe('live-comparison_shared-providers_page-1-of-50.csv');
  });

  it('offers the distinct categories of the services, sorted, empty ones left out', () => {
    const services = [
      { category: 'Surgery' }, { category: 'Laboratory' }, { category: 'laboratory' }, { category: 'Surgery' }, { category: '' }, { category: null },
    ];
    expect(datasetCategories(services.map((s) => s.category))).toEqual(['Laboratory', 'laboratory', 'Surgery']);
    expect(datasetCategories([])).toEqual([]);
  });
});
