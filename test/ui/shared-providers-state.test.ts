/**
 * "At shared providers" and "Where we bill it" on the live screens (docs/methodology.md, Per
 * comparison unit), the pure parts: the URL keys `shared_providers=1` and `billed=1` (absent when
 * off), the /api parameters they send, the comparison's URL state and CSV file name, and the
 * dashboard's way to the comparison carrying them.
 */
import { describe, expect, it } from 'vitest';
import { comparisonFileName } from '../../src/live/components/comparison-csv';
import { comparisonPathOf } from '../../src/live/components/dashboard-figures';
import {
  DEFAULT_STATE, parseLiveComparison, pricingParams, withChange, writeLiveComparison,
} from '../../src/live/url-state/live-comparison-state';
import {
  BILLED_HELP, parseProviderOptions, providerOptionsParam, SHARED_PROVIDERS_HELP, writeProviderOptions,
} from '../../src/live/url-state/shared-providers';

const writeSharedProviders = (current: URLSearchParams, on: boolean): URLSearchParams => writeProviderOptions(current, { sharedProviders: on });
const parseSharedProviders = (search: URLSearchParams): boolean => parseProviderOptions(search).sharedProviders;

describe('shared_providers in the URL', () => {
  it('is off by default, 1 when on, and absent again when off; other keys stay', () => {
    expect(parseSharedProviders(new URLSearchParams(''))).toBe(false);
    const on = writeSharedProviders(new URLSearchParams('state=CA'), true);
    expect(on.toString()).toBe('state=CA&shared_providers=1');
    expect(parseSharedProviders(on)).toBe(true);
    expect(writeSharedProviders(on, false).toString()).toBe('state=CA');
    expect(parseSharedProviders(new URLSearchParams('shared_providers=true'))).toBe(true);
    for (const v of ['0', 'false', 'yes', '']) expect(parseSharedProviders(new URLSearchParams(`shared_providers=${v}`))).toBe(false);
  });

  it('sends shared_providers only when on', () => {
    expect(providerOptionsParam({ sharedProviders: true, billed: false })).toEqual({ shared_providers: true });
    expect(providerOptionsParam({ sharedProviders: false, billed: false })).toEqual({});
    expect(SHARED_PROVIDERS_HELP).toBe('Prices only at providers that the reference insurer and at least one competitor both have rates with');
  });
});

describe('billed in the URL', () => {
  it('is off by default, 1 when on, independent of shared_providers', () => {
    expect(parseProviderOptions(new URLSearchParams('state=CA'))).toEqual({ sharedProviders: false, billed: false });
    const on = writeProviderOptions(new URLSearchParams('state=CA&shared_providers=1'), { billed: true });
    expect(on.toString()).toBe('state=CA&shared_providers=1&billed=1');
    expect(parseProviderOptions(on)).toEqual({ sharedProviders: true, billed: true });
    expect(writeProviderOptions(on, { sharedProviders: false }).toString()).toBe('state=CA&billed=1');
    expect(parseProviderOptions(new URLSearchParams('billed=yes')).billed).toBe(false);
    expect(providerOptionsParam({ sharedProviders: true, billed: true })).toEqual({ shared_providers: true, billed: true });
    expect(BILLED_HELP).toBe("Prices only at providers with at least one claim of the service in the reference insurer's claims");
  });

  it('round-trips in the comparison state, goes to the API, the CSV name and the way from the dashboard', () => {
    const s = { ...DEFAULT_STATE, billed: true };
    const url = writeLiveComparison(new URLSearchParams(), s);
    expect(url.toString()).toBe('billed=1');
    expect(parseLiveComparison(url)).toEqual(s);
    expect(withChange({ ...DEFAULT_STATE, page: 2 }, { billed: true })).toMatchObject({ page: 0, billed: true });
    expect(pricingParams(s, [])).toMatchObject({ billed: true });
    expect(pricingParams(DEFAULT_STATE, [])).not.toHaveProperty('billed');
    expect(comparisonFileName(s, ['alpha', 'beta'], 2)).toBe('live-comparison_where-billed_page-1-of-50.csv');
    expect(comparisonPathOf('70551', 20.69, { sharedProviders: true, billed: true })).toBe('/live-comparison?services=70551&shared_providers=1&billed=1');
  });
});

describe('live comparison with At shared providers', () => {
  it('round-trips in the URL state, and a change of it goes back to page 1', () => {
    expect(DEFAULT_STATE.sharedProviders).toBe(false);
    const s = { ...DEFAULT_STATE, sharedProviders: true, category: 'Lab' as const };
    const url = writeLiveComparison(new URLSearchParams(), s);
    expect(url.toString()).toBe('category=Lab&shared_providers=1');
    expect(parseLiveComparison(url)).toEqual(s);
    expect(writeLiveComparison(url, { ...s, sharedProviders: false }).toString()).toBe('category=Lab');
    expect(withChange({ ...DEFAULT_STATE, page: 3 }, { sharedProviders: true })).toMatchObject({ page: 0, sharedProviders: true });
  });

  it('goes to the API and into the CSV file name', () => {
    const s = { ...DEFAULT_STATE, sharedProviders: true };
    expect(pricingParams(s, ['alpha'])).toEqual({
      limit: 50, offset: 0, sort: 'overpayment', only_overpaying: true, competitors: ['alpha'], shared_providers: true,
    });
    expect(pricingParams(DEFAULT_STATE, [])).not.toHaveProperty('shared_providers');
    expect(comparisonFileName(s, ['alpha', 'beta'], 2)).toBe('live-comparison_shared-providers_page-1-of-50.csv');
    expect(comparisonFileName(DEFAULT_STATE, ['alpha', 'beta'], 2)).toBe('live-comparison_page-1-of-50.csv');
  });

  it('carries over from a dashboard bar to the comparison of its service', () => {
    expect(comparisonPathOf('70551', 20.69, { sharedProviders: true, billed: false })).toBe('/live-comparison?services=70551&shared_providers=1');
    expect(comparisonPathOf('70551', 20.69)).toBe('/live-comparison?services=70551');
  });
});
